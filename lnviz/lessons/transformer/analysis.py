"""The numbers beside the transformer page's charts, all computed from the page's own runs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk
from lnviz.lessons.transformer.ln_backward import LayerNormBackward, ln_backward, ln_forward
from lnviz.lessons.transformer.residual_stack import (
    PLACEMENTS,
    PlacementComparison,
    StackRun,
    compare_placements,
)
from lnviz.lessons.transformer.stack_parts import activate, packed_signs, signs, xavier_scale
from lnviz.lessons.transformer.tanh_fit import TanhFit

DEPTHS = (6, 12, 24, 48, 96)  # the page's depth choices
WIDTHS = (16, 32, 64, 128, 256)  # the page's width choices
HIDDEN_RATIO = 2  # each block's MLP is d -> 2 d -> d on the page
PRECISION = "float32"
SWEEP_DEPTHS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96)  # the depth chart's points
FLAT = 1.25  # two gradients within this factor of each other count as "about the same"


@dataclass(frozen=True)
class LastBlockSweep:
    """The last block's weight-gradient norm of a depth-L stack, for each L in depths."""

    depths: np.ndarray  # (k,)
    width: int
    seed: int
    last: dict[str, np.ndarray]  # placement -> (k,) grad_norm of block L in a depth-L stack
    output_stream_norm: dict[str, np.ndarray]  # placement -> (k,) mean |x_L|


def page_stack(depth: int, width: int, seed: int) -> PlacementComparison:
    """The three placements as the page runs them (float32, hidden = 2 d), read-only to share."""
    run = compare_placements(
        depth,
        width,
        hidden=HIDDEN_RATIO * width,
        seed=seed,
        precision=PRECISION,
        sweep_depths=sweep_depths(depth),
    )
    return read_only(run)


def sweep_depths(depth: int) -> tuple[int, ...]:
    """The depth chart's points up to `depth`: what the page's stack reads off on its way."""
    return tuple(L for L in SWEEP_DEPTHS if depth >= L)


def last_block_sweep(
    cmp: PlacementComparison, depths: tuple[int, ...] | None = None
) -> LastBlockSweep:
    """Each depth's last-block gradient off one run: a depth-L stack is the run's first L blocks."""
    top = cmp.pre.depth
    if depths is None:
        depths = sweep_depths(top)
    accepted = f"1 to 16 depths, each a whole number from 1 to the stack's depth {top}"
    if not isinstance(depths, (list, tuple)) or not 1 <= len(depths) <= 16:
        raise LnvizError("depths", depths, accepted)
    ds = [chk.whole(v, "depths", 1, top) for v in depths]
    norm = {p: np.array([cmp.run(p).stream_norm[L] for L in ds]) for p in PLACEMENTS}
    if set(ds) <= set(cmp.pre.sweep_depths):  # read off on the stack's own way back
        rows = [cmp.pre.sweep_depths.index(L) for L in ds]
        last = {p: np.asarray(cmp.run(p).sweep_last)[rows] for p in PLACEMENTS}
        return LastBlockSweep(np.array(ds), cmp.pre.width, cmp.pre.seed, last, norm)
    last = {p: np.empty(len(ds)) for p in PLACEMENTS}
    for k, L in enumerate(ds):
        d, H = cmp.pre.width, cmp.pre.hidden
        _, s2 = signs(packed_signs(cmp.pre.seed, L, d, H), d, H, np.dtype(np.float32))
        w2 = xavier_scale(d, H) * s2.astype(np.float64)  # (H, d) block L's W2
        for p in PLACEMENTS:
            last[p][k] = _last_block_grad(cmp.run(p), L, w2)
    return LastBlockSweep(np.array(ds), cmp.pre.width, cmp.pre.seed, last, norm)


def _last_block_grad(run: StackRun, L: int, w2: np.ndarray) -> float:
    """|dL/dW_L| of a depth-L stack whose forward pass is the first L blocks of `run`."""
    f64 = np.float64
    g = run.projection / run.tokens  # (T, d) dL/dy
    if run.placement != "post":  # y = LN(x_L)
        xhat, inv = ln_forward(run.stream[L].astype(f64), run.eps)
        g = ln_backward(g, xhat, inv)
    i = L - 1
    if run.placement == "post":  # x_L = LN(x_{L-1} + F(x_{L-1}))
        s = run.stream[i].astype(f64) + run.block_output[i]  # (T, d)
        xhat, inv = ln_forward(s, run.eps)
        g = ln_backward(g, xhat, inv)
    phi, dphi = activate(run.pre_activation[i].astype(f64), run.activation)  # (T, H)
    g_h = (g @ w2.T) * dphi  # (T, H) dL/d(a W1)
    a = run.block_input[i].astype(f64)  # (T, d)
    return float(np.sqrt(_gram(phi, g) + _gram(a, g_h)))  # sqrt(|dL/dW2|^2 + |dL/dW1|^2)


def _gram(a: np.ndarray, g: np.ndarray) -> float:
    """|a^T g|_F^2 from the T x T Gram matrices, without the (n, m) matrix a^T g."""
    return max(float(((a @ a.T) * (g @ g.T)).sum()), 0.0)


