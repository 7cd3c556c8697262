"""First and last block's gradient norms against depth per placement: one comparison run a depth."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk
from lnviz.lessons.transformer.residual_stack import (
    PLACEMENTS,
    TOKENS_DEFAULT,
    StackOptions,
    run_placements,
)
from lnviz.lessons.transformer.stack_parts import DEPTH_MAX


@dataclass(frozen=True)
class DepthSweep:
    """Block gradient norms (StackRun.grad_norm) of the first and last block against depth."""

    depths: np.ndarray  # (k,)
    width: int
    tokens: int
    seed: int
    first: dict[str, np.ndarray]  # placement -> (k,) grad_norm of block 1
    last: dict[str, np.ndarray]  # placement -> (k,) grad_norm of block L
    output_stream_norm: dict[str, np.ndarray]  # placement -> (k,) mean |x_L|


def depth_sweep(
    depths: tuple[int, ...] = (6, 12, 24, 48),
    width: int = 64,
    tokens: int = TOKENS_DEFAULT,
    *,
    hidden: int | None = None,
    seed: int = 0,
    activation: str = "relu",
    precision: str = "float64",
) -> DepthSweep:
    """First- and last-block gradient norms of every placement for each depth (1 to 8 depths)."""
    accepted = f"1 to 8 depths, each a whole number from 1 to {DEPTH_MAX}"
    if not isinstance(depths, (list, tuple, np.ndarray)) or not 1 <= len(depths) <= 8:
        raise LnvizError("depths", depths, accepted)
    ds = [chk.whole(v, "depths", 1, DEPTH_MAX) for v in depths]
    first = {p: np.empty(len(ds)) for p in PLACEMENTS}
    last = {p: np.empty(len(ds)) for p in PLACEMENTS}
    top = {p: np.empty(len(ds)) for p in PLACEMENTS}
    options = StackOptions(hidden=hidden, seed=seed, activation=activation, precision=precision)
    for k, L in enumerate(ds):
        runs = run_placements(PLACEMENTS, L, width, tokens, **options)
        for run in runs:
            first[run.placement][k] = run.grad_norm[0]
            last[run.placement][k] = run.grad_norm[-1]
            top[run.placement][k] = run.stream_norm[-1]
    return DepthSweep(np.array(ds), runs[0].width, runs[0].tokens, runs[0].seed, first, last, top)
