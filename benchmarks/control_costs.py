"""What one move of each control costs the server: every page, every control, one visitor.

    python benchmarks/control_costs.py                     # every page, 20 moves per control
    python benchmarks/control_costs.py --pages numerics --moves 40 --json costs.json

For each page it opens the page on a freshly started server (loopback, the app's config),
and for each control a visitor can move over the protocol (benchmarks/stclient.py: sliders,
select sliders; a page without one is reloaded instead) it moves that control one step up
or down, at random, --moves times after 3 warm-up moves, and reads the server process's
CPU time (user + system, /proc/<pid>/stat) around each move. It prints per control:

- whether the move reruns the whole page or only the control's st.fragment;
- the elements the run draws (blocks included): Streamlit's work grows with them;
- the server CPU milliseconds per move (mean), which is what a class's moves queue for.

Moves wander the state space as the load benchmark's do, so some runs compute new states
(cache misses) and some find them cached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import app_pages, page_name, serve
from stclient import Visitor


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def page_costs(url: str, pid: int, page: str, moves: int, seed: int) -> list[dict]:
    """One row per control of `page` (or one for a reload where it has none)."""
    rows = []
    async with Visitor.connect(url) as visitor:
        await visitor.open(page)
        controls = [c for c in visitor.controls.values() if c.kind != "checkbox"]
        for control in controls or [None]:
            rng = random.Random(seed)
            total_cpu, total_elements = 0.0, 0
            for i in range(3 + moves):
                before = cpu_seconds(pid)
                if control is None:
                    run = await visitor.full_rerun()
                else:
                    run = await visitor.move(control, rng)
                if i >= 3:
                    total_cpu += cpu_seconds(pid) - before
                    total_elements += run.elements
            rows.append({
                "page": page_name(page),
                "control": control.url_key if control else "(reload)",
                "fragment": bool(control and control.fragment_id),
                "elements": total_elements / moves,
                "cpu_ms": 1000 * total_cpu / moves,
            })  # fmt: skip
    return rows


async def measure(url: str, pid: int, pages: list[str], moves: int, seed: int) -> list[dict]:
    rows = []
    for page in pages:
        rows += await page_costs(url, pid, page, moves, seed)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", nargs="*", help="url paths (home is ''); default every page")
    ap.add_argument("--moves", type=int, default=20, help="measured moves per control")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the rows here")
    args = ap.parse_args()
    pages = app_pages() if args.pages is None else args.pages
    with serve() as server:
        rows = asyncio.run(measure(server.url, server.proc.pid, pages, args.moves, args.seed))
    print("| page | control | reruns | elements | server CPU ms per move |")
    print("|---|---|---|---|---|")
    for r in rows:
        where = "its fragment" if r["fragment"] else "the page"
        print(
            f"| {r['page']} | {r['control']} | {where} | {r['elements']:.0f} | {r['cpu_ms']:.1f} |"
        )
    mean = sum(r["cpu_ms"] for r in rows) / len(rows)
    print(f"\nmean over controls: {mean:.1f} ms")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