@dataclass(frozen=True)
class PlacementFacts:
    """The numbers behind the page's statements on Pre-LN against Post-LN."""

    depth: int
    width: int
    first: dict[str, float]  # placement -> block 1's gradient norm
    last: dict[str, float]  # placement -> block L's gradient norm
    stream_out: dict[str, float]  # placement -> mean |x_L|
    post_over_pre: float  # Post-LN's last-block gradient / Pre-LN's
    pre_first_over_last: float  # Pre-LN: block 1's gradient / block L's
    pre_stream_ratio: float  # Pre-LN: |x_L| / |x_1|, what that ratio follows
    post_last_over_first: float  # Post-LN: block L's gradient / block 1's
    post_flat_across: bool  # that ratio within a factor FLAT of 1
    sweep_depths: tuple[int, int]  # the smallest and largest depth of the sweep
    post_sweep: tuple[float, float]  # Post-LN's last-block gradient at those depths
    pre_sweep: tuple[float, float]  # Pre-LN's
    pre_stream_sweep: tuple[float, float]  # Pre-LN's |x_L| at those depths
    post_flat_in_depth: bool  # Post-LN's last-block gradient within FLAT across the sweep
    pre_falls: bool  # Pre-LN's last-block gradient at the largest depth below the smallest's
    pre_times_stream_spread: float  # max / min over the sweep of Pre-LN's last grad * |x_L|


def placement_facts(cmp: PlacementComparison, sweep: LastBlockSweep) -> PlacementFacts:
    """Ratios of the comparison at the chosen depth and of the depth sweep."""
    first = {p: float(cmp.run(p).grad_norm[0]) for p in PLACEMENTS}
    last = {p: float(cmp.run(p).grad_norm[-1]) for p in PLACEMENTS}
    post_sweep = (float(sweep.last["post"][0]), float(sweep.last["post"][-1]))
    pre_sweep = (float(sweep.last["pre"][0]), float(sweep.last["pre"][-1]))
    product = sweep.last["pre"] * sweep.output_stream_norm["pre"]  # (k,)
    post_across = last["post"] / first["post"]
    post_depth = post_sweep[1] / post_sweep[0]
    return PlacementFacts(
        depth=cmp.pre.depth,
        width=cmp.pre.width,
        first=first,
        last=last,
        stream_out={p: float(cmp.run(p).stream_norm[-1]) for p in PLACEMENTS},
        post_over_pre=last["post"] / last["pre"],
        pre_first_over_last=first["pre"] / last["pre"],
        pre_stream_ratio=float(cmp.pre.stream_norm[-1] / cmp.pre.stream_norm[1]),
        post_last_over_first=post_across,
        post_flat_across=1 / FLAT <= post_across <= FLAT,
        sweep_depths=(int(sweep.depths[0]), int(sweep.depths[-1])),
        post_sweep=post_sweep,
        pre_sweep=pre_sweep,
        pre_stream_sweep=(
            float(sweep.output_stream_norm["pre"][0]),
            float(sweep.output_stream_norm["pre"][-1]),
        ),
        post_flat_in_depth=1 / FLAT <= post_depth <= FLAT,
        pre_falls=pre_sweep[1] < pre_sweep[0],
        pre_times_stream_spread=float(product.max() / product.min()),
    )


@dataclass(frozen=True)
class BackwardRows:
    """One token's layer-norm backward pass, coordinate by coordinate (one tuple a column)."""

    coordinate: tuple[int, ...]  # 1..d
    x: tuple[float, ...]  # the input
    x_hat: tuple[float, ...]  # the normalized output (no gain)
    g: tuple[float, ...]  # the gradient arriving at x_hat (gamma * dL/dy)
    centred_g: tuple[float, ...]  # g - mean(g)
    grad_x: tuple[float, ...]  # dL/dx


def backward_rows(result: LayerNormBackward, token: int = 0) -> BackwardRows:
    """The columns of one token of a layer_norm_backward result."""
    t = chk.whole(token, "token", 0, result.x.shape[0] - 1)
    g = result.g[t]  # (d,)
    return BackwardRows(
        coordinate=tuple(range(1, result.x.shape[1] + 1)),
        x=tuple(float(v) for v in result.x[t]),
        x_hat=tuple(float(v) for v in result.x_hat[t]),
        g=tuple(float(v) for v in g),
        centred_g=tuple(float(v) for v in g - g.mean()),
        grad_x=tuple(float(v) for v in result.grad_x[t]),
    )


def read_only(cmp: PlacementComparison) -> PlacementComparison:
    """Mark every array read-only (in place), so the page shares one cached comparison uncopied."""
    for p in PLACEMENTS:
        run = cmp.run(p)
        for value in vars(run).values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
    return cmp


def slope_range(fit: TanhFit) -> tuple[float, float]:
    """The smallest and largest slope 1 / sigma_t of the per-token lines of a tanh fit."""
    slopes = 1.0 / fit.token_sigma  # (T,)
    return float(slopes.min()), float(slopes.max())


def match_length(g: np.ndarray, n: int) -> np.ndarray:
    """g cut or zero-padded to n numbers, so the page's gradient box follows the token's length."""
    k = chk.whole(n, "n", 1, 4096)
    out = np.zeros(k)
    m = min(k, len(g))
    out[:m] = g[:m]
    return out
