"""Helpers of the real-browser suite: the app server, readiness, and reading the page.

Nothing here imports Playwright at module level, so collecting this file (doctests
included) works on a machine without it; the fixtures in conftest.py skip or fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from deploy.replicas import Replica, serve

from .runs import FRAME_COUNTER_JS, count_runs, runs_of, wait_finished, wait_until

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# Whole-pane screenshots as well as the viewport's, for a person to look through: growing
# the viewport to a page's height redraws every chart at that size and rasterizes up to
# 16,000 px, about 3.5 CPU-seconds a page here, so the suite takes them only when asked.
FULL_SCREENSHOTS = os.environ.get("LNVIZ_FULL_SCREENSHOTS", "") == "1"

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

STARTUP_TIMEOUT_S = 60.0  # a cold start on a busy 2-core CI machine takes a few seconds
READY_TIMEOUT_MS = 30_000  # one script run of the heaviest page, with margin
RERUN_START_TIMEOUT_MS = 2_000  # how long an interaction may take to start a rerun

APP = "[data-testid=stApp]"
EXCEPTION = "[data-testid=stException]"
CHARTS = ".js-plotly-plot"

# Counts the script runs the page shows, from the first paint on (installed as an init
# script in each context); wait_ready's first-load check reads it. Reruns after that are
# counted on the WebSocket (runs.py), which misses none: React may apply a fast run's
# start and end in one batch, and then the DOM never shows it. Here runs are counted from
# the values stApp's data-test-script-state takes, including the old values the mutation
# records carry.
RUN_COUNTER_JS = (
    """
