"""Batch norm's batch and running statistics over a stream, in PyTorch's and Keras's conventions."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lnviz._kernel import RowStats, normalize_rows
from lnviz.channels import _check_momentum, batch_norm
from lnviz.errors import LnvizError, as_float_array, check_eps, require_finite

MAX_STEPS, MAX_BATCH, MAX_FEATURES = 300, 64, 8  # at most 153,600 entries per stream


@dataclass(frozen=True)
class Stream:
    """Seeded mini-batches whose distribution shifts once, with its true statistics."""

    x: np.ndarray  # (S, B, F) the mini-batches, one per step
    mean: np.ndarray  # (S, F) population mean of each feature at each step
    var: np.ndarray  # (S, F) population variance of each feature at each step
    seed: int
    shift_step: int  # first step drawn from the shifted distribution (S: no shift)
    shift: float  # mean shift, in standard deviations of each feature
    spread: float  # factor on each feature's standard deviation from shift_step on


@dataclass(frozen=True)
class Running:
    """One convention's running statistics over a stream, and its training/evaluation outputs."""

    convention: str  # "pytorch" or "keras"
    momentum: float  # as the framework spells it
    weight_new: float  # weight of the new batch value: m (PyTorch) or 1 - m (Keras)
    eps: float
    unbiased: bool  # the running variance is fed the unbiased batch variance
    batch_mean: np.ndarray  # (S, F) mean of each mini-batch
    batch_var: np.ndarray  # (S, F) biased variance of each mini-batch (used to normalize)
    fed_var: np.ndarray  # (S, F) batch variance fed to the running average
    running_mean: np.ndarray  # (S, F) after the update of step t
    running_var: np.ndarray  # (S, F) after the update of step t
    y_train: np.ndarray  # (S, B, F) batch t normalized with its own statistics
    y_eval: np.ndarray  # (S, B, F) batch t normalized with the running statistics after step t
    gap: np.ndarray  # (S,) max |y_train - y_eval| over the batch and features


