"""Layer norm rounded op by op in a format against a float64 truth: why precisions disagree."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, check_eps
from lnviz.lessons.numerics.precision import (
    PRECISIONS,
    SUMMATIONS,
    Format,
    get_format,
    store,
    total,
)

ALGORITHMS = ("one-pass", "two-pass", "welford")
MAX_N = 2048  # entries per sample: every count up to it is exact even in float16
MAX_ROWS = 64  # samples per call (points of a sweep)
MAX_OFFSET = 1e8
_MAX_ABS = 1e9  # largest |x| accepted


@dataclass(frozen=True)
class Moments:
    """Mean and variance of each row, computed in one format by one algorithm."""

    algorithm: str
    precision: str
    summation: str
    stored: np.ndarray  # (K, n) the input as the format holds it, as float64
    mean: np.ndarray  # (K,) the format's mean, as float64
    variance: np.ndarray  # (K,) as computed; the one-pass value can be negative


def _rows(x: ArrayLike, name: str = "x") -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    arr = arr[None, :] if arr.ndim == 1 else arr  # (K, n)
    if arr.ndim != 2 or not (2 <= arr.shape[1] <= MAX_N and 1 <= arr.shape[0] <= MAX_ROWS):
        raise LnvizError(
            name, arr, f"1 to {MAX_ROWS} rows of 2 to {MAX_N} entries (shape (n,) or (K, n))"
        )
    if not np.isfinite(arr).all() or np.abs(arr).max() > _MAX_ABS:
        raise LnvizError(name, arr, f"finite entries with |x| <= {_MAX_ABS:g}")
    return arr


def _choice(value: str, options: tuple[str, ...], name: str) -> str:
    if value not in options:
        raise LnvizError(name, value, "one of " + ", ".join(options))
    return value


def _one_pass(xs: np.ndarray, f: Format, summation: str) -> tuple[np.ndarray, np.ndarray]:
    n = f.dtype(xs.shape[-1])
    mean = f.round(total(xs, f, summation) / n)  # (K,) S(x) / n
    mean_sq = f.round(total(f.round(xs * xs), f, summation) / n)  # (K,) S(x^2) / n
    return mean, f.round(mean_sq - f.round(mean * mean))  # (K,) E[x^2] - E[x]^2


def _two_pass(xs: np.ndarray, f: Format, summation: str) -> tuple[np.ndarray, np.ndarray]:
    n = f.dtype(xs.shape[-1])
    mean = f.round(total(xs, f, summation) / n)  # (K,)
    dev = f.round(xs - mean[:, None])  # (K, n) x - mu
    return mean, f.round(total(f.round(dev * dev), f, summation) / n)  # (K,)


def _welford(xs: np.ndarray, f: Format, summation: str) -> tuple[np.ndarray, np.ndarray]:
    n = f.dtype(xs.shape[-1])
    if summation == "sequential":
        m = np.zeros(xs.shape[0], dtype=f.dtype)  # (K,) running mean
        m2 = np.zeros(xs.shape[0], dtype=f.dtype)  # (K,) running sum of squared deviations
        counts = np.arange(1, xs.shape[1] + 1, dtype=f.dtype)  # (n,) exact
        for xk, k in zip(np.ascontiguousarray(xs.T), counts, strict=True):  # xk: (K,)
            delta = f.round(xk - m)  # x_k - m_(k-1)
            m = f.round(m + f.round(delta / k))
            m2 = f.round(m2 + f.round(delta * f.round(xk - m)))  # (x_k - m_(k-1))(x_k - m_k)
        return m, f.round(m2 / n)
    # pairwise: Chan's merge of (count, mean, M2) states up a balanced tree
    c = np.ones(xs.shape, dtype=f.dtype)  # (K, L) counts, exact integers
    m, m2 = xs, np.zeros_like(xs)  # (K, L)
    while m.shape[1] > 1:
        odd = slice(m.shape[1] - 1, None) if m.shape[1] % 2 else slice(0, 0)
        ca, cb, ma, mb = c[:, 0:-1:2], c[:, 1::2], m[:, 0:-1:2], m[:, 1::2]  # (K, L // 2)
        cn = ca + cb  # exact
        w = f.round(cb / cn)  # n_b / n
        delta = f.round(mb - ma)
        mn = f.round(ma + f.round(delta * w))
        spread = f.round(f.round(delta * delta) * f.round(ca * w))  # delta^2 n_a n_b / n
        m2n = f.round(f.round(m2[:, 0:-1:2] + m2[:, 1::2]) + spread)
        c = np.concatenate([cn, c[:, odd]], axis=1)
        m = np.concatenate([mn, m[:, odd]], axis=1)
        m2 = np.concatenate([m2n, m2[:, odd]], axis=1)
    return m[:, 0], f.round(m2[:, 0] / n)


_ALGORITHM_FUNCS = {"one-pass": _one_pass, "two-pass": _two_pass, "welford": _welford}


def moments(x: ArrayLike, algorithm: str, precision: str, summation: str = "sequential") -> Moments:
    """Row mean and variance in `precision`: one-pass S(x^2)/n - mu^2, two-pass, or Welford."""
    arr = _rows(x)
    f = get_format(_choice(precision, PRECISIONS, "precision"))
    func = _ALGORITHM_FUNCS[_choice(algorithm, ALGORITHMS, "algorithm")]
    _choice(summation, SUMMATIONS, "summation")
    xs = store(arr, precision)  # (K, n) in the format's dtype
    with np.errstate(all="ignore"):
        mean, var = func(xs, f, summation)
    return Moments(algorithm, precision, summation, xs.astype(np.float64), mean.astype(
        np.float64), var.astype(np.float64))  # fmt: skip


def reference(x: ArrayLike, eps: float) -> np.ndarray:
    """The truth: (x - mu) / sqrt(v + eps) per row in float64, two-pass, divisor n."""
    arr = _rows(x)
    mu = arr.mean(axis=1, keepdims=True)  # (K, 1)
    dev = arr - mu  # (K, n)
    var = (dev * dev).mean(axis=1, keepdims=True)  # (K, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return dev / np.sqrt(var + check_eps(eps))  # (K, n)


def relative_error(out: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """||out - ref|| / ||ref|| per row; 0 when both are 0, inf when only ref is 0."""
    with np.errstate(all="ignore"):
        num = np.sqrt(np.sum((out - ref) ** 2, axis=-1))  # (K,)
        den = np.sqrt(np.sum(ref * ref, axis=-1))  # (K,)
        rel = num / den
    return np.where((den == 0) & (num == 0), 0.0, rel)


@dataclass(frozen=True)
class Normalized:
    """A layer norm computed in one format, with its truth and its errors."""

    moments: Moments
    eps: float
    clamp: bool  # negative variances were raised to 0 before adding eps
    x: np.ndarray  # (K, n) exact input
    variance_used: np.ndarray  # (K,) max(v, 0) if clamp else v
    output: np.ndarray  # (K, n) (x - mu) / sqrt(v + eps), every step in the format
    truth: np.ndarray  # (K, n) float64 two-pass of the exact x
    true_variance: np.ndarray  # (K,)
    rel_error: np.ndarray  # (K,) ||output - truth|| / ||truth||
    var_rel_error: np.ndarray  # (K,) |v - true v| / true v

    @property
    def negative(self) -> np.ndarray:
        """(K,) rows whose computed variance came out below zero."""
        return self.moments.variance < 0


def normalize(
    x: ArrayLike,
    algorithm: str,
    precision: str,
    eps: float,
    *,
    clamp: bool = True,
    summation: str = "sequential",
) -> Normalized:
    """y = (x - mu) / sqrt(v + eps), each step rounded to `precision`; clamp: v -> max(v, 0)."""
    arr = _rows(x)
    e = check_eps(eps)
    return _normalized(arr, moments(arr, algorithm, precision, summation), e, bool(clamp))


def _normalized(arr: np.ndarray, mom: Moments, e: float, clamp: bool) -> Normalized:
    """The output and its errors from already computed moments (shared by callers)."""
    f = get_format(mom.precision)
    var = mom.variance.astype(f.dtype)  # (K,) exact: it came from the format
    used = np.maximum(var, f.dtype(0)) if clamp else var
    with np.errstate(all="ignore"):
        dev = f.round(mom.stored.astype(f.dtype) - mom.mean.astype(f.dtype)[:, None])  # (K, n)
        denom = f.round(np.sqrt(f.round(used + f.round(f.dtype(e)))))  # (K,) sqrt(v + eps)
        out = f.round(dev / denom[:, None]).astype(np.float64)  # (K, n)
    truth = reference(arr, e)  # (K, n)
    true_var = arr.var(axis=1)  # (K,) float64 two-pass
    with np.errstate(all="ignore"):
        var_err = np.abs(mom.variance - true_var) / true_var  # (K,)
    return Normalized(
        mom, e, clamp, arr, used.astype(np.float64), out, truth, true_var,
        relative_error(out, truth), var_err,
    )  # fmt: skip


def input_error(x: ArrayLike, precision: str, eps: float) -> np.ndarray:
    """(K,) error from storing x in the format alone: float64 layer norm of the stored x."""
    arr = _rows(x)
    stored = store(arr, precision).astype(np.float64)  # (K, n)
    finite = np.isfinite(stored).all(axis=1)  # (K,) False where an entry overflowed
    safe = np.where(finite[:, None], stored, 0.0)  # (K, n)
    return np.where(finite, relative_error(reference(safe, eps), reference(arr, eps)), np.inf)


def ulp(value: float, precision: str) -> float:
    """Spacing of the format's numbers at |value| (normal range): 2^(floor(log2|v|) + 1 - p)."""
    f = get_format(precision)
    if value == 0 or not math.isfinite(value):
        return 0.0
    return 2.0 ** (math.floor(math.log2(abs(value))) + 1 - f.significand_bits)