(() => {
  const st = (window.__lnviz = { runs: 0, last: null });
  const ATTR = "data-test-script-state";
  const step = (s) => {
    if (s !== st.last) {
      if (s === "running") st.runs += 1;
      st.last = s;
    }
  };
  const check = (records) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return;
    for (const r of records || []) {
      if (r.type === "attributes" && r.attributeName === ATTR && r.target === app) step(r.oldValue);
    }
    step(app.getAttribute(ATTR));
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: [ATTR],
  });
})();
"""
    + FRAME_COUNTER_JS
)  # and the frames handed to the page (runs.py)

# Idle: the script has run (at least minRuns times) and is not running, and no element is
# still a skeleton. Streamlit marks the run finished before lazily loaded components
# (metrics, dataframes, charts, ...) have replaced their skeletons, so "notRunning" alone
# can be seen on a page that is still half drawn.
IDLE_JS = """
(minRuns) => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && !!window.__lnviz && window.__lnviz.runs >= minRuns
    && app.getAttribute("data-test-script-state") === "notRunning"
    && !app.querySelector('[data-testid="stSkeleton"]');
}
"""
# Ready: idle, and every chart drawn. Charts far from the screen wait to be drawn until the
# visitor scrolls near them (lnviz/app/lazy_charts.py); a test that reads the page draws
# them all first (tests/browser/test_lazy_charts.py tests the waiting itself).
_IS_READY_JS = f"""
(minRuns) => {{
  if (!({IDLE_JS})(minRuns)) return false;
  const charts = window.__lnvizCharts;
  if (charts && charts.busy()) {{
    charts.drawAll();
    return false;
  }}
  return true;
}}
"""

# A chart's plotted data as a string, typed arrays spelled out (Plotly decodes the
# base64 arrays that plotly.py sends into typed arrays).
_CHART_DATA_JS = """
(i) => {
  const gd = document.querySelectorAll(".js-plotly-plot")[i];
  if (!gd || !gd.data) return null;
  return JSON.stringify(gd.data, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
}
"""


# --------------------------------------------------------------------------- the server

AppServer = Replica  # a running `streamlit run app.py`: url, pid, proc, log_path, log_tail()


@contextlib.contextmanager
def app_server(log_path: Path, timeout_s: float = STARTUP_TIMEOUT_S) -> Iterator[AppServer]:
    """Start the app on a free port of 127.0.0.1, wait for its health check, stop it after.

    deploy/replicas.py starts it, as it starts the balancer's replicas: its own process
    group, stopped on every way out. A failed start fails the test with the log's end.
    """
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(serve("app.py", log_path=log_path, timeout_s=timeout_s))
        except RuntimeError as err:
            pytest.fail(f"the app server did not start: {err}", pytrace=False)
        yield server


# --------------------------------------------------------------------------- the page


@dataclass
class Visit:
    """An open page of the app and what it did besides rendering."""

    page: Page
    server: AppServer
    dialogs: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # warnings and errors logged

    def listen(self) -> None:
        """Record the page's dialogs (dismissed), uncaught errors, console warnings, and the
        runs asked for and finished over its WebSocket (tests/browser/runs.py)."""
        count_runs(self.page)

        def on_dialog(dialog: Any) -> None:
            self.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        def on_console(message: Any) -> None:
            if message.type in ("warning", "error"):
                self.console.append(f"{message.type}: {message.text}")

        self.page.on("dialog", on_dialog)
        self.page.on("pageerror", lambda err: self.page_errors.append(str(err)))
        self.page.on("console", on_console)

    @property
    def asked_runs(self) -> int:
        """Reruns the page asked for (BackMsg.rerun_script)."""
        return runs_of(self.page).asked

    @property
    def finished_runs(self) -> int:
        """Runs that finished (ForwardMsg.script_finished, not one cut short by the next)."""
        return runs_of(self.page).finished


def url_for(url_path: str, query: dict[str, str] | None = None) -> str:
    """The path and encoded query of a page.

    >>> url_for("epsilon", {"eps": "4/3", "z": "1,2,4"})
    '/epsilon?eps=4%2F3&z=1%2C2%2C4'
    >>> url_for("")
    '/'
    """
    return "/" + url_path + ("?" + urlencode(query) if query else "")


def script_runs(page: Page) -> int:
    return int(page.evaluate("() => (window.__lnviz ? window.__lnviz.runs : 0)"))


def arm_live(page: Page, key: str, timeout: float = READY_TIMEOUT_MS) -> None:
    """Reach for the live control `key` as a visitor does (the pointer over it), so that the
    server sends its frames (frames on demand, lnviz.app.live), and wait until the control
    holds them and the run that brought them has finished."""
    control = page.locator(f".st-key-{key} .live")
    control.evaluate("(e) => e.scrollIntoView({block: 'center'})")  # clear of sticky boxes
    control.hover()
    # (the control lives in its component's shadow root: Playwright's selectors reach it)
    page.locator(f".st-key-{key} .live[data-ready='1']").wait_for(timeout=timeout)
    wait_ready(page)


def wait_ready(page: Page, min_runs: int = 1, timeout: float | None = None) -> None:
    """Wait until the app has run its script at least `min_runs` times and is idle (within
    READY_TIMEOUT_MS unless told: read at the call, so a test can shorten it)."""
    timeout = READY_TIMEOUT_MS if timeout is None else timeout
    try:
        page.wait_for_function(_IS_READY_JS, arg=min_runs, timeout=timeout, polling=50)
    except Exception as err:
        state = page.evaluate(
            "() => document.querySelector('[data-testid=stApp]')"
            "?.getAttribute('data-test-script-state') ?? '(no stApp)'"
        )
        raise AssertionError(
            f"the app at {page.url} was not ready within {timeout / 1000:.0f} s "
            f"(script state {state!r}, runs seen {script_runs(page)}, wanted {min_runs})"
        ) from err


_LIVE_STATE_JS = """() => {
  const all = (root) => [...root.querySelectorAll('.live'), ...[...root.querySelectorAll('*')]
    .filter((e) => e.shadowRoot).flatMap((e) => all(e.shadowRoot))];  // components isolate
  return {
    focused: document.activeElement ? document.activeElement.outerHTML.slice(0, 80) : null,
    live: all(document).map((w) => ({
      ...w.dataset, value: w.querySelector('input') && w.querySelector('input').value,
    })),
  };
}"""


def wait_for_rerun(visit: Visit, finished: int, timeout: float) -> None:
    """Wait until a run finishes after the first `finished` (Visit.finished_runs) and the
    page is idle. On a timeout, say what the page's live controls had shown and sent, what
    had the focus, and what it logged."""
    page = visit.page
    wait_finished(
        page,
        finished,
        timeout,
        lambda: (
            f"{page.evaluate(_LIVE_STATE_JS)}; errors {visit.page_errors}; "
            f"console {visit.console[-8:]}"
        ),
    )
    wait_ready(page)


def goto(visit: Visit, url_path: str, query: dict[str, str] | None = None) -> None:
    """Open a page (relative to the server) and wait for its first script run to end.

    A page that has not finished a single run when the wait ends is loaded once more, as a
    visitor would press reload: near the end of a full suite on two cores a first load
    could see no run within 30 s (once in a run, not again alone). A page that runs and
    then stalls still fails at once."""
    visit.page.goto(url_for(url_path, query), wait_until="domcontentloaded")
    try:
        wait_ready(visit.page)
    except AssertionError:
        if script_runs(visit.page) > 0:
            raise
        visit.page.reload(wait_until="domcontentloaded")
        wait_ready(visit.page)


def interact(page: Page, action: Callable[[], Any], timeout: float = READY_TIMEOUT_MS) -> None:
    """Do something that may rerun the script; when it asks for a rerun, wait until that
    rerun has finished and the page is idle.

    The runs are counted on the page's WebSocket (runs.py; the page must be counted). An
    action that asks for no rerun within RERUN_START_TIMEOUT_MS just costs that wait.
    """
    runs = runs_of(page)
    asked, finished = runs.asked, runs.finished
    action()
    if wait_until(page, lambda: runs.asked > asked, RERUN_START_TIMEOUT_MS):
        wait_finished(page, finished, timeout)
    wait_ready(page)


def chart_count(page: Page) -> int:
    """How many Plotly charts are drawn (have their SVG)."""
    return int(
        page.evaluate(
            """() => [...document.querySelectorAll(".js-plotly-plot")]
                .filter((p) => p.querySelector(".main-svg")).length"""
        )
    )


def wait_charts(
    page: Page, minimum: int, *, unless_text: str | None = None, timeout: float = 15_000
) -> int:
    """Wait until at least `minimum` Plotly charts are drawn; return how many there are.

    With `unless_text`, a page whose main pane shows that text is not waited for (a stub).
    Charts far from the screen wait to be drawn (lnviz/app/lazy_charts.py); they are drawn
    here as they arrive. (The page can be idle before its charts are mounted, and a chart
    mounted after the ready check, below the first screen, would otherwise wait for a
    scroll that never comes: a presentation-mode page at 1920 px once drew 0 of 5.)
    """
    if minimum > 0:
        js = """([n, text]) => {
          const lazy = window.__lnvizCharts;
          if (lazy && lazy.pending()) lazy.drawAll();
          return [...document.querySelectorAll(".js-plotly-plot")]
            .filter((p) => p.querySelector(".main-svg")).length >= n
          || (!!text && document.querySelector("[data-testid=stMain]").innerText.includes(text));
        }"""
        with contextlib.suppress(Exception):
            page.wait_for_function(js, arg=[minimum, unless_text], timeout=timeout, polling=50)
    return chart_count(page)


def chart_data(page: Page, index: int) -> str | None:
    """The plotted data of the index-th chart, as JSON text."""
    return page.evaluate(_CHART_DATA_JS, index)


def all_chart_data(page: Page) -> list[str | None]:
    """The plotted data of every drawn chart, in page order."""
    return [chart_data(page, i) for i in range(chart_count(page))]


def wait_any_chart_changed(
    page: Page, before: list[str | None], timeout: float = 10_000
) -> list[int]:
    """Wait until some chart's data differs from `before`; return the indices that changed."""
    js = f"""(before) => before.some((b, i) => ({_CHART_DATA_JS})(i) !== b)"""
    with contextlib.suppress(Exception):
        page.wait_for_function(js, arg=before, timeout=timeout, polling=50)
    after = [chart_data(page, i) for i in range(len(before))]
    return [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if a != b]


def main_text(page: Page) -> str:
    return page.locator("[data-testid=stMain]").inner_text()


def exception_report(visit: Visit) -> str:
    """Empty if the page shows no exception; else what it shows and the server's log."""
    texts = visit.page.locator(EXCEPTION).all_inner_texts()
    if not texts:
        return ""
    shown = "\n".join(t.strip() for t in texts)
    return (
        f"{len(texts)} stException on {visit.page.url}:\n{shown}\n"
        f"--- server log (tail) ---\n{visit.server.log_tail(60)}"
    )


def assert_embeds_cleanly(visit: Visit, min_charts: int) -> None:
    """?embed=true, as inside another site's iframe: the page renders alone, without errors."""
    page = visit.page
    if min_charts:
        wait_charts(page, min_charts)
    assert not exception_report(visit)
    assert not visit.dialogs and not visit.page_errors
    assert page.locator("[data-testid=stSidebar]").count() == 0
    assert page.locator("h1").count() >= 1


def alerts(page: Page, kinds: tuple[str, ...] = ("Warning", "Error")) -> list[str]:
    """The texts of st.warning / st.error boxes, exceptions excluded."""
    selector = ", ".join(f"[data-testid=stAlertContent{k}]" for k in kinds)
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
            .filter((e) => !e.closest('[data-testid="stException"]'))
            .map((e) => e.innerText.trim())""",
        selector,
    )


def slider_input(page: Page, key: str) -> Any:
    """The focusable thumb (role=slider) of the slider with widget key `key`, or of the live
    control `key`-live where that is the one control of `key` drawn (lnviz.app.live)."""
    return page.locator(
        f".st-key-{key} [role=slider], .st-key-{key} input[type=range], "
        f".st-key-{key}-live input[type=range] >> visible=true",
    ).first


def press_on_slider(page: Page, key: str, keyname: str) -> Callable[[], None]:
    """An action for `interact`: focus the thumb of slider `key` and press `keyname`."""

    def act() -> None:
        slider_input(page, key).focus()
        page.keyboard.press(keyname)

    return act


def linked_query(url: str) -> dict[str, str]:
    """An address's query parameters, the last value of each (as the app reads them)."""
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def slider_value(page: Page, key: str) -> str:
    """The value shown on the slider's thumb (a live control's "ε = 1/3": its "1/3")."""
    shown = page.locator(
        f".st-key-{key} [data-testid=stSliderThumbValue], .st-key-{key}-live .live-value"
        " >> visible=true"
    ).first.inner_text()
    return shown.split(" = ", 1)[-1]


def text_input_value(page: Page, key: str) -> str | None:
    """The value of the text or number input with widget key `key`, if there is one."""
    box = page.locator(f".st-key-{key} input[type=text], .st-key-{key} input[type=number]")
    return box.first.input_value() if box.count() else None


def metric_value(page: Page, label: str) -> str | None:
    """The value of the st.metric whose label is `label`."""
    return page.evaluate(
        """(label) => {
          for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
            const l = m.querySelector('[data-testid="stMetricLabel"]');
            if (l && l.innerText.trim() === label)
              return m.querySelector('[data-testid="stMetricValue"]').innerText.trim();
          }
          return null;
        }""",
        label,
    )


def horizontal_overflow(page: Page) -> dict[str, list[int]]:
    """Scroll containers wider than their box: the document and Streamlit's main pane."""
    sizes = page.evaluate(
        """() => {
          const out = {};
          const doc = document.scrollingElement;
          out.document = [doc.scrollWidth, doc.clientWidth];
          const main = document.querySelector('[data-testid="stMain"]');
          if (main) out.stMain = [main.scrollWidth, main.clientWidth];
          return out;
        }"""
    )
    return {name: wh for name, wh in sizes.items() if wh[0] > wh[1] + 1}


_LUMA_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const rgb = getComputedStyle(app).backgroundColor.match(/[0-9.]+/g) || [255, 255, 255];
  const m = rgb.map(Number);
  return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2];
}"""


def background_luma(page: Page) -> float:
    """Lightness (0-255) of the app's background colour."""
    return float(page.evaluate(_LUMA_JS))