def _size(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise LnvizError(name, value, f"a whole number from {lo} to {hi}")
    return int(value)


def _finite(value: object, name: str, lo: float, hi: float) -> float:
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        out = math.nan
    if isinstance(value, (str, bytes)) or not (math.isfinite(out) and lo <= out <= hi):
        raise LnvizError(name, value, f"a number from {lo:g} to {hi:g}")
    return out


def sample_stream(
    steps: int,
    batch: int,
    features: int,
    *,
    seed: int = 0,
    shift_step: int | None = None,
    shift: float = 0.0,
    spread: float = 1.0,
) -> Stream:
    """x[t, i, f] = mu_f(t) + sigma_f(t) n[t, i, f]: the same seeded n whatever the shift."""
    s = _size(steps, "steps", 1, MAX_STEPS)
    b = _size(batch, "batch", 1, MAX_BATCH)
    f = _size(features, "features", 1, MAX_FEATURES)
    seed = _size(seed, "seed", 0, 2**32 - 1)
    k = s if shift_step is None else _size(shift_step, "shift_step", 0, s)
    shift = _finite(shift, "shift", -100.0, 100.0)
    spread = _finite(spread, "spread", 1e-3, 1e3)
    rng = np.random.default_rng(seed)
    mu = rng.uniform(-2.0, 2.0, f)  # (F,)
    sigma = rng.uniform(0.5, 2.0, f)  # (F,)
    noise = rng.standard_normal((s, b, f))  # (S, B, F)
    after = (np.arange(s) >= k)[:, None]  # (S, 1)
    mean = mu + np.where(after, shift * sigma, 0.0)  # (S, F)
    std = sigma * np.where(after, spread, 1.0)  # (S, F)
    x = mean[:, None, :] + std[:, None, :] * noise  # (S, B, F)
    return Stream(x, mean, std**2, seed, k, shift, spread)


def _stream_array(x: object) -> np.ndarray:
    arr = as_float_array(x, min_ndim=3).astype(np.float64)  # (S, B, F)
    if arr.ndim != 3:
        raise LnvizError("x", arr, "a stream of shape (steps, batch, features)")
    require_finite(arr, "x")
    return arr


def _batch_moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-step batch mean and biased variance, two-pass."""
    mean = x.mean(axis=1)  # (S, F)
    var = ((x - mean[:, None, :]) ** 2).mean(axis=1)  # (S, F) divisor B
    return mean, var


def _eval_outputs(x: np.ndarray, rm: np.ndarray, rv: np.ndarray, eps: float) -> np.ndarray:
    """Evaluation outputs in one batch_norm call whose channels are the (step, feature) pairs."""
    s, b, f = x.shape
    channels = x.transpose(1, 0, 2).reshape(b, s * f)  # (B, S*F)
    y = batch_norm(channels, rm.reshape(-1), rv.reshape(-1), training=False, eps=eps)[0]
    return y.reshape(b, s, f).transpose(1, 0, 2)  # (S, B, F)


def _train_outputs(x: np.ndarray, eps: float) -> RowStats:
    """Training outputs in one kernel call over (step, feature) rows, not one call per step."""
    s, b, f = x.shape
    rows = np.ascontiguousarray(x.transpose(0, 2, 1)).reshape(s * f, b)  # (S*F, B)
    return normalize_rows(rows, eps)


def _as_steps(rows: np.ndarray, s: int, f: int) -> np.ndarray:
    """Kernel rows (S*F, B) back to the stream's layout (S, B, F)."""
    return rows.reshape(s, f, -1).transpose(0, 2, 1)


def _finish(
    convention: str,
    momentum: float,
    weight_new: float,
    eps: float,
    unbiased: bool,
    x: np.ndarray,
    fed_var: np.ndarray,
    rm: np.ndarray,
    rv: np.ndarray,
    y_train: np.ndarray,
) -> Running:
    mean, var = _batch_moments(x)  # (S, F) each
    y_eval = _eval_outputs(x, rm, rv, eps)  # (S, B, F)
    gap = np.abs(y_train - y_eval).max(axis=(1, 2))  # (S,)
    return Running(
        convention, momentum, weight_new, eps, unbiased, mean, var, fed_var, rm, rv,
        y_train, y_eval, gap,
    )  # fmt: skip


def pytorch_running(x: object, momentum: float = 0.1, eps: float = 1e-5) -> Running:
    """PyTorch: r_t = (1 - m) r_(t-1) + m b_t, the variance fed unbiased (divisor B - 1)."""
    arr = _stream_array(x)  # (S, B, F)
    mom, e = _check_momentum(momentum), check_eps(eps)
    s, b, f = arr.shape
    if b < 2:
        raise LnvizError("batch", b, "training batch norm needs at least 2 examples per batch")
    res = _train_outputs(arr, e)
    y_train = _as_steps(res.y, s, f)  # (S, B, F)
    mean, second = res.mean.reshape(s, f), res.second.reshape(s, f)  # (S, F) each
    rm, rv = np.zeros(f), np.ones(f)  # (F,) torch's initial running statistics
    hist_m, hist_v = np.empty((s, f)), np.empty((s, f))
    for t in range(s):  # batch_norm's update, in its order of operations
        rm = (1 - mom) * rm + mom * mean[t]  # (F,)
        rv = (1 - mom) * rv + mom * second[t] * (b / (b - 1))  # (F,) unbiased batch variance
        hist_m[t], hist_v[t] = rm, rv
    fed = _batch_moments(arr)[1] * (b / (b - 1))  # (S, F) unbiased batch variance
    return _finish("pytorch", mom, mom, e, True, arr, fed, hist_m, hist_v, y_train)


def keras_running(x: object, momentum: float = 0.99, eps: float = 1e-3) -> Running:
    """Keras 3: r_t = m r_(t-1) + (1 - m) b_t, the variance fed biased (divisor B)."""
    arr = _stream_array(x)  # (S, B, F)
    mom, e = _check_momentum(momentum), check_eps(eps)
    s, b, f = arr.shape
    if b < 2:
        raise LnvizError("batch", b, "training batch norm needs at least 2 examples per batch")
    mean, var = _batch_moments(arr)  # (S, F) each; var biased, as Keras feeds it
    rm, rv = np.zeros(f), np.ones(f)  # (F,) Keras's moving_mean / moving_variance initializers
    hist_m, hist_v = np.empty((s, f)), np.empty((s, f))
    for t in range(s):
        rm = rm * mom + mean[t] * (1.0 - mom)  # (F,) written in Keras's own order
        rv = rv * mom + var[t] * (1.0 - mom)  # (F,)
        hist_m[t], hist_v[t] = rm, rv
    y_train = _as_steps(_train_outputs(arr, e).y, s, f)  # (S, B, F)
    return _finish("keras", mom, 1.0 - mom, e, False, arr, var, hist_m, hist_v, y_train)


def steps_to_close(weight_new: float, fraction: float = 0.9) -> int | None:
    """n = ceil(ln(1 - fraction) / ln(1 - w)) steps to close `fraction` of a jump (None: w = 0)."""
    w = _finite(weight_new, "weight_new", 0.0, 1.0)
    frac = _finite(fraction, "fraction", 0.0, 0.999999)
    if w == 0.0:
        return None
    if w == 1.0 or frac == 0.0:
        return 1 if frac > 0 else 0
    n = math.ceil(math.log1p(-frac) / math.log1p(-w) - 1e-9)  # guard exact powers
    return max(n, 1)


def variance_ratio(run: Running, stream: Stream, feature: int = 0) -> tuple[float, float, int, int]:
    """Mean running_var / true var over the last quarter before the shift, and its limit."""
    b = stream.x.shape[1]
    f = _size(feature, "feature", 0, stream.x.shape[2] - 1)
    end = max(stream.shift_step, 1)  # steps before the shift (at least one)
    lo = end - max(1, end // 4)
    ratio = run.running_var[lo:end, f] / stream.var[lo:end, f]  # (n,)
    limit = 1.0 if run.unbiased else (b - 1) / b
    return float(ratio.mean()), limit, lo, end - 1


def catch_up(run: Running, stream: Stream, feature: int = 0, fraction: float = 0.9) -> int | None:
    """Updates after the shift until the running mean first closed `fraction` of the jump."""
    f = _size(feature, "feature", 0, stream.x.shape[2] - 1)
    frac = _finite(fraction, "fraction", 0.0, 0.999999)
    k, s = stream.shift_step, stream.x.shape[0]
    if k >= s:
        return None
    before = run.running_mean[k - 1, f] if k > 0 else 0.0
    target = stream.mean[k, f]
    jump = abs(target - before)
    if jump < 1e-12:
        return None
    closed = np.abs(run.running_mean[k:, f] - target) <= (1.0 - frac) * jump  # (S - k,)
    return int(np.argmax(closed)) + 1 if closed.any() else None


def gap_summary(run: Running, stream: Stream) -> tuple[float, float | None]:
    """(median gap over the second half of the steps before the shift, largest gap after it)."""
    k = max(stream.shift_step, 1)
    before = float(np.median(run.gap[k // 2 : k]))
    after = float(run.gap[k:].max()) if k < run.gap.size else None
    return before, after
