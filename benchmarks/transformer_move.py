"""Server time of one move on the transformer page at its largest sizes (depth 96, width 256).

What the page's placement section does on a move (depth, width, seed or placement) whose
result is not cached yet: the three placements at the chosen depth (float32, hidden 2 d),
the last-block gradient of every shallower depth read off that same stack, the statements,
and the three charts built and serialized as Streamlit sends them. The other sections
(sphere, attention, tanh, backward) rerun on their own (fragments) and are timed too.
Single-threaded BLAS as deployed; the load average is printed with them:

    OPENBLAS_NUM_THREADS=1 python benchmarks/transformer_move.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import plotly.io as pio

from lnviz.lessons import transformer as tf
from lnviz.lessons.transformer import analysis as tp
from lnviz.lessons.transformer import figures as figs
from lnviz.lessons.transformer import notes

DEPTH, WIDTH = max(tp.DEPTHS), max(tp.WIDTHS)


def _draw(pair: figs.Chart, *args: object) -> None:
    pio.to_json(pair.figure(*args), validate=False)
    pair.alt(*args)


def _stack(depth: int, seed: int) -> tf.PlacementComparison:
    return tp.page_stack(depth, WIDTH, seed)


def placement_move(seed: int) -> None:
    cmp = _stack(DEPTH, seed)
    sweep = tp.last_block_sweep(cmp)
    facts = tp.placement_facts(cmp, sweep)
    notes.placement_notes(facts), notes.placement_details(facts)
    _draw(figs.GRADIENT, cmp, "post")
    _draw(figs.STREAM, cmp, "post")
    _draw(figs.DEPTH, sweep, DEPTH)


def sphere_move(seed: int) -> None:
    view = tf.sphere_view(tf.sample_tokens(60, 64, seed=seed), 1e-5)
    notes.sphere_notes(view)
    _draw(figs.SPHERE, view)


def attention_move(seed: int) -> None:
    q, keys = tf.hidden_key_example()
    raw = tf.attention_scan(q, keys, tuple(10 ** (k / 10 - 1) for k in range(41)))
    normed = tf.attention_scan(q, keys, raw.scales, qk_norm="rms", tau=1.0 + seed)
    sel = tf.selectable_keys(keys, layer_norm=True)
    notes.attention_notes(raw, normed, sel)
    _draw(figs.WEIGHTS, raw, normed)
    _draw(figs.ENTROPY, raw, normed)
    _draw(figs.KEYS, sel)


def tanh_move(seed: int) -> None:
    fit = tf.tanh_fit(tokens=256, width=64, outlier_fraction=0.5, seed=seed)
    notes.tanh_notes(fit)
    _draw(figs.TANH, fit)


def timed(move: Callable[[int], None], runs: int = 7) -> tuple[float, float, float, float]:
    """Wall-clock min, median and max, and the median CPU time of this process (ms): on a
    busy machine the wall clock counts waiting for a core, the CPU time does not."""
    move(0)  # imports and first-call costs
    wall, cpu = [], []
    for seed in range(1, runs + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        move(seed)
        wall.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
    return min(wall), statistics.median(wall), max(wall), statistics.median(cpu)


if __name__ == "__main__":
    print("load average", " ".join(f"{v:.2f}" for v in os.getloadavg()))
    for name, move in (
        (f"placement section, L = {DEPTH}, d = {WIDTH}", placement_move),
        ("sphere section, d = 64", sphere_move),
        ("attention section", attention_move),
        ("tanh section, half the tokens with outliers", tanh_move),
    ):
        lo, mid, hi, cpu = timed(move)
        print(f"{name:44s} wall min {lo:5.0f} median {mid:5.0f} max {hi:5.0f}, CPU {cpu:4.0f} ms")
