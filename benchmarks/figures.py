"""Figure benchmark: what building each page's charts costs when nobody has seen the state.

    python benchmarks/figures.py            # every page at its default state, median of 7
    python benchmarks/figures.py --runs 15 --json out.json

A chart that a visitor of the same server has already seen comes out of `ui.chart`'s cache
(about 0.5 ms); a new state builds its figures: the figure function (Plotly's objects,
validated property by property) and the JSON for the browser. Under the classroom load of
`benchmarks/load.py` that build was the largest share of the server's CPU. This script runs
every page once in AppTest with the chart cache emptied, times each chart's build and
encoding, and prints per page: charts, build ms (sum over the page's charts), and the
slowest chart. The engine numbers behind a chart are not included (they are computed
before `ui.chart` is called). Ratios between runs of this script on one machine are what
to compare; absolute times move with the machine's load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_report import print_table, save_json  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

import lnviz.app.charts as app_charts  # noqa: E402


def measure(runs: int) -> dict[str, dict[str, Any]]:
    """{page: {"charts": n, "ms": median total build ms, "slowest": (name, ms)}}."""
    original = app_charts.build_spec
    samples: dict[str, list[float]] = defaultdict(list)  # page -> per-run totals
    per_chart: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    current: dict[str, Any] = {}

    def timed(build: Any, args: tuple[Any, ...]) -> dict:
        t0 = time.perf_counter()
        spec = original(build, args)
        ms = (time.perf_counter() - t0) * 1e3
        current["total"] += ms
        per_chart[current["page"]][f"{build.__module__}.{build.__qualname__}"].append(ms)
        return spec

    app_charts.build_spec = timed  # what the chart cache calls on a miss
    try:
        pages = sorted(p.stem for p in (ROOT / "pages").glob("*.py"))
        for page in pages:
            for run in range(runs + 1):  # run 0 warms imports and the engine's own caches
                current.update(page=page, total=0.0)
                app_charts._figure_spec.clear()  # every chart is built anew
                at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
                at.switch_page(f"pages/{page}.py")  # through the router, as a visitor
                at.run()
                if at.exception:
                    raise RuntimeError(f"{page}: {[e.message for e in at.exception]}")
                if run:
                    samples[page].append(current["total"])
            if not per_chart[page]:
                per_chart[page]["(no charts)"].append(0.0)
    finally:
        app_charts.build_spec = original
    out = {}
    for page, totals in samples.items():
        charts = {k: statistics.median(v) for k, v in per_chart[page].items()}
        slowest = max(charts.items(), key=lambda kv: kv[1])
        n = sum(len(v) for v in per_chart[page].values()) // (runs + 1)
        out[page] = {"charts": n, "ms": statistics.median(totals), "slowest": slowest}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per page (median)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    results = measure(args.runs)
    rows = []
    for page, res in results.items():
        name, ms = res["slowest"]
        rows.append(
            (page, res["charts"], f"{res['ms']:.1f}", f"{name.rsplit('.', 1)[-1]} ({ms:.1f})")
        )
    total = sum(r["ms"] for r in results.values())
    rows.append(("all pages", sum(r["charts"] for r in results.values()), f"{total:.1f}", ""))
    title = f"figure builds, cold chart cache, median of {args.runs} runs per page"
    print_table(title, ("page", "charts", "build ms", "slowest chart (ms)"), rows)
    save_json(args.json, results, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
