"""Fixtures of the real-browser suite: one app server and one Chromium for the session,
and one browser context per server whose pages the tests open and close.

Pages share their server's context so that Streamlit's and Plotly's scripts come from the
browser's cache, parsed once (docs/benchmarks.md, "The suite's time"); each test still
gets new pages, so a new Streamlit session each, with its own viewport and colour scheme.

Chromium is Debian's (/usr/bin/chromium); Playwright only drives it. Without either, the
tests skip on a developer's machine and fail under CI=true (see tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import require_module, require_tool

from .helpers import (
    CHROMIUM,
    LAUNCH_ARGS,
    RUN_COUNTER_JS,
    AppServer,
    Visit,
    app_server,
    goto,
)

# A page that ran its script to the end but never became ready (wait_ready): what still
# waits, or null for any other failure (no run yet, still running).
NEVER_READY_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const runs = window.__lnviz ? window.__lnviz.runs : 0;
  if (!app || !runs || app.getAttribute("data-test-script-state") !== "notRunning") return null;
  const draws = window.__lnvizCharts ? window.__lnvizCharts.busy() : 0;
  const skeletons = app.querySelectorAll('[data-testid="stSkeleton"]').length;
  return `${draws} chart draws and ${skeletons} skeletons still waiting`;
}"""

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Browser, BrowserContext, Page

# A new tab of a shared context starts with an empty localStorage, as in a new context
# (Streamlit keeps the sidebar's folded state there: a phone's fold followed the next test
# to 1280 px). sessionStorage belongs to the tab, so a reload keeps what the tab stored.
FRESH_STORAGE_JS = """if (window.top === window && !sessionStorage.getItem('lnviz-tab')) {
  localStorage.clear(); sessionStorage.setItem('lnviz-tab', '1'); }"""
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _require_browser_tools() -> None:
    require_tool(CHROMIUM)
    require_module("playwright")


class BrowserPool:
    """The session's Chromium, replaceable.

    Debian's Chromium drawing WebGL in software sometimes stalls in its GPU process, which
    every context of that browser shares: a page with a 3-D chart then never finishes a
    draw, even in a fresh context. `replace()` closes that browser and launches another
    for the rest of the session.
    """

    def __init__(self, launch: Callable[[], Browser]) -> None:
        self._launch = launch
        self.current = launch()
        self.replaced = 0
        self._shared: dict[str, BrowserContext] = {}

    def replace(self) -> Browser:
        with contextlib.suppress(Exception):
            self.current.close()
        self.current = self._launch()
        self._shared = {}
        self.replaced += 1
        return self.current

    def shared(self, base_url: str) -> BrowserContext:
        """The context whose pages visit the server at `base_url` (made on first use)."""
        if base_url not in self._shared:
            context = self.current.new_context(base_url=base_url, reduced_motion="reduce")
            context.set_default_timeout(15_000)
            context.add_init_script(RUN_COUNTER_JS)
            context.add_init_script(FRESH_STORAGE_JS)
            context.on("close", lambda _: self._shared.pop(base_url, None))  # a test closed it
            self._shared[base_url] = context
        return self._shared[base_url]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.current.close()


@pytest.fixture(scope="session")
def browser_pool() -> Iterator[BrowserPool]:
    """Debian's Chromium, headless, driven by Playwright's sync API (see BrowserPool)."""
    _require_browser_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        pool = BrowserPool(
            lambda: pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        )
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture
def browser(browser_pool: BrowserPool) -> Browser:
    """The session's Chromium as it stands now (a new one after a GPU stall)."""
    return browser_pool.current


@pytest.fixture(scope="session")
def start_server(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Any]:
    """Start an extra app server (a context manager), e.g. one that no visitor has seen."""

    def start(name: str) -> contextlib.AbstractContextManager[AppServer]:
        _require_browser_tools()
        return app_server(tmp_path_factory.mktemp("server") / f"{name}.log")

    return start


@pytest.fixture(scope="session")
def server(browser_pool: BrowserPool, start_server: Callable[[str], Any]) -> Iterator[AppServer]:
    """The app, served once for the whole session on a free port of 127.0.0.1.

    Before any test, one visitor opens the home page, as after a deploy: that runs the
    router (app.py) once and loads the app's modules, so no test depends on being first.
    """
    with start_server("app") as srv:
        context = browser_pool.current.new_context(base_url=srv.url)
        try:
            context.add_init_script(RUN_COUNTER_JS)
            goto(Visit(context.new_page(), srv), "")
        finally:
            context.close()
        yield srv


def never_ready(page: Page) -> str | None:
    """What still waits on `page`, if it ran its script but never got ready."""
    with contextlib.suppress(Exception):
        return page.evaluate(NEVER_READY_JS)
    return None


@pytest.fixture
def open_page(browser_pool: BrowserPool, server: AppServer) -> Iterator[Callable[..., Visit]]:
    """Open a page of the app in its server's shared context (closed after the test, with
    any page it opened).

    open_page("epsilon", {"eps": "4/3"}, viewport=PHONE, color_scheme="dark")
    """
    opened: list[tuple[BrowserContext, set[Page]]] = []

    def open_(
        url_path: str = "",
        query: dict[str, str] | None = None,
        *,
        viewport: dict[str, int] | None = None,
        color_scheme: str = "light",
        app: AppServer | None = None,
    ) -> Visit:
        srv = app or server
        first = not opened  # the test's first page: nothing else of it lives in the browser
        pages: list[Page] = []

        def visit_in_current_browser() -> Visit:
            context = browser_pool.shared(srv.url)
            opened.append((context, set(context.pages)))
            page = context.new_page()
            pages.append(page)
            page.set_viewport_size(viewport or DESKTOP)
            page.emulate_media(color_scheme=color_scheme, reduced_motion="reduce")  # type: ignore[arg-type]
            visit = Visit(page, srv)
            visit.listen()
            goto(visit, url_path, query)
            return visit

        try:
            return visit_in_current_browser()
        except AssertionError as err:
            waiting = never_ready(pages[-1]) if first else None
            if waiting is None:
                raise
            # Chromium's GPU process stall (BrowserPool): once more in a fresh browser, warned.
            warnings.warn(f"{err}: {waiting}; opened again in a fresh browser", stacklevel=2)
            browser_pool.replace()
            return visit_in_current_browser()

    yield open_
    for context, before in opened:
        for page in context.pages:
            if page not in before:
                with contextlib.suppress(Exception):
                    page.close()
