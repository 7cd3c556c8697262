"""A page that runs but never gets ready is opened once more in a fresh browser, warned.

Debian's Chromium drawing WebGL in software sometimes stalls in its GPU process: a 3-D
chart's draw never ends, in every context of that browser (tests/browser/conftest.py,
BrowserPool). open_page opens the test's first page again in a fresh browser; here a
planted chart registry that always has a draw waiting stands in for the stall.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from . import helpers
from .conftest import BrowserPool
from .helpers import AppServer, Visit, chart_count

pytestmark = pytest.mark.browser

# lazy.js installs window.__lnvizCharts only if none is there: this one never draws.
NEVER_DRAWS_JS = "window.__lnvizCharts = {pending: () => 1, busy: () => 1, drawAll: () => {}};"


def test_a_page_whose_draw_never_ends_is_opened_again_in_a_fresh_browser(
    browser_pool: BrowserPool,
    server: AppServer,
    open_page: Callable[..., Visit],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replaced = browser_pool.replaced
    browser_pool.shared(server.url).add_init_script(NEVER_DRAWS_JS)
    # the stalled browser's wait: long enough for the page's first run on a busy machine
    monkeypatch.setattr(helpers, "READY_TIMEOUT_MS", 10_000)
    real_replace = browser_pool.replace

    def replace() -> object:  # the fresh browser gets the usual wait
        monkeypatch.setattr(helpers, "READY_TIMEOUT_MS", 30_000)
        return real_replace()

    monkeypatch.setattr(browser_pool, "replace", replace)
    try:
        with pytest.warns(UserWarning, match=r"[1-9]\d* chart draws and \d+ skeletons still"):
            visit = open_page("epsilon")
        assert browser_pool.replaced == replaced + 1
        assert chart_count(visit.page) >= 1  # drawn in the fresh browser
    finally:
        if browser_pool.replaced == replaced:  # never leave the planted context to others
            real_replace()
