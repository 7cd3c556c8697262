"""axe-core (4.12, the engine behind Lighthouse's accessibility audit) on every page.

The project's own markup has no serious or critical violation at 1280 px and at 390 px,
in the light theme and in the dark one, the whole page included (`audit`, run on the loads
of test_browser_pages and test_phone_layout): the course's navigation is
drawn with st.page_link (Streamlit 1.67's own sidebar navigation had list violations of its
own: its list held `div`s, its items sat outside a list; docs/accessibility.md).
The same holds in states beyond the defaults: a question answered, the charts' numbers
shown, a glossary entry opened by its link, the worked examples' checks opened, and
presentation mode.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest

from .chart_contrast import chart_marks, contrast_failures
from .conftest import DESKTOP
from .helpers import Visit, exception_report, interact

pytestmark = pytest.mark.browser

AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
SEVERE = {"serious", "critical"}


def severe_violations(page: Any, context: Any) -> dict[str, list[str]]:
    """axe's serious and critical violations in `context`: {rule: [targets]}."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_JS)
    result = page.evaluate(
        "async (context) => await axe.run(context, {resultTypes: ['violations']})", context
    )
    return {
        v["id"]: [str(n["target"][-1])[-120:] for n in v["nodes"]]
        for v in result["violations"]
        if v["impact"] in SEVERE
    }


STRUCTURE_JS = """() => {
  const shown = (h) => h.getClientRects().length > 0 && !h.closest('[aria-hidden="true"]');
  const main = document.querySelector('main');
  const levels = main ? [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(shown)
    .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 60)]) : [];
  return { lang: document.documentElement.lang, levels,
    h1: [...document.querySelectorAll('h1')].filter(shown).length,
    main: document.querySelectorAll('main').length,
    nav: document.querySelectorAll('nav, [role="navigation"]').length };
}"""


def structure_problems(page: Any) -> list[str]:
    """One h1, headings in the main landmark that start at h1 and never skip a level,
    one main landmark and a navigation one, the page's language set."""
    found = page.evaluate(STRUCTURE_JS)
    problems = [f"{found['h1']} h1"] if found["h1"] != 1 else []
    previous = 0
    for level, text in found["levels"]:
        if level > previous + 1:
            problems.append(f"h{level} after h{previous}: {text}")
        previous = level
    if found["main"] != 1 or found["nav"] < 1:
        problems.append(f"landmarks: {found['main']} main, {found['nav']} navigation")
    if not found["lang"]:
        problems.append("no lang on <html>")
    return problems


def no_severe_violation(page: Any) -> None:
    found = severe_violations(page, {"include": [["html"]]})
    assert found == {}, found


def faint_chart_marks(page: Any, where: str) -> list[str]:
    """Text and trace marks in the drawn charts below their contrast (axe does not measure
    inside Plotly's SVG): tests/browser/chart_contrast.py."""
    return [f"{where}: {found}" for found in contrast_failures(chart_marks(page))]


def audit(page: Any, where: str) -> list[str]:
    """Everything this file checks on a page as loaded: axe's serious and critical
    violations, the heading structure and the charts' faint marks. Called on the loads of
    the per-page tests (test_browser_pages at 1280 px light, test_phone_layout at 390 px
    dark): each page's own markup is audited in both, with no load of its own."""
    found = severe_violations(page, {"include": [["html"]]})
    problems = [f"{where}: axe {rule}: {targets}" for rule, targets in found.items()]
    problems += [f"{where}: {p}" for p in structure_problems(page)]
    return problems + faint_chart_marks(page, where)


def test_the_audit_finds_each_kind_of_problem(open_page: Callable[..., Visit]) -> None:
    """The audit itself: grey text at Streamlit's own caption contrast (3.9:1), an h4
    right under the page's h1 and a second h1 are found."""
    page = open_page("references").page
    page.evaluate(
        """() => { const main = document.querySelector('main');
          const p = document.createElement('p'); p.textContent = 'A low-contrast line';
          p.style.color = '#828180'; p.style.background = '#ffffff'; main.prepend(p);
          for (const tag of ['h4', 'h1']) { const h = document.createElement(tag);
            h.textContent = 'probe ' + tag; main.querySelector('h1').after(h); } }"""
    )
    found = audit(page, "probe")
    assert any(f.startswith("probe: axe color-contrast") for f in found), found
    assert {"probe: 2 h1", "probe: h4 after h1: probe h4"} <= set(found), found


