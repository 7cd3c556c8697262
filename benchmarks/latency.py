"""Latency benchmark: every page against the bare-Streamlit floor, in the same run.

    python benchmarks/latency.py                 # the app's settings ("after")
    python benchmarks/latency.py --config both   # Streamlit's defaults too ("before")
    python benchmarks/latency.py --pages epsilon sequences --presses 20

It starts the app and the floor app (benchmarks/floor_app.py) on loopback and prints, per
page and for the floor:

- warm load: a new browser tab opens the page (the server has served it before); time from
  navigation start to the page's last visible change (median of --loads);
- slider round trip: a key press (ArrowRight / ArrowLeft in turn) on the first slider a visitor sees
  until the page's last visible change after it (median of --presses). A page without a slider
  toggles its presentation-mode checkbox with the space bar instead (marked *);
- server-side rerun: a rerun request over Streamlit's WebSocket protocol until the script
  has finished, on an idle server (benchmarks/stclient.py; median of 30 one-step slider
  moves; "full" when the control reruns the whole page, "fragment" when only its section);
- Plotly JSON sent: the charts' bytes at the page's default state and at its largest
  allowed sizes (MAX_LINKS: the links of docs/hardening.md);
- and the ratios to the floor with the budgets: round trip <= 1.5x, warm load <= 2x,
  Plotly JSON <= 300 kB at defaults and <= 1 MB at the largest sizes.

"Last visible change" is the time of the last DOM mutation seen by a MutationObserver, or
of the last draw call onto a canvas in the page, once the script has finished and the page
has been quiet for QUIET_MS (charts drawn, skeletons gone). Mutations inside a <canvas>
do not count: that is fallback content, never painted (st.dataframe's grid keeps a table
for screen readers there, which it updates about 200 ms after repainting its canvas).
Chromium is Debian's /usr/bin/chromium, driven by Playwright.

Configurations: "after" is the repository's .streamlit/config.toml; "before" is Streamlit
as it comes (runner.postScriptGC on), for the app and the floor alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import FLOOR, FLOOR_SCRIPT, app_pages, page_name, serve
from stclient import Visitor

from tests.browser.helpers import CHROMIUM, LAUNCH_ARGS  # the browser tests' Chromium setup

QUIET_MS = 400  # no visible change for this long after the run: the page is done
TIMEOUT_MS = 30_000
START_TIMEOUT_MS = 3_000  # a key press that has not started a rerun by then was lost
BUDGET = {"round_trip": 1.5, "load": 2.0, "plotly_default_kB": 300, "plotly_max_kB": 1000}

# Each page's largest allowed sizes (docs/hardening.md, "The most expensive link").
MAX_LINKS = {
    "reduction-axes": "b=8&t=16&f=32&scheme=group&groups=32",
    "epsilon": "eps=1e-06&a=100&z=-1000,1000,-999,999,3,-3,0.5,0",
    "sequences": "b=8&t=64&w=16&steps=100",
    "batch-statistics": "steps=300&b=64&f=8&sets=8",
    "frameworks": "scheme=batch&layout=NHWC&n=4&h=16&w=6&c=32&steps=1000",
    "numerics": "n=2048&off=1e8&prec=bfloat16",
}

# Records the time of the last visible change and the script's run count (an init script).
# Visible: a DOM mutation anywhere except inside a <canvas> (its children are fallback
# content, never painted: the data grid keeps a table for screen readers there and
# updates it about 200 ms after the canvas, on a timer), or a draw call onto a canvas that
# is in the page (the data grid paints its cells with 2D calls, 3-D charts with WebGL).
OBSERVER_JS = """
(() => {
  const s = (window.__lat = { last: 0, runs: 0, state: null });
  const ATTR = "data-test-script-state";
  const painted = function () {
    if (this.canvas && this.canvas.isConnected) s.last = performance.now();
  };
  const hook = (proto, names) => { if (proto) for (const n of names) {
    const f = proto[n];
    if (f) proto[n] = function (...a) { painted.call(this); return f.apply(this, a); };
  } };
  hook(window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype,
       ["drawImage", "fillText", "fillRect", "putImageData"]);
  for (const gl of [window.WebGLRenderingContext, window.WebGL2RenderingContext])
    hook(gl && gl.prototype, ["drawArrays", "drawElements"]);
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (!(el && el.closest("canvas"))) s.last = performance.now();
    }
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return;
    for (const r of records) {
      if (r.type === "attributes" && r.attributeName === ATTR && r.target === app
          && r.oldValue === "running") s.runs += 1;
    }
    s.state = app.getAttribute(ATTR);
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         characterData: true, attributeOldValue: true });
})();
"""
# A run has started (or already ended) since the count was `runs`.
RUN_STARTED_JS = """
(runs) => window.__lat.runs > runs || window.__lat.state === "running"
"""
# Settled: at least minRuns runs ended, not running, no skeleton, quiet for QUIET_MS.
SETTLED_JS = """
([minRuns, quiet]) => {
  const s = window.__lat, app = document.querySelector('[data-testid="stApp"]');
  return !!s && !!app && s.runs >= minRuns
    && app.getAttribute("data-test-script-state") === "notRunning"
    && !app.querySelector('[data-testid="stSkeleton"]')
    && performance.now() - s.last >= quiet;
}
"""


@dataclass
class PageResult:
    page: str
    load_ms: float
    round_trip_ms: float
    control: str  # what was pressed: "slider" or "checkbox*"
    rerun_full_ms: float | None
    rerun_fragment_ms: float | None
    plotly_default_kB: float
    plotly_max_kB: float | None


# ---------------------------------------------------------------------------- browser


def measure_in_browser(
    browser: Any, base_url: str, page: str, loads: int, presses: int
) -> tuple[float, float, str]:
    """(median warm load ms, median round trip ms, control pressed) of one page."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    load_times = []
    for _ in range(loads + 1):  # the first load warms the server up and is not counted
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(OBSERVER_JS)
        tab = context.new_page()
        tab.goto(f"{base_url}/{page}", wait_until="commit")
        tab.wait_for_function(SETTLED_JS, arg=[1, QUIET_MS], timeout=TIMEOUT_MS, polling=50)
        load_times.append(tab.evaluate("() => window.__lat.last"))
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(OBSERVER_JS)
    tab = context.new_page()
    tab.goto(f"{base_url}/{page}", wait_until="commit")
    tab.wait_for_function(SETTLED_JS, arg=[1, QUIET_MS], timeout=TIMEOUT_MS, polling=50)
    # The first slider a visitor sees (one in a folded expander cannot take a key press).
    sliders = tab.locator(
        "[data-testid=stMain] :is([role=slider], input[type=range]) >> visible=true"
    )
    if sliders.count():
        target, control, keys = sliders.first, "slider", ("ArrowRight", "ArrowLeft")
    else:
        target = tab.locator("[data-testid=stSidebar] [data-testid=stCheckbox] input").first
        control, keys = "checkbox*", ("Space", "Space")
    trips: list[float] = []
    lost = 0
    while len(trips) < presses and lost < presses:
        target.focus()
        runs = tab.evaluate("() => window.__lat.runs")
        t0 = tab.evaluate("() => performance.now()")
        # right and left in turn, by attempts: at the end of its range a slider ignores one
        tab.keyboard.press(keys[(len(trips) + lost) % 2])
        try:  # a press that starts no run (focus lost in a redraw) is retried, and counted
            tab.wait_for_function(RUN_STARTED_JS, arg=runs, timeout=START_TIMEOUT_MS, polling=20)
        except PlaywrightTimeout:
            lost += 1
            continue
        tab.wait_for_function(SETTLED_JS, arg=[runs + 1, QUIET_MS], timeout=TIMEOUT_MS, polling=20)
        trips.append(tab.evaluate("() => window.__lat.last") - t0)
    if lost:
        control += f" ({lost} presses lost)"
    context.close()
    trip = statistics.median(trips) if trips else float("nan")  # nan: no press started a run
    return statistics.median(load_times[1:]), trip, control


