"""Two replicas behind nginx (deploy/replicas.py), visited in Chromium through the balancer.

nginx pins each visitor to one replica with a cookie it sets itself, and names the replica
that answered in an `X-Lnviz-Upstream` response header (a local-config header). Chromium's
DevTools protocol gives the websocket handshake's headers too, so every request of a
visitor, its websocket included, is traced to a replica. Checked: every page loads; a
visitor's page load, websocket, reruns and downloads all stay on one replica; new visitors
spread over both; when a replica dies, new visitors go to the other one and an existing
visitor reconnects there and gets its state back from its URL.

Needs Debian's nginx (`nginx`): skipped locally without it, failed under CI=true.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from deploy.replicas import COOKIE_NAME, UPSTREAM_HEADER, Balancer, balanced_app, route
from lnviz.app.ui import eps_label, eps_options
from tests.conftest import require_tool

from .helpers import (
    EXCEPTION,
    RUN_COUNTER_JS,
    interact,
    linked_query,
    metric_value,
    press_on_slider,
    slider_value,
    text_input_value,
    wait_ready,
)
from .runs import count_runs, runs_of

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Browser, BrowserContext, Page

    from .conftest import BrowserPool

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 900}
NEW_VISITORS = 16  # newcomers take the replicas in turn: 8 and 8

# Remembers whether Streamlit ever showed its connection status ("CONNECTING" after the
# websocket dropped), however briefly.
CONNECTION_JS = """
(() => {
  window.__lnvizConnection = { shown: false };
  new MutationObserver(() => {
    if (document.querySelector('[data-testid="stConnectionStatus"]'))
      window.__lnvizConnection.shown = true;
  }).observe(document, { subtree: true, childList: true });
})();
"""


def routed_paths() -> list[str]:
    """Every page's url_path, from the page registry ("" for the home page)."""
    from lnviz.content import registry

    return [p.url_path for p in registry.PAGES]


def served_by(header: str | None) -> str | None:
    """The replica that finally answered: nginx lists every one it tried ("a, b")."""
    return header.split(",")[-1].strip() if header else None


@dataclass
class Visitor:
    """One browser context (one visitor, one cookie jar) and what its page did."""

    context: BrowserContext
    page: Page
    # (url, status, X-Lnviz-Upstream) of every response a server sent (not the cache's)
    responses: list[tuple[str, int, str | None]] = field(default_factory=list)
    sockets: list[str | None] = field(default_factory=list)  # each handshake's upstream
    sockets_closed: int = 0
    page_errors: list[str] = field(default_factory=list)

    def replicas(self) -> set[str | None]:
        """The replicas that answered this visitor's requests and websockets."""
        return {served_by(u) for _, _, u in self.responses} | {served_by(s) for s in self.sockets}

    def failures(self) -> list[tuple[str, int]]:
        return [(url, status) for url, status, _ in self.responses if status >= 500]

    def cookie(self) -> str | None:
        values = [c["value"] for c in self.context.cookies() if c["name"] == COOKIE_NAME]
        assert len(values) <= 1, values
        return values[0] if values else None

    def wait_sockets(self, n: int, timeout_s: float = 20.0) -> None:
        deadline = time.monotonic() + timeout_s
        while len(self.sockets) < n and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)  # lets Playwright deliver the CDP events
        assert len(self.sockets) >= n, f"{len(self.sockets)} websocket handshakes, wanted {n}"


