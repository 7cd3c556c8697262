"""Live-frame benchmark: how long a visitor who reaches for a live control waits for its
frames, built from the page's own figure builders, with and without lnviz's figure JSON.

    python benchmarks/live_frames.py            # every live control at its page's defaults
    python benchmarks/live_frames.py --runs 5 --json out.json

A live control's frames are the page's charts built at every value of the control
(lnviz.app.live.chart_frames): tens to hundreds of figures, built when a visitor first
reaches for the control. Until they arrive the drag falls back to "the charts update on
release". Each figure is built twice here: by lnviz.figures._spec's own JSON writer (the
app's path) and through Plotly's objects (go.Figure without validation, then
plotly.io.to_json: what dropping the hand-written writer would leave). Ratios on one
machine in one run are what compare; absolute times move with the machine's load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_report import print_table, save_json  # noqa: E402

import lnviz.app.live as app_live  # noqa: E402
from lnviz.figures import _spec  # noqa: E402
from tests.apptest_helpers import page  # noqa: E402

CONTROLS = {  # page: its live controls' keys
    "epsilon": ("eps-live",),
    "invariance": ("c-live", "a-live"),
    "gain-and-bias": ("gb-live",),
    "batch-statistics": ("at-live",),
    "weighted-centering": ("w-live", "x-live"),
}


def _through_plotly(self: _spec.FigureSpec) -> dict[str, Any]:
    raise TypeError("benchmark: through Plotly's objects")  # json_data then takes that path


def measure(runs: int) -> dict[str, dict[str, Any]]:
    """{control: {"figures": n, "lnviz_ms": median, "plotly_ms": median}}."""
    built: dict[str, tuple[Any, tuple[Any, ...]]] = {}
    original = app_live._built_frames

    def keep(charts_at: Any, options: tuple[Any, ...]) -> Any:
        built[str(len(built))] = (charts_at, options)
        return original(charts_at, options)

    app_live._built_frames = keep
    try:
        for name, keys in CONTROLS.items():
            before = len(built)
            at = page(name, timeout=180)
            for key in keys:
                at.session_state[f"{key}{app_live.WANTED_SUFFIX}"] = True
            at.run()
            if at.exception or len(built) - before != len(keys):
                raise RuntimeError(f"{name}: {[e.message for e in at.exception]}")
            for key, i in zip(keys, range(before, len(built)), strict=True):
                built[key] = built.pop(str(i))
    finally:
        app_live._built_frames = original
    plain = _spec.FigureSpec.plotly_json
    out = {}
    for key, (charts_at, options) in built.items():
        times: dict[str, list[float]] = {"lnviz": [], "plotly": []}
        for _ in range(runs):
            for way in times:
                _spec.FigureSpec.plotly_json = plain if way == "lnviz" else _through_plotly
                t0 = time.perf_counter()
                original(charts_at, options)
                times[way].append((time.perf_counter() - t0) * 1e3)
        _spec.FigureSpec.plotly_json = plain
        figures = len(options) * len(charts_at(options[0]))
        out[key] = {
            "figures": figures,
            "lnviz_ms": statistics.median(times["lnviz"]),
            "plotly_ms": statistics.median(times["plotly"]),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="builds per control and way")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if _spec.VALIDATE:
        raise SystemExit("unset LNVIZ_VALIDATE_FIGURES: it sends every figure through Plotly")
    results = measure(args.runs)
    rows = [
        (key, r["figures"], f"{r['lnviz_ms']:.0f}", f"{r['plotly_ms']:.0f}",
         f"{r['plotly_ms'] / r['lnviz_ms']:.1f}x")
        for key, r in results.items()
    ]  # fmt: skip
    title = f"live frames at each page's defaults, median of {args.runs} builds"
    header = ("control", "figures", "lnviz JSON ms", "Plotly objects ms", "ratio")
    print_table(title, header, rows)
    save_json(args.json, results, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
