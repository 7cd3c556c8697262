"""A live control's hint says the charts follow the drag once the page's plotly.js is
there. On a first visit plotly.js may arrive after the control is drawn (it loads with the
page's first chart): the hint must change then, not keep saying the charts wait for the
release (a review found it stuck on about one load in two).

Checked on the phone test's load of each live page, in the dark theme
(test_phone_layout: a page load costs several CPU-seconds here)."""

from __future__ import annotations

from playwright.sync_api import expect

from lnviz.app.live import HINT, HINT_POINT

from .helpers import Visit

LIVE_PAGES = {  # page: what its live controls' hints say, in page order
    "epsilon": [HINT],
    "invariance": [HINT, HINT],
    "gain-and-bias": [HINT],
    "weighted-centering": [HINT, HINT_POINT],
    "batch-statistics": [HINT],
}


def assert_live_hints_say_the_charts_follow(visit: Visit, url_path: str) -> None:
    """Each live control's hint is the one its page expects; the track has no native look."""
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
