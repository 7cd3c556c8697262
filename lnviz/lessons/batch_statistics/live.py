"""The batch-statistics page's stream charts for a whole grid of shift steps at once.

The stream draws the same normal numbers whatever the shift step k
(lnviz.lessons.batch_statistics.running.sample_stream): step t is drawn from the
unshifted distribution if t < k and from the shifted one otherwise. So every state of the
page's running and gap charts, for K shift steps, comes from two versions of each step
(unshifted, shifted) of the page's stream:

    x_k[t]            = x_base[t] if t < k else x_shift[t]              (K, S, B, F) never built
    batch statistics  = the version's mean and biased variance         (K, S)
    running r_k[t]    = each framework's update fed with x_k[t]'s stats (K, S, F), one loop
                        over the S steps for all K rows at once
    gap_k[t]          = max_(i,f) |y_train − y_eval| of batch t         (K, S)

The gap needs only the smallest and the largest value of each (step, feature): the
difference between the two normalizations is linear in x, so its largest size over a batch
is at one of them. tests/lessons/test_live_batchstats.py checks every row against the page's
one-step computation (lnviz.lessons.batch_statistics.analysis.stream_runs at that step).

>>> from lnviz.lessons.batch_statistics.analysis import StreamSettings, stream_runs
>>> sr = stream_runs(StreamSettings(20, 4, 2, 0, 10, 3.0, 2.0, 0.1, 0.99))
>>> g = shift_step_grid(sr.stream, sr.runs, 0, shift_steps(20, 10))
>>> g.at.tolist()[:4], g.running_mean.shape, g.gap.shape
([0, 1, 2, 3], (2, 21, 20), (2, 21, 20))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lnviz.lessons.batch_statistics.running import (
    Running,
    Stream,
    _batch_moments,
    _train_outputs,
    sample_stream,
)

MAX_POINTS = 10_000  # frames x steps: the frames of a 200-step stream stay near 0.5 MB
STRIDES = (1, 2, 5, 10, 20, 25, 50, 100)


def shift_steps(steps: int, at: int, max_points: int = MAX_POINTS) -> tuple[int, ...]:
    """The live control's shift steps: 0 to `steps` (no shift) in the finest stride of
    STRIDES that keeps (number of frames) × steps within `max_points`; `steps` itself and
    the page's step `at` are always in.

    >>> shift_steps(200, 100)[:3], len(shift_steps(200, 100)), shift_steps(300, 77)[7:10]
    ((0, 5, 10), 41, (70, 77, 80))
    """
    if steps < 1 or not 0 <= at <= steps:
        raise ValueError("need steps >= 1 and 0 <= at <= steps")
    fits = [k for k in STRIDES if (steps // k + 1) * steps <= max_points]
    stride = fits[0] if fits else max(1, steps // 2)
    grid = set(range(0, steps + 1, stride)) | {steps, at}
    return tuple(sorted(grid))


@dataclass(frozen=True)
class ShiftStepGrid:
    """One feature's stream charts at every shift step of `at`; axis 0 of the running and
    gap arrays is the convention, as in the page's runs (PyTorch, Keras)."""

    at: np.ndarray  # (K,) shift steps (S = no shift)
    feature: int
    batch_mean: np.ndarray  # (K, S) of the shown feature
    batch_var: np.ndarray  # (K, S) biased
    true_mean: np.ndarray  # (K, S)
    true_var: np.ndarray  # (K, S)
    running_mean: np.ndarray  # (2, K, S)
    running_var: np.ndarray  # (2, K, S)
    gap: np.ndarray  # (2, K, S) max |y_train − y_eval| over the batch and all features


