"""Control and effect on one screen (issue 37): on a wide screen a page's short box of
controls stays at the top while the page scrolls, so the charts it drives are never a screen
away from it; its background is the app's own in either theme; a phone scrolls it away."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import Visit

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

STICKY = ".st-key-lnviz-page-controls-sticky"
# pages whose controls box is short enough to stay on screen; the others pass sticky=False
STICKY_PAGES = ("why-normalize", "gain-and-bias", "epsilon", "invariance", "sequences")

_AFTER_SCROLL_JS = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const charts = [...document.querySelectorAll('[data-testid=stPlotlyChart]')].map(
    (c) => c.getBoundingClientRect()).filter((r) => r.top >= box.bottom - 1
      && r.top < window.innerHeight);
  const app = getComputedStyle(document.querySelector('.stApp')).backgroundColor;
  return { top: box.top, bottom: box.bottom, chartsBelow: charts.length, app,
           own: getComputedStyle(document.querySelector(sel)).backgroundColor };
}"""


def _scroll_past_the_controls(visit: Visit) -> None:
    """Scroll the page (as a wheel over the main pane does) until the first chart's top is
    a third of the way down the screen: the controls' own place is then far above."""
    page = visit.page  # (the first chart on screen: a folded part's charts are hidden)
    page.locator("[data-testid=stPlotlyChart]:visible").first.wait_for(timeout=30_000)
    page.mouse.move(DESKTOP["width"] * 0.6, DESKTOP["height"] * 0.5)
    for _ in range(20):
        top = page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
            ".find((c) => c.offsetParent !== null).getBoundingClientRect().top"
        )
        if top <= page.viewport_size["height"] / 3:
            break
        page.mouse.wheel(0, min(400, top - page.viewport_size["height"] / 3 + 1))
        page.wait_for_timeout(150)
    page.wait_for_timeout(300)


def assert_the_controls_stay_above_their_charts(visit: Visit) -> None:
    """Scrolled past its place, the box is under Streamlit's header with a chart below it,
    in the app's own background; then the page is scrolled back to its top. Checked on the
    render test's load of each STICKY_PAGES page (test_browser_pages), in the light theme,
    and its background again there in the dark one (assert_the_box_is_the_apps_colour)."""
    page = visit.page
    _scroll_past_the_controls(visit)
    seen = page.evaluate(_AFTER_SCROLL_JS, STICKY)
    assert 40 <= seen["top"] <= 80, seen  # just under Streamlit's header, not scrolled away
    assert seen["bottom"] <= DESKTOP["height"] * 0.3, seen  # a short box
    assert seen["chartsBelow"] >= 1, seen  # a chart it drives on the same screen
    assert seen["own"] == seen["app"], seen  # opaque, in the app's own colour
    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")


def assert_the_box_is_the_apps_colour(page: Page) -> None:
    """The controls box's background is the app's, in the theme now shown."""
    seen = page.evaluate(_AFTER_SCROLL_JS, STICKY)
    assert seen["own"] == seen["app"], seen


def test_a_phone_scrolls_the_controls_away(open_page: Callable[..., Visit]) -> None:
    """On a phone the box is an ordinary block (the whole small screen is the page's),
    while the same page at 1280 px holds it."""
    visit = open_page("epsilon", viewport=PHONE)
    page = visit.page
    parent_position = (
        f"() => getComputedStyle(document.querySelector('{STICKY}').parentElement).position"
    )
    assert page.evaluate(parent_position) != "sticky"
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    assert page.evaluate(parent_position) == "sticky"
