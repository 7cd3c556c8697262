"""Keyboard walks (issue 35, WCAG 2.1.1, 2.4.3 and 2.4.7): Tab from the top reaches each
control, each shows a focus ring, and each works from the keyboard. On /epsilon: the page
links, presets, vector box, a question's answer box and Check, the live control (the one ε
control: the page's own ε slider is not drawn and takes no Tab stop). On
/weighted-centering: the presentation switch, a question answered by choosing an option,
the point dragged on the plane; then, in presentation mode (the folded sidebar out of the
Tab order), the QR panel and the slides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lnviz.app.streamlit_dom import SIDEBAR_FOLDED

from .helpers import Visit, interact, wait_ready

pytestmark = pytest.mark.browser

# The page's controls on /epsilon, by the key class of their box (the first match wins; a
# class ending in "*" counts each of its boxes apart: the presets).
CONTROLS = {
    "presets": "st-key-eps-presets-*",
    "live control": "st-key-eps-live",
    "vector box": "st-key-z",
    "answer box": "st-key-answer-",
    "Check": "st-key-FormSubmitter-quiz-",
}
# Each element's outline and box-shadow in the keyed boxes (those whose key starts with one
# of `prefixes`, else the focused one; the live control's shadow root included), and where
# the focus is: a ring is an outline or shadow on the focused element (unless it is hidden,
# as an option's or a switch's input is), or one that focus brought elsewhere in its box.
_LOOK_JS = """(prefixes) => {
  const all = (root) => [...root.querySelectorAll('*')]
    .flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
  const style = (e) => { const s = getComputedStyle(e);
    return (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none'
      : s.outlineStyle + ' ' + s.outlineColor) + '|' + s.boxShadow; };
  const keyOf = (e) => String(e.className).match(/st-key-\\S+/)[0];
  const hidden = (e) => { for (; e && e.getBoundingClientRect; e = e.parentElement) {
    const r = e.getBoundingClientRect();  // (a box of 1 px that clips: a hidden input's)
    if ((r.width <= 1 || r.height <= 1) && getComputedStyle(e).overflow === 'hidden') return true; }
    return false; };
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  let box = el;
  while (box && !String(box.className).includes('st-key-'))
    box = box.parentElement || (box.getRootNode() && box.getRootNode().host);
  const key = box ? keyOf(box) : '';
  const boxes = {};
  const wanted = prefixes ? [...document.querySelectorAll('[class*="st-key-"]')]
    .filter((b) => prefixes.some((p) => keyOf(b).startsWith(p))) : box ? [box] : [];
  for (const b of wanted) boxes[keyOf(b)] = [b, ...all(b)].map(style);
  return { boxes, key, tag: el ? el.tagName : '',
           own: el && !hidden(el) ? style(el) : 'none|none',
           help: !!(el && el.tagName === 'BUTTON' && el.closest('label')),  // a label's (?) icon
           sidebar: !!(el && el.closest && el.closest('.stSidebar')),
           nav: !!(el && el.closest && el.closest('.st-key-lnviz-course-nav a')) };
}"""


def _ring(before: list[str], now: list[str]) -> bool:
    """Focus drew an outline or a shadow somewhere in the box (the slider's ring is on its
    thumb, a text box's on the box around the input, an option's on its label)."""
    return any(b != n and n != "none|none" for b, n in zip(before, now, strict=False))


def _walk(page: Any, controls: dict[str, str], count: int, limit: int = 90) -> dict[str, Any]:
    """Tab on until `count` controls ({name: key-class prefix}) have had the focus: for
    each, whether it showed a ring; and where else the focus went on the way."""
    prefixes = [k.rstrip("*") for k in controls.values()]
    start = page.evaluate(_LOOK_JS, prefixes)["boxes"]  # their look before the focus comes
    reached: dict[str, bool] = {}
    seen: dict[str, Any] = {"nav ring": None, "sidebar stops": 0, "path": []}
    for _ in range(limit):
        page.keyboard.press("Tab")
        look = page.evaluate(_LOOK_JS, None)
        seen["sidebar stops"] += look["sidebar"]
        seen["path"].append(look["key"] or look["tag"])
        if look["nav"] and seen["nav ring"] is None:  # the sidebar's first page link
            seen["nav ring"] = not look["own"].startswith("none")
        name = next((n for n, k in controls.items() if look["key"].startswith(k.rstrip("*"))), None)
        if name and not look["help"] and look["tag"] != "A":
            name = look["key"] if controls[name].endswith("*") else name
            own = look["own"] != "none|none"
            ring = own or _ring(start.get(look["key"], []), look["boxes"][look["key"]])
            reached[name] = reached.get(name, False) or ring
        if len(reached) == count:
            break
    return {**seen, "reached": reached}


def _ringless(walk: dict[str, Any]) -> list[str]:
    return [name for name, ring in walk["reached"].items() if not ring]


def test_tab_reaches_every_control_with_a_ring_and_keys_work(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon")
    page = visit.page
    page.locator(".st-key-eps-live .live").wait_for()  # every control drawn (this one last)
    walk = _walk(page, CONTROLS, len(CONTROLS) + 3)  # four presets
    assert walk["nav ring"], "the sidebar's page links show no focus ring"
    assert sorted(walk["reached"]) == sorted(
        [n for n in CONTROLS if n != "presets"] + [f"st-key-eps-presets-{k}" for k in range(4)]
    ), walk
    assert not _ringless(walk), f"no focus ring: {_ringless(walk)}"
    assert "st-key-eps" not in walk["path"], "a second ε control took the focus"

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


def test_options_the_dragged_point_slides_and_the_qr_panel_by_keyboard(
    open_page: Callable[..., Visit],
) -> None:
    """On /weighted-centering: a question answered by choosing an option, the point dragged
    on the plane, then presentation mode's QR panel and slides, all from the keyboard."""
    page = open_page("weighted-centering").page
    page.locator(".st-key-x-live .live-pad").wait_for()
    walk = _walk(
        page, {"presentation switch": "st-key-present", "questions": "st-key-question-"}, 2
    )
    assert walk["reached"] == {"presentation switch": True, "questions": True}, walk
    for _ in range(4):  # the arrow keys go through the questions: to one with options
        if page.locator(".st-key-lnviz-quiz input[type=radio]").count():
            break
        interact(page, lambda: page.keyboard.press("ArrowRight"))
    walk = _walk(page, {"option": "st-key-answer-"}, 1)
    assert walk["reached"] == {"option": True}, walk
    page.keyboard.press("ArrowDown")  # picks the next option (a wrong one), Tab to Check
    assert page.locator(".st-key-lnviz-quiz input[type=radio]:checked").count() == 1
    page.keyboard.press("Tab")
    check = page.locator('[class*="st-key-FormSubmitter-quiz-"] button')
    assert check.evaluate("(b) => b === document.activeElement")
    interact(page, lambda: page.keyboard.press("Enter"))
    assert page.locator('.st-key-lnviz-quiz [data-testid="stAlert"]').count() >= 1

    walk = _walk(page, {"point": "st-key-x-live"}, 1)  # on from Check to the live point
    assert walk["reached"] == {"point": True}, walk
    pad = page.locator(".st-key-x-live .live")
    page.locator(".st-key-x-live .live[data-ready='1']").wait_for()
    wait_ready(page)
    before = page.url
    interact(page, lambda: page.keyboard.press("ArrowUp"))
    assert pad.get_attribute("data-shown")  # drawn in the browser
    page.wait_for_function("(u) => location.href !== u", arg=before)

    # Presentation mode, by its switch: the folded sidebar is out of the Tab order.
    page.locator(".st-key-present input").focus()
    interact(page, lambda: page.keyboard.press("Space"))
    page.locator(SIDEBAR_FOLDED).wait_for(state="attached")
    walk = _walk(page, {"QR panel": "st-key-join", "slides": "st-key-slide-start"}, 1)
    assert walk["reached"] == {"QR panel": True} and walk["sidebar stops"] == 0, walk
    interact(page, lambda: page.keyboard.press("Enter"))  # the panel opens, Escape closes it
    panel = page.get_by_role("dialog", name="Scan to open this view")
    panel.locator("img").wait_for(state="visible")  # drawn once the dialog has opened
    interact(page, lambda: page.keyboard.press("Escape"))
    panel.wait_for(state="hidden")
    assert page.locator(".st-key-join button").evaluate("(b) => b === document.activeElement")

    walk = _walk(page, {"slides": "st-key-slide-start"}, 1)
    assert walk["reached"] == {"slides": True}, walk
    interact(page, lambda: page.keyboard.press("Enter"))  # one section a screen
    assert "slide=1" in page.url
    page.wait_for_function(  # the focus goes on to Next, with its ring
        "() => document.activeElement.closest('.st-key-slide-next')"
    )
    assert not page.evaluate(_LOOK_JS, None)["own"].startswith("none|none")
    for key, slide in (("Enter", 2), ("ArrowLeft", 1), ("ArrowRight", 2)):  # two slides
        interact(page, lambda key=key: page.keyboard.press(key))
        page.wait_for_function("(s) => document.body.dataset.lnvizSlide === s", arg=str(slide))
    assert f"slide={slide}" in page.url
