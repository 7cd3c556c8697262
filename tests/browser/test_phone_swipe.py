"""On a phone a swipe that starts on a chart scrolls the page (issue 37): charts there do not
take a drag for zooming, and a 3-D chart is a still picture that touches pass through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PHONE, BrowserPool
from .helpers import RUN_COUNTER_JS, AppServer, Visit, goto, wait_charts

pytestmark = pytest.mark.browser

PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)
MAIN = "[data-testid=stMain]"


@pytest.fixture
def phone(browser_pool: BrowserPool, server: AppServer) -> Iterator[Any]:
    """A touch phone's browser context (its User-Agent says Mobile, as a phone's does)."""
    context = browser_pool.current.new_context(
        base_url=server.url, viewport=PHONE, has_touch=True, is_mobile=True,
        user_agent=PHONE_AGENT, device_scale_factor=2, reduced_motion="reduce",
    )  # fmt: skip
    context.set_default_timeout(15_000)
    context.add_init_script(RUN_COUNTER_JS)
    try:
        yield context
    finally:
        context.close()


def _swipe_up(cdp: Any, x: float, y: float, distance: float = 300, steps: int = 12) -> None:
    """A finger's swipe upwards from (x, y): touch events as the screen sends them."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, steps + 1):
        point = {"x": x, "y": y - distance * k / steps}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _scrolled_by_swipe_on(visit: Visit, cdp: Any, chart: Any) -> float:
    page = visit.page
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box = chart.bounding_box()
    assert box is not None
    top = page.locator(MAIN).evaluate("(m) => m.scrollTop")
    _swipe_up(cdp, box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 200))
    page.wait_for_timeout(600)
    return page.locator(MAIN).evaluate("(m) => m.scrollTop") - top


@pytest.mark.parametrize(("url_path", "charts"), [("epsilon", 2), ("reduction-axes", 2)])
def test_a_swipe_on_a_chart_scrolls_the_page(
    phone: Any, server: AppServer, url_path: str, charts: int
) -> None:
    visit = Visit(phone.new_page(), server)
    visit.listen()
    goto(visit, url_path)
    wait_charts(visit.page, charts)
    cdp = phone.new_cdp_session(visit.page)
    plots = visit.page.locator(".stPlotlyChart")
    for i in range(charts):
        moved = _scrolled_by_swipe_on(visit, cdp, plots.nth(i))
        assert moved > 100, f"{url_path}: a swipe on chart {i + 1} moved the page {moved} px"
    if url_path == "reduction-axes":  # its first chart is 3-D: a still picture on a phone
        assert visit.page.locator("[class*='st-key-still-3d-'] .stPlotlyChart").count() >= 1
