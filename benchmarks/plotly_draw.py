"""Draw benchmark: what each page's charts cost Plotly in the browser, outside Streamlit.

    python benchmarks/plotly_draw.py                 # every page's charts, median of 9
    python benchmarks/plotly_draw.py --pages epsilon numerics --draws 15

A slider move that changes a chart makes Streamlit mount it anew, and Plotly draws it
from scratch (`Plotly.newPlot`). Would an incremental update (`Plotly.react`, what a chart
component of our own could call) be much cheaper? This script takes every chart of every
page at its default state (AppTest, through the router), loads the plotly.js that ships
with the plotly package into a blank page in Debian's Chromium, and times, per chart:

- newPlot: purge the div and draw the figure from scratch;
- react: update the drawn chart to the same figure with every y value moved by 1 %, then
  back (what a slider move does to the data).

Each time runs until Plotly's promise resolves and the layout is flushed. Both figures of
a pair alternate, so neither call is a no-op. Streamlit's own work (its theme, React,
the element's mount) is not included: this is the floor any chart element pays.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import json
import statistics
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import plotly  # noqa: E402
from bench_report import print_table, save_json  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.browser.helpers import CHROMIUM, LAUNCH_ARGS  # noqa: E402

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
PAGE = """<!doctype html><html><head><script src="plotly.min.js"></script></head>
<body><div id="chart" style="width: 704px"></div></body></html>"""
# Median ms of n draws of a figure pair with newPlot (from scratch) or react (update).
TIME_JS = """async ([a, b, mode, n]) => {
  const gd = document.getElementById("chart");
  const config = {displaylogo: false};
  const copy = (s) => [structuredClone(s.data), structuredClone(s.layout)];
  Plotly.purge(gd);
  await Plotly.newPlot(gd, ...copy(a), config);
  const times = [];
  for (let i = 0; i < n; i++) {
    const s = i % 2 ? a : b;
    const t0 = performance.now();
    if (mode === "newPlot") { Plotly.purge(gd); await Plotly.newPlot(gd, ...copy(s), config); }
    else { await Plotly.react(gd, ...copy(s), config); }
    gd.getBoundingClientRect();  // flush layout
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(n / 2)];
}"""


def page_charts(page: str) -> list[tuple[str, dict[str, Any]]]:
    """(chart key, figure JSON) of every chart a page draws at its default state."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(f"pages/{page}.py")
    at.run()
    if at.exception:
        raise RuntimeError(f"{page}: {[e.message for e in at.exception]}")
    return [
        (c.proto.id.split("-", 2)[-1], json.loads(c.proto.spec)) for c in at.get("plotly_chart")
    ]


def moved(spec: dict[str, Any]) -> dict[str, Any]:
    """The figure with every plain-list y value 1 % larger (typed arrays are left as they
    are) and a layout change, so that react has something to update."""
    out = json.loads(json.dumps(spec))
    for trace in out.get("data", []):
        y = trace.get("y")
        if isinstance(y, list):
            trace["y"] = [v * 1.01 if isinstance(v, (int, float)) else v for v in y]
        elif isinstance(y, dict) and "bdata" in y:  # a typed array: flip a low mantissa bit
            raw = bytearray(base64.b64decode(y["bdata"]))
            if raw:
                raw[len(raw) // 2] ^= 1
            trace["y"] = {**y, "bdata": base64.b64encode(bytes(raw)).decode()}
    out.setdefault("layout", {})["meta"] = "moved"
    return out


@contextlib.contextmanager
def static_server() -> Iterator[str]:
    """plotly.min.js and the blank page on a free loopback port."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            body, kind = (
                (PLOTLY_JS.read_bytes(), "text/javascript")
                if self.path.endswith("plotly.min.js")
                else (PAGE.encode(), "text/html")
            )
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


def measure(pages: list[str], draws: int) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    charts = [(page, key, spec) for page in pages for key, spec in page_charts(page)]
    rows = []
    with static_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(url)
        tab.wait_for_function("() => !!window.Plotly")
        version = tab.evaluate("() => Plotly.version")
        for page, key, spec in charts:
            pair = [spec, moved(spec)]
            times = {m: tab.evaluate(TIME_JS, [*pair, m, draws]) for m in ("newPlot", "react")}
            rows.append({"page": page, "chart": key, "plotly.js": version, **times})
        browser.close()
    return rows


def _ratio(row: dict[str, Any]) -> float:
    """A chart's react time over its newPlot time."""
    return row["react"] / row["newPlot"] if row["newPlot"] else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pages", nargs="*", help="page url paths (default: every page)")
    parser.add_argument("--draws", type=int, default=9, help="draws per chart and mode")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    pages = args.pages or sorted(p.stem for p in (ROOT / "pages").glob("*.py"))
    rows = measure(pages, args.draws)
    version = rows[0]["plotly.js"] if rows else "?"
    print_table(
        f"chart draws in Chromium, plotly.js {version}, median of {args.draws}",
        ("page", "chart", "newPlot ms", "react ms", "react / newPlot"),
        [
            (r["page"], r["chart"], f"{r['newPlot']:.1f}", f"{r['react']:.1f}", f"{_ratio(r):.2f}")
            for r in rows
        ],
    )
    if rows:
        ratios = [_ratio(r) for r in rows if r["newPlot"]]
        print(f"\nmedian react / newPlot over {len(rows)} charts: {statistics.median(ratios):.2f}")
    save_json(args.json, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