def new_visitor(browser: Browser, bal: Balancer) -> Visitor:
    context = browser.new_context(base_url=bal.url, viewport=DESKTOP, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    context.add_init_script(RUN_COUNTER_JS)
    context.add_init_script(CONNECTION_JS)
    page = context.new_page()
    count_runs(page)  # interact() waits on the runs counted on its WebSocket
    visitor = Visitor(context, page)

    cached: set[str] = set()

    def on_response(event: dict[str, Any]) -> None:
        response = event["response"]
        if not response["url"].startswith(bal.url + "/"):
            return  # data: URLs (inlined fonts) and the like never reach nginx
        if event["requestId"] in cached or response.get("fromDiskCache"):
            return  # not asked of a server now: its headers are from an earlier visit
        headers = {k.lower(): v for k, v in response["headers"].items()}
        visitor.responses.append(
            (response["url"], response["status"], headers.get(UPSTREAM_HEADER.lower()))
        )

    def on_handshake(event: dict[str, Any]) -> None:
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        visitor.sockets.append(headers.get(UPSTREAM_HEADER.lower()))

    def on_closed(_event: dict[str, Any]) -> None:
        visitor.sockets_closed += 1

    page.on("pageerror", lambda err: visitor.page_errors.append(str(err)))
    # Chrome's DevTools protocol: unlike Playwright's response events, it tells which
    # responses came from the browser's cache, and it shows websocket handshakes.
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.requestServedFromCache", lambda event: cached.add(event["requestId"]))
    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.webSocketHandshakeResponseReceived", on_handshake)
    cdp.on("Network.webSocketClosed", on_closed)
    return visitor


def visit(visitor: Visitor, path: str, query: str = "") -> None:
    visitor.page.goto("/" + path + (f"?{query}" if query else ""), wait_until="domcontentloaded")
    wait_ready(visitor.page)


def assert_clean(visitor: Visitor, bal: Balancer) -> None:
    """No exception on the page, no script error, no 5xx from nginx."""
    shown = visitor.page.locator(EXCEPTION).all_inner_texts()
    assert not shown, f"{visitor.page.url}: {shown}\n{bal.log_tails()}"
    assert not visitor.page_errors, visitor.page_errors
    assert not visitor.failures(), f"{visitor.failures()}\n{bal.log_tails()}"


def access_log_lines(bal: Balancer, pattern: str, timeout_s: float = 5.0) -> list[str]:
    """Lines of nginx's access log matching `pattern` (nginx logs a request at its end)."""
    deadline = time.monotonic() + timeout_s
    while True:
        text = bal.access_log.read_text() if bal.access_log.exists() else ""
        lines = [line for line in text.splitlines() if re.search(pattern, line)]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


@contextlib.contextmanager
def started(n: int = 2) -> Iterator[Balancer]:
    """`n` replicas behind nginx; a failed start fails the test with the logs' ends."""
    require_tool(shutil.which("nginx") or "/usr/sbin/nginx")
    with contextlib.ExitStack() as stack:
        try:
            bal = stack.enter_context(balanced_app(n))
        except RuntimeError as err:
            pytest.fail(f"the balanced app did not start: {err}", pytrace=False)
        yield bal


def warm(browser: Browser, bal: Balancer) -> None:
    """One visit to each replica directly, as after a deploy: the first script run of a
    server imports the app's modules, and no test should time that."""
    for replica in bal.replicas:
        context = browser.new_context(base_url=replica.url)
        try:
            context.add_init_script(RUN_COUNTER_JS)
            page = context.new_page()
            page.goto("/", wait_until="domcontentloaded")
            wait_ready(page, timeout=60_000)
        finally:
            context.close()


@pytest.fixture(scope="module")
def balancer(browser_pool: BrowserPool) -> Iterator[Balancer]:
    with started(2) as bal:
        warm(browser_pool.current, bal)
        yield bal


@pytest.fixture
def visitors(browser: Browser) -> Iterator[Callable[[Balancer], Visitor]]:
    """Make visitors (fresh browser contexts); closed after the test."""
    made: list[Visitor] = []

    def make(bal: Balancer) -> Visitor:
        made.append(new_visitor(browser, bal))
        return made[-1]

    yield make
    for v in made:
        with contextlib.suppress(Exception):
            v.context.close()


# --------------------------------------------------------------------------- the tests


# The pages a visitor's browser opens through nginx: the home page, a page with charts, one
# with a live control and a dataframe, a reference page. Every page loads in
# test_browser_pages; here the point is where each request goes.
BROWSED = ("", "epsilon", "numerics", "references")


def run_every_page(url: str) -> dict[str, list[str]]:
    """Open every page of the app at `url` over Streamlit's protocol (a visitor without a
    browser, benchmarks/stclient.py); each page's errors."""
    from benchmarks.harness import run_coroutine
    from benchmarks.stclient import Visitor as ProtocolVisitor

    async def every() -> dict[str, list[str]]:
        errors: dict[str, list[str]] = {}
        for path in routed_paths():
            async with ProtocolVisitor.connect(url) as v:
                errors[path] = (await v.open(path)).errors
        return errors

    return run_coroutine(every())


def test_pages_load_on_the_visitors_one_replica_which_fits_its_memory_request(
    balancer: Balancer, visitors: Callable[[Balancer], Visitor]
) -> None:
    visitor = visitors(balancer)
    paths = routed_paths()
    assert len(paths) >= 12 and "" in paths and set(BROWSED) <= set(paths)
    for path in BROWSED:
        visit(visitor, path)
        assert_clean(visitor, balancer)

    # one cookie, set on the first response, and every request and websocket of the
    # page loads answered by the replica it names
    cookie = visitor.cookie()
    assert cookie and re.fullmatch(r"r[0-9]+", cookie)
    [jar] = [c for c in visitor.context.cookies() if c["name"] == COOKIE_NAME]
    assert (jar["path"], jar["httpOnly"], jar["sameSite"]) == ("/", True, "Lax")
    assert len(visitor.sockets) == len(BROWSED), "one websocket per page load"
    [replica] = visitor.replicas()
    assert cookie == route(balancer.replica_at(replica).index), "the cookie names its replica"
    logged = access_log_lines(balancer, f"route={cookie} ")
    assert logged and all(f"upstream={replica} " in line for line in logged)

    # that replica, having run every page, fits the pod's memory request (deploy/k8s)
    chosen = balancer.replica_at(replica)
    errors = {path: e for path, e in run_every_page(chosen.url).items() if e}
    assert not errors, errors
    rss = chosen.rss_bytes()
    deployment = yaml.safe_load((ROOT / "deploy" / "k8s" / "deployment.yaml").read_text())
    request = deployment["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]
    request_mib = int(request["memory"].removesuffix("Mi"))
    assert rss is not None and rss / 2**20 < request_mib, (rss, request_mib)


def test_a_visitor_keeps_its_replica_and_state_over_many_reruns(
    balancer: Balancer, visitors: Callable[[Balancer], Visitor]
) -> None:
    visitor = visitors(balancer)
    page = visitor.page
    visit(visitor, "epsilon")
    page.evaluate("() => { window.__lnvizSamePage = true; }")  # gone if the page reloads
    labels = [eps_label(e) for e in eps_options(False)]
    at = labels.index(slider_value(page, "eps"))
    runs = runs_of(page).finished

    moves = 10  # each a rerun over the one websocket; sticky routing holds or it does not
    for step in range(1, moves + 1):
        interact(page, press_on_slider(page, "eps", "ArrowLeft"))
        want = labels[at - step]
        assert slider_value(page, "eps") == want, f"move {step}"
        page.wait_for_url(lambda url, want=want: linked_query(url).get("eps") == want)

    assert page.evaluate("() => window.__lnvizSamePage === true"), "the page was reloaded"
    assert runs_of(page).finished >= runs + moves
    assert metric_value(page, "ε") == labels[at - moves]
    assert_clean(visitor, balancer)
    # one websocket all along, never dropped, on the replica that served the page
    assert len(visitor.sockets) == 1 and visitor.sockets_closed == 0
    assert len(visitor.replicas()) == 1


def test_a_download_comes_from_the_visitors_replica(
    balancer: Balancer, visitors: Callable[[Balancer], Visitor]
) -> None:
    visitor = visitors(balancer)
    visit(visitor, "reduction-axes", "scheme=group")
    [replica] = visitor.replicas()
    visitor.page.locator("summary", has_text="every group, as a table").click()  # its fold
    button = visitor.page.get_by_role("button", name="Download groups as CSV")
    button.wait_for(state="visible")  # the fold's content drawn (a loaded CI machine is slow)
    with visitor.page.expect_download(timeout=30_000) as download:
        interact(visitor.page, button.click)
    path = download.value.path()
    assert download.value.suggested_filename == "lnviz-groups-group.csv"
    assert Path(path).read_text().startswith("group,")
    # the file lives in that replica's memory: nginx sent the request there
    lines = access_log_lines(balancer, rf"\"GET /media/.* route={visitor.cookie()} ")
    assert lines, "no /media/ request in nginx's access log"
    for line in lines:
        assert '" 200 ' in line and f"upstream={replica} " in line, lines
    assert_clean(visitor, balancer)


def test_new_visitors_take_the_replicas_in_turn(
    balancer: Balancer, visitors: Callable[[Balancer], Visitor]
) -> None:
    # nginx tells visitors apart by their cookie only: an emptied cookie jar is a new one.
    # The requests go through the context's own HTTP client (same cookie jar) rather than
    # page.goto: a navigation makes Chromium fetch /favicon.ico on its own schedule, and
    # such a request still in flight when the jar is emptied comes back with a cookie
    # that replaces the one under test (seen in CI).
    visitor = visitors(balancer)
    http = visitor.context.request
    routes = {route(r.index): r.address for r in balancer.replicas}
    seen: list[str] = []
    for _ in range(NEW_VISITORS):
        visitor.context.clear_cookies()
        first = http.get("/_stcore/health")
        assert first.ok
        cookie = visitor.cookie()
        assert cookie in routes, f"{cookie!r} names no replica ({routes})"
        assert f"{COOKIE_NAME}={cookie};" in first.headers.get("set-cookie", "")
        replica = served_by(first.headers.get(UPSTREAM_HEADER.lower()))
        assert replica == routes[cookie], "the cookie names the replica that answered"
        seen.append(replica)
        # a returning request keeps the cookie and the replica, and sets no new cookie
        again = http.get("/_stcore/health")
        assert again.ok
        assert served_by(again.headers.get(UPSTREAM_HEADER.lower())) == replica, (
            f"{cookie}: {replica}, then {again.headers}\n"
            + "\n".join(access_log_lines(balancer, f"route={cookie} "))
        )
        assert COOKIE_NAME not in again.headers.get("set-cookie", "")
        assert visitor.cookie() == cookie
    # in turn: an even split (a hash of random keys split 16 visitors 11 and 5 or worse
    # about one time in five)
    counts = [seen.count(address) for address in routes.values()]
    assert max(counts) - min(counts) <= 1, dict(zip(routes.values(), counts, strict=True))


def test_a_made_up_route_cookie_is_replaced(
    balancer: Balancer, visitors: Callable[[Balancer], Visitor]
) -> None:
    for made_up in ("../../etc", "r9", "lnviz", "r0:r0"):
        visitor = visitors(balancer)
        visitor.context.add_cookies([{"name": COOKIE_NAME, "value": made_up, "url": balancer.url}])
        response = visitor.page.goto("/_stcore/health")
        assert response is not None and response.ok
        replica = served_by(response.headers.get(UPSTREAM_HEADER.lower()))
        assert visitor.cookie() == route(balancer.replica_at(replica).index), made_up


def test_a_dead_replica_leaves_its_visitors_and_new_ones_to_the_other(
    browser: Browser, visitors: Callable[[Balancer], Visitor]
) -> None:
    with started(2) as bal:
        warm(browser, bal)
        old = visitors(bal)
        page = old.page
        visit(old, "epsilon", "eps=4%2F3&z=1%2C2%2C4")
        for _ in range(2):
            interact(page, press_on_slider(page, "eps", "ArrowLeft"))
        page.wait_for_url(lambda url: linked_query(url).get("eps") == "0.56")
        state = {"eps": slider_value(page, "eps"), "z": text_input_value(page, "z")}
        assert state == {"eps": "0.56", "z": "1,2,4"}
        [dead_address] = old.replicas()
        dead = bal.replica_at(dead_address)
        [alive] = [r for r in bal.replicas if r is not dead]

        bal.kill_replica(dead.index)  # SIGKILL: as if the process crashed
        assert not dead.alive()

        # the open page: Streamlit notices, shows "connecting" and opens a new websocket,
        # which nginx sends to the live replica; the page keeps its state and works there
        old.wait_sockets(2)
        assert old.sockets_closed >= 1
        assert served_by(old.sockets[-1]) == alive.address
        assert page.evaluate("() => window.__lnvizConnection.shown"), "no reconnect shown"
        wait_ready(page)
        assert slider_value(page, "eps") == "0.56"
        interact(page, press_on_slider(page, "eps", "ArrowRight"))
        page.wait_for_url(lambda url: linked_query(url).get("eps") == "1")
        state = {"eps": slider_value(page, "eps"), "z": text_input_value(page, "z")}
        assert state == {"eps": "1", "z": "1,2,4"}
        assert metric_value(page, "ε") == "1"
        assert_clean(old, bal)

        # reloading its address gives the visitor its state back, from the live replica
        address = page.url
        old.responses.clear()
        page.goto(address, wait_until="domcontentloaded")
        wait_ready(page)
        assert {"eps": slider_value(page, "eps"), "z": text_input_value(page, "z")} == state
        assert metric_value(page, "mean μ") == "2.333333"
        assert {served_by(u) for _, _, u in old.responses} == {alive.address}
        assert old.cookie() == route(alive.index), "re-pinned to the live replica"
        assert_clean(old, bal)

        # new visitors: all served by the live replica, without an error
        for n in range(4):
            new = visitors(bal)
            if n < 2:
                visit(new, "epsilon")
                assert metric_value(new.page, "ε") == "1/3"
            else:
                response = new.page.goto("/_stcore/health")
                assert response is not None and response.ok
            assert new.replicas() == {alive.address}, new.replicas()
            assert_clean(new, bal)