def _answered_with_numbers(visit: Visit) -> None:
    """A wrong answer checked, then every chart's numbers on, the first of them opened."""
    page = visit.page
    page.locator('[class*="st-key-answer-"] input').fill("1000")
    interact(page, page.locator('[class*="st-key-FormSubmitter-quiz-"] button').click)
    assert page.locator('.st-key-lnviz-quiz [data-testid="stAlert"]').count() >= 1
    interact(page, page.locator(".st-key-lnviz-chart-tables label").click)
    numbers = page.locator('[data-testid="stExpander"] summary', has_text="The numbers behind")
    interact(page, numbers.first.click)
    page.locator(".lnviz-numbers[tabindex='0']").first.wait_for()  # the keyboard reaches it


def _checks_open(visit: Visit) -> None:
    summary = visit.page.locator("summary", has_text="Checks: every claim")
    interact(visit.page, summary.click)
    visit.page.locator('[class*="st-key-claim-"]').first.wait_for()


STATES = {  # a state beyond the defaults: (page, link, what the visitor does, theme)
    "answered-numbers": ("epsilon", None, _answered_with_numbers, "light"),
    "glossary-entry": ("glossary", {"term": "epsilon"}, None, "dark"),
    "examples-checks": ("examples", None, _checks_open, "light"),
    "presentation": ("epsilon", {"present": "true"}, None, "dark"),
}


@pytest.mark.parametrize("state", STATES)
def test_other_states_have_no_serious_violation(
    open_page: Callable[..., Visit], state: str
) -> None:
    url_path, query, act, scheme = STATES[state]
    visit = open_page(url_path, query, viewport=DESKTOP, color_scheme=scheme)
    if act is not None:
        act(visit)
    assert not exception_report(visit)
    no_severe_violation(visit.page)


FAKE_CHART = """<body style="color: rgb(49, 51, 63)"><div class="js-plotly-plot">
<svg class="main-svg" width="300" height="200" style="background: rgb(255, 255, 255)">
<g class="trace scatter" style="opacity: 1"><path class="js-line" d="M0,10L300,10"
  style="stroke: rgb(242, 142, 43); stroke-width: 2px"></path></g>
<g class="trace scatter" style="opacity: 0.4"><path class="js-line" d="M0,20L300,20"
  style="stroke: rgb(242, 142, 43); stroke-width: 2px"></path></g>
<g class="trace scatter"><path class="js-line" d="M0,30L300,30"
  style="stroke: rgb(78, 121, 167); stroke-width: 2px"></path></g>
<g class="xtick"><text x="10" y="60" style="font-size: 12px; fill: rgb(128, 132, 149)">-5</text></g>
<g class="xtick"><text x="10" y="80" style="font-size: 12px; fill: rgb(49, 51, 63)">5</text></g>
<g class="infolayer"><g class="annotation"><rect class="bg" x="0" y="100" width="200" height="40"
  style="fill: rgb(23, 22, 20); fill-opacity: 1"></rect><text x="10" y="125"
  style="font-size: 12px; fill: rgb(49, 51, 63)">on a dark box</text></g>
<text x="10" y="180" style="font-size: 24px; fill: rgb(128, 132, 149)">large</text></g>
</svg></div></body>"""


def test_the_chart_contrast_check_finds_faint_marks(browser: Any) -> None:
    """The check itself, on a chart drawn by hand: a light-orange line (2.4:1), grey tick
    text (3.7:1) and dark text on an annotation's dark box are found; the same line at
    opacity 0.4 (context), a blue line, dark tick text and large grey text pass."""
    page = browser.new_page()
    try:
        page.set_content(FAKE_CHART)
        found = contrast_failures(chart_marks(page))
    finally:
        page.close()
    assert [f.split(": ", 1)[1].split(" at ")[0] for f in found] == [
        "text -5 rgb(128, 132, 149)",
        "text on a dark box rgb(49, 51, 63)",
        "line trace rgb(242, 142, 43)",
    ], found


MOTION_JS = """async (reduce) => {
  const gd = document.querySelector('.js-plotly-plot');
  await window.Plotly.react(gd, gd.data, { ...gd.layout, transition: { duration: 800 } });
  const own = document.getAnimations().filter((a) => a.effect && a.effect.target &&
    a.effect.target.closest && a.effect.target.closest('.js-plotly-plot, .live'));
  return { duration: gd.layout.transition ? gd.layout.transition.duration : 0, own: own.length };
}"""


def test_reduced_motion_turns_chart_transitions_off(open_page: Callable[..., Visit]) -> None:
    """A chart that asks for an 800 ms transition is drawn without one when the visitor
    prefers reduced motion (the suite's contexts do), and keeps it otherwise; no CSS
    animation or transition runs on the charts or the live controls."""
    page = open_page("epsilon").page  # charts and a live control
    page.wait_for_function("() => window.Plotly && window.Plotly.__lnvizLazy")  # wrapped
    assert page.evaluate(MOTION_JS) == {"duration": 0, "own": 0}
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(MOTION_JS)["duration"] == 800
