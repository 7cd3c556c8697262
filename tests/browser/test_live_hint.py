"""A live control's hint says the charts follow the drag once the page's plotly.js is
there. On a first visit plotly.js may arrive after the control is drawn (it loads with the
page's first chart): the hint must change then, not keep saying the charts wait for the
release (a review found it stuck on about one load in two)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from lnviz.app.live import HINT, HINT_POINT

from .helpers import Visit

pytestmark = pytest.mark.browser

LIVE_PAGES = {  # page: what its live controls' hints say, in page order
    "epsilon": [HINT],
    "invariance": [HINT, HINT],
    "gain-and-bias": [HINT],
    "weighted-centering": [HINT, HINT_POINT],
    "batch-statistics": [HINT],
}


@pytest.mark.parametrize("url_path", sorted(LIVE_PAGES))
def test_every_live_controls_hint_says_the_charts_follow(
    open_page: Callable[..., Visit], url_path: str
) -> None:
    visit = open_page(url_path, color_scheme="dark")
    hints = visit.page.locator(".live-hint")  # (inside each control's shadow root)
    expect(hints).to_have_count(len(LIVE_PAGES[url_path]), timeout=15_000)
    for i, hint in enumerate(LIVE_PAGES[url_path]):  # plotly.js is given its time to arrive
        expect(hints.nth(i)).to_have_text(hint, timeout=15_000)
    # the track is drawn by the control's style in the theme's colours, not the native
    # one (which stays white in dark mode): no native appearance left
    look = visit.page.locator(".live-input").first.evaluate(
        "(el) => getComputedStyle(el).appearance"
    )
    assert look == "none", look
    assert not visit.page_errors, visit.page_errors
