"""The queueing model of benchmarks/queue_model.py: what it computes on cases with a known
answer."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from harness import percentile
from queue_model import simulate


def test_one_visitor_never_waits_for_another() -> None:
    waits = simulate({"p": [20.0]}, visitors=1, scale=1.0, spread=0.0, seconds=60.0)
    assert len(waits) > 40  # a move about every 1.02 s
    assert max(abs(w - 0.02) for w in waits) < 1e-9  # each wait is the move's own cost


def test_waits_grow_with_the_cost_and_the_class() -> None:
    costs = {"a": [10.0, 60.0], "b": [30.0]}
    p95 = {
        (visitors, scale): percentile(simulate(costs, visitors, scale, seconds=600.0), 95)
        for visitors in (5, 30)
        for scale in (0.5, 1.0)
    }
    assert p95[5, 0.5] < p95[5, 1.0] < p95[30, 1.0]
    assert p95[30, 0.5] < p95[30, 1.0]
    assert p95[5, 0.5] >= 0.005  # never below the cheapest move's own cost


def test_the_mean_cost_is_kept_under_the_spread() -> None:
    waits = simulate({"p": [20.0]}, visitors=1, scale=1.0, spread=0.5, seconds=3000.0)
    assert abs(sum(waits) / len(waits) - 0.02) < 0.001