def wait_theme(page: Page, *, dark: bool, timeout: float = 10_000) -> None:
    """Wait until the app has switched to a dark (or light) background."""
    js = f"(dark) => {{ const luma = ({_LUMA_JS})(); return dark ? luma < 100 : luma > 155; }}"
    try:
        page.wait_for_function(js, arg=dark, timeout=timeout, polling=50)
    except Exception as err:
        mode = "dark" if dark else "light"
        raise AssertionError(
            f"the app did not turn {mode} (background lightness {background_luma(page):.0f})"
        ) from err


def settle_for_screenshot(page: Page) -> None:
    """Web fonts loaded and two frames painted, so a screenshot shows the final render."""
    page.evaluate(
        """async () => {
          await document.fonts.ready;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        }"""
    )


def screenshot(page: Page, name: str, *, full_height: bool = FULL_SCREENSHOTS) -> list[Path]:
    """Save `<name>.png` (the viewport) and, with LNVIZ_FULL_SCREENSHOTS=1, `<name>-full.png`
    (the whole main pane).

    Streamlit scrolls its main pane, not the document, so a "full page" screenshot is
    taken by growing the viewport to the pane's height (capped), then restoring it.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    settle_for_screenshot(page)
    paths = [SCREENSHOTS / f"{name}.png"]
    page.screenshot(path=paths[0])
    if full_height:
        size = page.viewport_size or {"width": 1280, "height": 900}
        content = int(
            page.evaluate(
                """() => {
                  const m = document.querySelector('[data-testid="stMain"]');
                  return m ? m.scrollHeight : document.scrollingElement.scrollHeight;
                }"""
            )
        )
        height = min(max(content, size["height"]), 16_000)
        if height > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": height})
            settle_for_screenshot(page)
        paths.append(SCREENSHOTS / f"{name}-full.png")
        page.screenshot(path=paths[1])
        page.set_viewport_size(size)
    return paths


def describe(obj: Any) -> str:
    """Readable JSON for assertion messages."""
    return json.dumps(obj, ensure_ascii=False, indent=1)[:2000]