# ---------------------------------------------------------------------------- protocol


async def server_reruns(url: str, page: str, moves: int = 30) -> tuple[float | None, float | None]:
    """Median full and fragment rerun times (ms) of one-step slider moves on an idle server."""
    full, fragment = [], []
    async with Visitor.connect(url) as v:
        await v.open(page)
        rng = random.Random(0)
        for _ in range(moves):
            run = await v.move_slider(rng)
            (fragment if run.fragment else full).append(run.seconds * 1000)
    return (
        statistics.median(full) if full else None,
        statistics.median(fragment) if fragment else None,
    )


async def plotly_kB(url: str, page: str, query: str = "") -> float:
    async with Visitor.connect(url) as v:
        run = await v.open(page, query)
        if run.errors:
            raise RuntimeError(f"{page_name(page)}?{query}: {run.errors}")
        return run.chart_bytes / 1000


# ---------------------------------------------------------------------------- run


@contextmanager
def servers(config: str) -> Iterator[tuple[str, str]]:
    """The app and the floor, both with `config`'s settings."""
    options = {"runner.postScriptGC": "true" if config == "before" else "false"}
    with serve("app.py", options) as app, serve(FLOOR_SCRIPT, options) as floor:
        yield app.url, floor.url


def measure(config: str, pages: list[str], loads: int, presses: int) -> list[PageResult]:
    from playwright.sync_api import sync_playwright

    results: list[PageResult] = []
    with servers(config) as (app_url, floor_url):
        targets = [(FLOOR, floor_url, "")] + [(page_name(p), app_url, p) for p in pages]
        browser_side = []
        with sync_playwright() as pw:  # its event loop is gone again after this block
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
            for name, url, path in targets:
                browser_side.append(measure_in_browser(browser, url, path, loads, presses))
                load, trip, control = browser_side[-1]
                print(
                    f"  {config}: {name}: warm load {load:.0f} ms, round trip {trip:.0f} ms "
                    f"({control})",
                    file=sys.stderr,
                    flush=True,
                )
            browser.close()
        for (name, url, path), (load, trip, control) in zip(targets, browser_side, strict=True):
            full, frag = asyncio.run(server_reruns(url, path))
            default_kB = asyncio.run(plotly_kB(url, path))
            largest = MAX_LINKS.get(path)
            max_kB = asyncio.run(plotly_kB(url, path, largest)) if largest else None
            results.append(PageResult(name, load, trip, control, full, frag, default_kB, max_kB))
    return results


