"""A queueing model of one server under a class: which cost per move a latency budget needs.

    python benchmarks/control_costs.py --json costs.json    # measured costs, this machine
    python benchmarks/queue_model.py costs.json             # 15 visitors (one of 2 replicas)
    python benchmarks/queue_model.py costs.json --visitors 30 --budget 300

The model is the load benchmark's class (benchmarks/load.py) on one server process that runs
one script run at a time, oldest first (lnviz.app.run_queue): visitor i stays on page
i mod (number of pages); after each answer it waits 0.5-1.5 s, then moves one of its page's
controls, chosen at random (a page without one reloads). A move takes the server the CPU
time control_costs.py measured for that control, times `scale`, with a log-normal spread
(--spread, the standard deviation of its logarithm) around that mean. The model leaves out
what the real server adds: its event loop sending messages, other processes on the same
cores, the interpreter's lock. So it answers a design question, not a measurement one: by
how much must the cost per move fall for the p95 of the wait (request to answer) to meet
the budget, on the machine where the costs were measured?

It prints the p50 and p95 of the wait for each scale, and the largest scale within budget.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import percentile

THINK_S = (0.5, 1.5)  # the load benchmark's pause between an answer and the next move


def simulate(
    costs: dict[str, list[float]],
    visitors: int,
    scale: float,
    *,
    seconds: float = 3000.0,
    spread: float = 0.3,
    seed: int = 0,
) -> list[float]:
    """The waits (s) of every move in `seconds` of simulated class, FIFO, one server."""
    rng = random.Random(seed)
    pages = sorted(costs)
    page_of = [pages[i % len(pages)] for i in range(visitors)]
    arrivals = [(rng.uniform(0.0, 1.0), v) for v in range(visitors)]  # (time, visitor)
    heapq.heapify(arrivals)
    free_at, waits = 0.0, []
    while arrivals:
        t, v = heapq.heappop(arrivals)  # FIFO: moves are served in the order they arrive
        if t > seconds:
            break
        mean_s = rng.choice(costs[page_of[v]]) * scale / 1000.0
        cost = mean_s * rng.lognormvariate(-(spread**2) / 2, spread)  # mean stays mean_s
        free_at = max(free_at, t) + cost
        waits.append(free_at - t)
        heapq.heappush(arrivals, (free_at + rng.uniform(*THINK_S), v))
    return waits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("costs", type=Path, help="rows written by control_costs.py --json")
    ap.add_argument("--visitors", type=int, default=15, help="visitors on this server")
    ap.add_argument("--budget", type=float, default=100.0, help="p95 budget, ms")
    ap.add_argument("--spread", type=float, default=0.3)
    args = ap.parse_args()
    costs: dict[str, list[float]] = defaultdict(list)
    for row in json.loads(args.costs.read_text()):
        costs[row["page"]].append(row["cpu_ms"])
    print(f"{args.visitors} visitors on one server, FIFO, costs from {args.costs.name}\n")
    print("| cost per move (× measured) | p50 ms | p95 ms |")
    print("|---|---|---|")
    best = None
    for scale in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4):
        waits = simulate(costs, args.visitors, scale, spread=args.spread)
        p50, p95 = 1000 * percentile(waits, 50), 1000 * percentile(waits, 95)
        print(f"| {scale:.1f} | {p50:.0f} | {p95:.0f} |")
        if best is None and p95 <= args.budget:
            best = scale
    verdict = f"{best:.1f} × the measured cost" if best else "below 0.4 × the measured cost"
    print(f"\np95 within {args.budget:.0f} ms from {verdict}")


if __name__ == "__main__":
    main()
