"""Frame time of a live control during a drag: requestAnimationFrame intervals.

    python benchmarks/frame_time.py                    # the epsilon page, 3 drags
    python benchmarks/frame_time.py --drags 5 --json out.json

It starts the app on loopback, opens each page with a live control (lnviz.app.live) in
Debian's Chromium (software rendering, as in the browser tests), and drags the control
across its range and back with the mouse, one small move per 16 ms. A requestAnimationFrame
loop in the page records the time of every frame while the button is down; the intervals
between frames are the frame times (the charts are redrawn inside those frames). It also
counts the WebSocket frames sent to the server during the drags (should be 0). Two medians:
over every frame of the drag, and over the frames that drew a new state (the longer interval
either side of a frame in which the control's count of states shown went up): the target,
<= 33 ms (30 frames per second), is checked on the second, the frames that do the work.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_report import print_table, save_json
from harness import serve

from tests.browser.helpers import CHROMIUM, LAUNCH_ARGS

# page, its live control's key, the charts it drives, the query to open it with
PAGES = {
    "epsilon": ("eps-live", ("h", "dh"), {"eps": "1e-06"}),
    "invariance": ("a-live", ("scale",), {"a": "0.01"}),
    "weighted-centering": ("w-live", ("plane", "objective"), {"w": "0"}),
    "./invariance": ("c-live", ("shift",), {"c": "-1000"}),  # its c ("./": a key of its own)
    "batch-statistics": ("at-live", ("run-mean", "run-var"), {"at": "0"}),
    "gain-and-bias": ("gb-live", ("stage-input", "stage-core", "stage-output"), {"drag": "z₁"}),
}
TARGET_MS = 33.0
DRAWN_JS = """(key) => {
  const lazy = window.__lnvizCharts;
  if (lazy && lazy.pending()) lazy.drawAll();
  return !!document.querySelector(`.st-key-${key} .js-plotly-plot .main-svg`);
}"""
ON_SCREEN_JS = """(keys) => keys.filter((k) => {
  const r = document.querySelector(`.st-key-${k}`).getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight;
}).length"""

RAF_JS = """(key) => {
  const host = document.querySelector(`.st-key-${key} [data-testid=stBidiComponentIsolated]`);
  const live = (host && host.shadowRoot ? host.shadowRoot : document).querySelector(".live");
  const s = (window.__frames = { t: [], c: [], on: true });
  const tick = (t) => {
    if (!s.on) return;
    s.t.push(t);
    s.c.push(Number(live.dataset.frames || 0));  // states shown so far
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def drag_once(page: Any, key: str, moves: int) -> None:
    rail = page.locator(f".st-key-{key} .live input")
    box = rail.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    left, width = box["x"] + 8, box["width"] - 16
    page.mouse.move(left, y)
    page.mouse.down()
    path = [i / moves for i in range(moves + 1)] + [1 - i / moves for i in range(moves + 1)]
    for f in path:
        page.mouse.move(left + width * f, y)
        page.wait_for_timeout(16)
    # no release: a release would rerun the page; the drag is ended by Escape + reload


def measure(url: str, name: str, drags: int, moves: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    key, charts, query = PAGES[name]
    intervals: list[float] = []
    updates: list[float] = []
    sent = 0
    shown = 0
    on_screen = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        for _ in range(drags):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(300_000)  # a loaded machine: the first run can be slow
            frames: list[Any] = []
            page.on("websocket", lambda ws, f=frames: ws.on("framesent", lambda m: f.append(m)))
            qs = "&".join(f"{k}={v}" for k, v in query.items())
            page.goto(f"{url}/{name}?{qs}")
            page.locator(f".st-key-{key} .live input").wait_for()
            for chart in charts:  # a chart below the fold waits to be drawn (lazy charts)
                page.wait_for_function(DRAWN_JS, arg=chart, polling=100)
            page.wait_for_function("() => !!window.Plotly")
            page.locator(f".st-key-{key} .live input").evaluate(
                "(e) => e.scrollIntoView({block: 'center'})"  # clear of the sticky controls
            )
            page.wait_for_timeout(300)
            on_screen += page.evaluate(ON_SCREEN_JS, list(charts))
            # frames on demand (lnviz/app/live.py): the pointer over the control asks for them
            page.locator(f".st-key-{key} .live").hover()
            page.locator(f".st-key-{key} .live[data-ready='1']").wait_for()
            page.wait_for_timeout(1000)
            before = len(frames)
            page.evaluate(RAF_JS, key)
            drag_once(page, key, moves)
            got = page.evaluate("() => { window.__frames.on = false; return window.__frames; }")
            stamps, counts = got["t"], got["c"]
            sent += len(frames) - before
            shown += int(page.locator(f".st-key-{key} .live").get_attribute("data-frames") or 0)
            intervals += [b - a for a, b in itertools.pairwise(stamps)]
            # the frames that drew a new state: the longer of the intervals either side
            for i in range(1, len(stamps) - 1):
                if counts[i] != counts[i - 1]:
                    updates.append(max(stamps[i] - stamps[i - 1], stamps[i + 1] - stamps[i]))
            page.close()
        browser.close()
    q = statistics.quantiles(intervals, n=20)
    return {
        "page": name,
        "frames": len(intervals),
        "states_shown": shown,
        "charts_on_screen": f"{on_screen / drags:g} of {len(charts)}",
        "median_ms": round(statistics.median(intervals), 1),
        "p95_ms": round(q[18], 1),
        "max_ms": round(max(intervals), 1),
        "update_frames": len(updates),
        "update_median_ms": round(statistics.median(updates), 1) if updates else None,
        "update_p95_ms": round(statistics.quantiles(updates, n=20)[18], 1)
        if len(updates) > 1
        else None,
        "ws_frames_sent_during_drags": sent,
        "target_met": statistics.median(updates or intervals) <= TARGET_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", default=list(PAGES))
    parser.add_argument("--drags", type=int, default=3)
    parser.add_argument("--moves", type=int, default=60, help="mouse moves per direction")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = []
    with serve("app.py") as server:
        for name in args.pages:
            t0 = time.perf_counter()
            results.append(measure(server.url, name, args.drags, args.moves))
            results[-1]["wall_s"] = round(time.perf_counter() - t0, 1)
    print_table(
        f"Live-control frame times during a drag (target: median <= {TARGET_MS:g} ms)",
        [
            "page", "frames", "median ms", "p95 ms", "max ms", "frames drawing a new state",
            "their median ms", "their p95 ms", "WS sent", "met",
        ],
        [
            [
                r["page"], r["frames"], r["median_ms"], r["p95_ms"], r["max_ms"],
                r["update_frames"], r["update_median_ms"], r["update_p95_ms"],
                r["ws_frames_sent_during_drags"], "yes" if r["target_met"] else "no",
            ]
            for r in results
        ],
    )  # fmt: skip
    save_json(args.json, results)


if __name__ == "__main__":
    main()
