"""The epsilon page's scrubber: dragging ε under the chart redraws it with no script run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .helpers import Visit, exception_report, script_runs, wait_charts

pytestmark = pytest.mark.browser

SCRUB = ".st-key-scrub .js-plotly-plot"
# The scrubber chart's first curve (h_eps) as plotted now, and the slider's active step.
STATE_JS = """
() => {
  const gd = document.querySelector(".st-key-scrub .js-plotly-plot");
  const y = gd._fullData[0].y;  // decoded (gd.data keeps the base64 typed array as sent)
  return { y: Array.from(y).slice(0, 50).join(","), active: gd.layout.sliders[0].active };
}
"""


def test_scrubbing_eps_redraws_in_the_browser_without_a_rerun(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", {"eps": "1e-06"})
    page = visit.page
    wait_charts(page, 7)
    page.locator(SCRUB + " .slider-container").wait_for()
    before = page.evaluate(STATE_JS)
    assert before["active"] == 0  # the scrubber opens at the page's ε
    runs = script_runs(page)
    page.locator(SCRUB).scroll_into_view_if_needed()
    rail = page.locator(SCRUB + " .slider-rail-touch-rect").bounding_box()
    assert rail is not None
    page.mouse.click(rail["x"] + rail["width"] * 0.9, rail["y"] + rail["height"] / 2)
    page.wait_for_function(
        "(a) => document.querySelector('.st-key-scrub .js-plotly-plot')"
        ".layout.sliders[0].active !== a",
        arg=before["active"],
        timeout=5_000,
    )
    page.wait_for_timeout(500)  # a rerun, if one were started, would have begun by now
    after = page.evaluate(STATE_JS)
    assert after["active"] > 20
    assert after["y"] != before["y"]  # other ε, other curve
    assert script_runs(page) == runs  # no round trip to the server
    assert not exception_report(visit)