def _extremes(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y at each (step, feature)'s smallest and largest x: (S, 2, F) each."""
    idx = np.stack([x.argmin(axis=1), x.argmax(axis=1)], axis=1)  # (S, 2, F)
    return np.take_along_axis(x, idx, axis=1), np.take_along_axis(y, idx, axis=1)


def _version(x: np.ndarray, runs: Sequence[Running]) -> dict[str, np.ndarray]:
    """What each step of one version of the stream feeds the charts (see the module text)."""
    s, b, f = x.shape
    mean, var = _batch_moments(x)  # (S, F) each, two-pass, as Keras is fed and the charts show
    out = {"mean": mean, "var": var}
    for n, run in enumerate(runs):
        res = _train_outputs(x, run.eps)  # the page runs' kernel call
        y = res.y.reshape(s, f, b).transpose(0, 2, 1)  # (S, B, F)
        out[f"x{n}"], out[f"y{n}"] = _extremes(x, y)
        if run.convention == "pytorch":
            out[f"m{n}"] = res.mean.reshape(s, f)
            out[f"v{n}"] = res.second.reshape(s, f) * (b / (b - 1))  # unbiased feed
        else:
            out[f"m{n}"], out[f"v{n}"] = mean, var
    return out


def _weights(run: Running) -> tuple[float, float]:
    """A running-average update r <- a·r + c·batch in the framework's own order: PyTorch
    (1 − m)·r + m·batch, Keras r·m + batch·(1 − m) (products commute exactly in IEEE)."""
    m = run.momentum
    return (1 - m, m) if run.convention == "pytorch" else (m, 1.0 - m)


def shift_step_grid(
    stream: Stream, runs: Sequence[Running], feature: int, at_values: Sequence[int]
) -> ShiftStepGrid:
    """The stream charts of feature `feature` for each shift step of `at_values`, from the
    page's stream (its seed, shift and spread) and runs (their momenta and ε)."""
    s, b, f = stream.x.shape
    ks = np.asarray(at_values, dtype=np.int64)  # (K,)
    if ks.ndim != 1 or ks.size == 0 or ks.min() < 0 or ks.max() > s:
        raise ValueError(f"at_values must be a non-empty list of steps from 0 to {s}")
    if not 0 <= feature < f or len(runs) != 2 or b < 2:
        raise ValueError("need a feature of the stream, two runs and batches of 2 or more")
    draw = {"seed": stream.seed, "shift": stream.shift, "spread": stream.spread}
    base = sample_stream(s, b, f, shift_step=s, **draw)  # every step unshifted
    moved = sample_stream(s, b, f, shift_step=0, **draw)  # every step shifted
    vb, vs = _version(base.x, runs), _version(moved.x, runs)
    after = np.arange(s)[None, :] >= ks[:, None]  # (K, S): step t drawn shifted

    def pick(a: np.ndarray, c: np.ndarray) -> np.ndarray:  # (S, ...) twice -> (K, S, ...)
        return np.where(after.reshape(after.shape + (1,) * (a.ndim - 1)), c[None], a[None])

    # Both runs' means and variances advance together: rows [m0, v0, m1, v1], each update
    # a·r + c·batch with the framework's own a and c (_weights), one loop over the steps.
    a, c = np.array([_weights(run) for run in runs for _ in "mv"]).T[..., None, None]  # (4,1,1)
    fed = np.stack(
        [pick(vb[f"{st}{n}"], vs[f"{st}{n}"]) for n in range(2) for st in "mv"], axis=1
    )  # (K, 4, S, F)
    r_t = np.stack([np.zeros((ks.size, f)), np.ones((ks.size, f))] * 2)  # (4, K, F): 0 and 1
    runs_t = np.empty((s, 4, ks.size, f))
    for t in range(s):
        r_t = a * r_t + c * fed[:, :, t].transpose(1, 0, 2)
        runs_t[t] = r_t
    stats = runs_t.transpose(1, 2, 0, 3).reshape(2, 2, ks.size, s, f)  # (run, m|v, K, S, F)
    rm, rv = stats[:, 0], stats[:, 1]  # (2, K, S, F) each
    gap = np.empty((2, ks.size, s))
    for n, run in enumerate(runs):
        x_e = pick(vb[f"x{n}"], vs[f"x{n}"])  # (K, S, 2, F)
        y_e = pick(vb[f"y{n}"], vs[f"y{n}"])  # (K, S, 2, F)
        y_eval = (x_e - rm[n, :, :, None, :]) / np.sqrt(rv[n, :, :, None, :] + run.eps)
        gap[n] = np.abs(y_e - y_eval).max(axis=(2, 3))
    return ShiftStepGrid(
        at=ks,
        feature=feature,
        batch_mean=pick(vb["mean"], vs["mean"])[..., feature],
        batch_var=pick(vb["var"], vs["var"])[..., feature],
        true_mean=pick(base.mean, moved.mean)[..., feature],
        true_var=pick(base.var, moved.var)[..., feature],
        running_mean=rm[..., feature],
        running_var=rv[..., feature],
        gap=gap,
    )
