"""Lazy charts (lnviz/app/lazy_charts.py): after a move, a changed chart far from the screen
is drawn when the visitor scrolls near it, with the new state; charts on screen at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import IDLE_JS, ROOT, Visit, interact, wait_charts, wait_ready
from .runs import runs_of, wait_finished

pytestmark = pytest.mark.browser

TALL = {"width": 1280, "height": 1500}  # the first charts on screen, the last ones far below
MARGIN_PX = 200  # lazy.js's MARGIN_PX

# Every chart: its key, whether it is drawn, and whether it is within MARGIN_PX of the
# main pane's visible part.
CHARTS_JS = """(margin) => {
  const pane = document.querySelector('[data-testid="stMain"]').getBoundingClientRect();
  return [...document.querySelectorAll('.stPlotlyChart')].map((el) => {
    const box = el.closest('[data-testid="stElementContainer"]');
    const r = box.getBoundingClientRect();
    const key = [...box.classList].find((c) => c.startsWith('st-key-'));
    const gd = el.querySelector('.js-plotly-plot');
    return {
      key: key ? key.slice(7) : null,
      drawn: !!(gd && gd.querySelector('.main-svg')),
      near: r.bottom >= pane.top - margin && r.top <= pane.bottom + margin,
      data: gd && gd.data ? JSON.stringify(gd.data,
        (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)) : null,
    };
  });
}"""


def charts(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(CHARTS_JS, MARGIN_PX)


def move_without_drawing_all(page: Any, act: Callable[[], None]) -> None:
    """Do `act` and wait for its rerun to end, without the tests' readiness (which draws
    every waiting chart)."""
    finished = runs_of(page).finished
    act()
    wait_finished(page, finished, 30_000)
    page.wait_for_function(IDLE_JS, arg=0, timeout=30_000, polling=50)
    page.wait_for_timeout(300)  # the charts' draws, after the run's last delta


def press_eps(page: Any) -> Callable[[], None]:
    """An action: an arrow key on the page's ε control, its live control. It is focused
    first and its frames wait for, so that the run a move waits for is the value's, not the
    one that brings the frames."""
    page.locator(".st-key-eps-live .live input").focus()
    page.locator(".st-key-eps-live .live[data-ready='1']").wait_for()
    wait_ready(page)
    return lambda: page.keyboard.press("ArrowRight")


def test_a_move_draws_the_charts_near_the_screen_and_the_others_when_scrolled_to(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", viewport=TALL)
    page = visit.page
    for part in page.locator("summary", has_text="Going further").all():
        part.click()  # its folded parts' charts, far below the screen, too
    wait_ready(page)
    before = {c["key"]: c["data"] for c in charts(page)}
    assert all(before.values()), "every chart is drawn once the page is ready"

    move_without_drawing_all(page, press_eps(page))
    after = charts(page)
    near = [c for c in after if c["near"]]
    far = [c for c in after if not c["near"]]
    assert near and far, f"the layout no longer has charts on and off screen: {after}"
    for c in near:  # ε feeds every chart of the page: each near one shows the new state
        assert c["drawn"] and c["data"] != before[c["key"]], c["key"]
    for c in far:
        assert not c["drawn"], f"{c['key']} was drawn far below the screen"
    assert page.evaluate("() => window.__lnvizCharts.pending()") == len(far)

    for c in far:  # scroll to each: it is drawn, with the new state
        page.locator(f".st-key-{c['key']}").scroll_into_view_if_needed()
        try:
            page.wait_for_function(
                "(key) => !!document.querySelector(`.st-key-${key} .js-plotly-plot .main-svg`)",
                arg=c["key"],
                timeout=15_000,
            )
        except PlaywrightTimeout as err:  # say which chart, and what still waits
            waiting = page.evaluate("() => window.__lnvizCharts.pending()")
            raise AssertionError(
                f"{c['key']} not drawn 15 s after it was scrolled to ({waiting} charts "
                f"waiting; page errors {visit.page_errors})"
            ) from err
    now = {c["key"]: c for c in charts(page)}
    for c in far:
        assert now[c["key"]]["drawn"] and now[c["key"]]["data"] != before[c["key"]], c["key"]
    assert page.evaluate("() => window.__lnvizCharts.pending()") == 0
    assert not visit.page_errors, visit.page_errors


def test_the_tests_readiness_draws_every_waiting_chart(open_page: Callable[..., Visit]) -> None:
    """What the other browser tests rely on: after interact(), no chart is left waiting."""
    visit = open_page("epsilon")
    interact(visit.page, press_eps(visit.page))
    wait_ready(visit.page)
    assert visit.page.evaluate("() => window.__lnvizCharts.busy()") == 0
    assert all(c["drawn"] for c in charts(visit.page))


def test_waiting_for_charts_draws_the_ones_left_waiting(open_page: Callable[..., Visit]) -> None:
    """wait_charts draws charts that a page mounted after its ready check, far below the
    screen (in presentation mode at 1920 px every chart of reduction axes is), instead of
    waiting for a scroll that a test never makes."""
    visit = open_page("epsilon", viewport=TALL)
    page = visit.page
    for part in page.locator("summary", has_text="Going further").all():
        part.click()  # charts far below the screen (the main flow fits in TALL)
    wait_ready(page)
    total = len(charts(page))
    move_without_drawing_all(page, press_eps(page))
    assert page.evaluate("() => window.__lnvizCharts.pending()") > 0
    assert wait_charts(page, total, timeout=5_000) == total


LAZY_JS = (ROOT / "lnviz" / "app" / "lazy_component" / "lazy.js").read_text()

# A main pane that scrolls, with one chart container far below its visible part.
FAR_BOX_PAGE = """<main style="height: 300px; overflow: auto">
  <div style="height: 3000px"></div>
  <div class="stElementContainer" id="box"><div id="old"></div><div id="new"></div></div>
</main>"""

# A stand-in for Plotly (react marks the div drawn), then the order of a chart mounted
# again in the same container: the new div's first draw before the old div's purge.
REMOUNT_JS = """async () => {
  window.Plotly = { react: (gd) => { gd.dataset.drawn = "1"; return Promise.resolve(); },
                    purge: () => {} };
  const [old, fresh] = [document.getElementById("old"), document.getElementById("new")];
  window.Plotly.react(old, [], {});
  window.Plotly.react(fresh, [], {});
  window.Plotly.purge(old);
  const waiting = window.__lnvizCharts.pending();
  document.getElementById("box").scrollIntoView();
  for (let i = 0; i < 100 && !fresh.dataset.drawn; i++) await new Promise(requestAnimationFrame);
  return { waiting, drawn: fresh.dataset.drawn === "1", left: window.__lnvizCharts.pending() };
}"""


def test_a_chart_mounted_again_before_the_old_ones_purge_is_drawn_when_scrolled_to(
    browser: Any,
) -> None:
    """Two divs in one container wait to be drawn, the old one is purged: the container
    stays watched for the new one (it was once unwatched with the old, never drawn)."""
    page = browser.new_page()
    try:
        page.set_content(FAR_BOX_PAGE)
        page.add_script_tag(content=LAZY_JS, type="module")
        page.wait_for_function("() => !!window.__lnvizCharts")
        seen = page.evaluate(REMOUNT_JS)
    finally:
        page.close()
    assert seen == {"waiting": 1, "drawn": True, "left": 0}, seen