def _fmt(x: float | None, digits: int = 0) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def report(config: str, results: list[PageResult]) -> list[str]:
    floor = results[0]
    missed = []
    print(f"\n## {config}\n")
    print(
        "| page | warm load ms | × floor | round trip ms | × floor | rerun full ms "
        "| rerun fragment ms | Plotly kB default | Plotly kB max |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        load_x, trip_x = r.load_ms / floor.load_ms, r.round_trip_ms / floor.round_trip_ms
        star = "*" if r.control.endswith("*") else ""
        print(
            f"| {r.page} | {r.load_ms:.0f} | {load_x:.2f} | {r.round_trip_ms:.0f}{star} "
            f"| {trip_x:.2f} | {_fmt(r.rerun_full_ms, 1)} | {_fmt(r.rerun_fragment_ms, 1)} "
            f"| {r.plotly_default_kB:.1f} | {_fmt(r.plotly_max_kB, 1)} |"
        )
        if r.page == FLOOR:
            continue
        if trip_x > BUDGET["round_trip"]:
            missed.append(f"{config} {r.page}: round trip {trip_x:.2f}x floor")
        if load_x > BUDGET["load"]:
            missed.append(f"{config} {r.page}: warm load {load_x:.2f}x floor")
        if r.plotly_default_kB > BUDGET["plotly_default_kB"]:
            missed.append(f"{config} {r.page}: {r.plotly_default_kB:.0f} kB Plotly at defaults")
        if (r.plotly_max_kB or 0) > BUDGET["plotly_max_kB"]:
            missed.append(f"{config} {r.page}: {r.plotly_max_kB:.0f} kB Plotly at max sizes")
    return missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--config", choices=("after", "before", "both"), default="after")
    ap.add_argument("--pages", nargs="*", help="url paths (default: every page; home is '')")
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--presses", type=int, default=12)
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--check", action="store_true", help="exit 1 if a budget is missed")
    args = ap.parse_args(argv)
    pages = app_pages() if args.pages is None else args.pages
    configs = ["before", "after"] if args.config == "both" else [args.config]
    print(
        f"# latency: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, Chromium headless; medians of {args.loads} loads "
        f"and {args.presses} presses"
    )
    missed, out = [], {}
    for config in configs:
        results = measure(config, pages, args.loads, args.presses)
        missed += report(config, results)
        out[config] = [asdict(r) for r in results]
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    for m in missed:
        print("MISSED:", m)
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
