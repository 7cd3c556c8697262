"""A keyboard walk (issue 35, WCAG 2.1.1 and 2.4.7): on a course page with a live control,
Tab from the top reaches every control of the page, each shows a focus ring, and each
works from the keyboard."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .helpers import Visit, interact, wait_ready

pytestmark = pytest.mark.browser

# The page's controls on /epsilon, by the key class of their box (the first match wins).
CONTROLS = {
    "presets": "st-key-eps-presets-",
    "live control": "st-key-eps-live",
    "slider": "st-key-eps",
    "vector box": "st-key-z",
    "answer box": "st-key-answer-",
    "Check": "st-key-FormSubmitter-quiz-",
}
# Each element's outline and box-shadow in every keyed box (the live control's shadow root
# included), and where the focus is: a ring is an outline or shadow on the focused element,
# or one that focus brought elsewhere in its box.
_LOOK_JS = """() => {
  const all = (root) => [...root.querySelectorAll('*')]
    .flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
  const style = (e) => { const s = getComputedStyle(e);
    return (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none'
      : s.outlineStyle + ' ' + s.outlineColor) + '|' + s.boxShadow; };
  const boxes = {};
  for (const box of document.querySelectorAll('[class*="st-key-"]')) {
    const key = String(box.className).match(/st-key-\\S+/)[0];
    boxes[key] = [box, ...all(box)].map(style);
  }
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  let box = el;
  while (box && !String(box.className).includes('st-key-'))
    box = box.parentElement || (box.getRootNode() && box.getRootNode().host);
  const key = box ? String(box.className).match(/st-key-\\S+/)[0] : '';
  return { boxes, key, tag: el ? el.tagName : '', own: el ? style(el) : '',
           nav: !!(el && el.closest && el.closest('.st-key-lnviz-course-nav a')) };
}"""


def _ring(before: list[str], now: list[str]) -> bool:
    """Focus drew an outline or a shadow somewhere in the box (the slider's ring is on its
    thumb, a text box's on the box around the input)."""
    return any(b != n and n != "none|none" for b, n in zip(before, now, strict=False))


def test_tab_reaches_every_control_with_a_ring_and_keys_work(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon")
    page = visit.page
    page.locator(".st-key-eps-live .live").wait_for()  # every control drawn (this one last)
    start = page.evaluate(_LOOK_JS)["boxes"]  # nothing focused yet
    reached: dict[str, bool] = {}  # control (each preset apart) -> a ring was seen
    nav_ring = None
    for _ in range(90):
        page.keyboard.press("Tab")
        look = page.evaluate(_LOOK_JS)
        if look["nav"] and nav_ring is None:  # the sidebar's first page link
            nav_ring = not look["own"].startswith("none")
        name = next((n for n, k in CONTROLS.items() if look["key"].startswith(k)), None)
        if name and look["tag"] in ("INPUT", "BUTTON", "TEXTAREA"):
            name = look["key"] if name == "presets" else name
            ring = look["own"] != "none|none" or _ring(
                start.get(look["key"], []), look["boxes"][look["key"]]
            )
            reached[name] = reached.get(name, False) or ring
        if len(reached) == len(CONTROLS) + 3:  # four presets
            break
    assert nav_ring, "the sidebar's page links show no focus ring"
    assert sorted(reached) == sorted(
        [n for n in CONTROLS if n != "presets"] + [f"st-key-eps-presets-{k}" for k in range(4)]
    ), reached
    assert all(reached.values()), f"no focus ring: {[n for n, r in reached.items() if not r]}"

    # The slider: an arrow key moves ε, and the link follows.
    before = page.url
    slider = page.locator(".st-key-eps input[type=range]")
    interact(page, lambda: (slider.focus(), page.keyboard.press("ArrowRight")))
    assert "eps=" in page.url and page.url != before

    # The question: a wrong answer, Tab to Check, Enter: a verdict.
    page.locator('[class*="st-key-answer-"] input').focus()
    page.keyboard.type("1000")
    page.keyboard.press("Tab")
    check = page.locator('[class*="st-key-FormSubmitter-quiz-"] button')
    assert check.evaluate("(b) => b === document.activeElement")
    interact(page, lambda: page.keyboard.press("Enter"))
    assert page.locator('.st-key-lnviz-quiz [data-testid="stAlert"]').count() >= 1

    # The live control: focus asks for its frames; an arrow key moves the charts at once
    # and, once the keys pause, sets the page's ε.
    live = page.locator(".st-key-eps-live .live")
    live.locator("input").focus()
    page.locator(".st-key-eps-live .live[data-ready='1']").wait_for()
    wait_ready(page)
    shown, before = live.get_attribute("data-frames") or "0", page.url
    interact(page, lambda: page.keyboard.press("ArrowRight"))
    assert (live.get_attribute("data-frames") or "0") != shown  # drawn in the browser
    page.wait_for_function("(u) => location.href !== u", arg=before)
    assert "eps=" in page.url
