"""What a page load costs Chromium with and without one renderer process per site.

    python benchmarks/browser_loads.py                 # every page twice, per setting, 2 rounds
    python benchmarks/browser_loads.py --rounds 3 --json out.json

The browser tests open a new tab for nearly every check. By default Chromium gives each tab
its own renderer process, which compiles Streamlit's and Plotly's scripts afresh; with
`--process-per-site` the tabs on the app's site share one renderer and what it compiled.
This starts the app once, then, in alternating rounds, launches Debian's Chromium with the
suite's flags (tests/browser/helpers.py), without `--process-per-site`, with it, and with it
and the first tab kept open (a renderer process exits with its last tab), and loads every
registered page twice in one context, each until its script has run and its charts are
drawn. It reports the wall time and the CPU time of the whole machine (/proc/stat) per
setting, and their ratio to the default in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_report import print_table, save_json
from harness import app_pages, serve

from tests.browser.helpers import CHROMIUM, LAUNCH_ARGS, RUN_COUNTER_JS, wait_ready

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Playwright

PER_SITE = "--process-per-site"


def busy_cpu_s() -> float:
    """CPU seconds the machine has spent busy since boot (all but idle and iowait)."""
    with open("/proc/stat") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def load_every_page(
    pw: Playwright, url: str, args: list[str], repeats: int, keep_one: bool
) -> tuple[float, float]:
    """Wall and busy CPU seconds to load every page `repeats` times in one fresh browser,
    each tab closed before the next opens; `keep_one`: the first tab stays open meanwhile."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
    try:
        context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900})
        context.add_init_script(RUN_COUNTER_JS)
        warm = context.new_page()  # the browser's own start-up is not a page load
        warm.goto("/")
        wait_ready(warm)
        if not keep_one:
            warm.close()
        wall, cpu = time.perf_counter(), busy_cpu_s()
        for _ in range(repeats):
            for url_path in app_pages():
                page = context.new_page()
                page.goto(f"/{url_path}")
                wait_ready(page)
                page.close()
        return time.perf_counter() - wall, busy_cpu_s() - cpu
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds per setting")
    parser.add_argument("--repeats", type=int, default=2, help="loads of each page per round")
    parser.add_argument("--json", type=Path, help="also write the results here")
    opts = parser.parse_args()
    from playwright.sync_api import sync_playwright

    settings = {  # name: (flags, keep one tab open)
        "one renderer per tab": (LAUNCH_ARGS, False),
        "one renderer per site": ([*LAUNCH_ARGS, PER_SITE], False),
        "one per site, one tab kept open": ([*LAUNCH_ARGS, PER_SITE], True),
    }
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in settings}
    with serve("app.py") as server, sync_playwright() as pw:
        for _ in range(opts.rounds):
            for name, (args, keep_one) in settings.items():
                results[name].append(load_every_page(pw, server.url, args, opts.repeats, keep_one))
    loads = opts.repeats * len(app_pages())
    base_wall = sum(w for w, _ in results["one renderer per tab"])
    base_cpu = sum(c for _, c in results["one renderer per tab"])
    rows = [
        [
            name,
            ", ".join(f"{w:.1f}" for w, _ in runs),
            ", ".join(f"{c:.0f}" for _, c in runs),
            f"{sum(w for w, _ in runs) / base_wall:.2f}",
            f"{sum(c for _, c in runs) / base_cpu:.2f}",
        ]
        for name, runs in results.items()
    ]
    header = ["Chromium", f"wall s per {loads} loads", "busy CPU s", "wall ratio", "CPU ratio"]
    print_table("Page loads in one browser", header, rows)
    save_json(opts.json, {"loads_per_round": loads, "results": results})


if __name__ == "__main__":
    main()
