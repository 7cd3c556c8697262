"""The row kernel every normalization shares: two-pass row statistics, fast with NumPy alone."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from lnviz.errors import LnvizError, require_finite

_BLOCK_BYTES = 1 << 20  # rows per block: about 1 MiB of input, still in cache between passes
_TILE = 8192  # NumPy's ufunc buffer size: broadcasts over rows this long run unbuffered
_CHUNK = 64  # row sums of longer rows add chunks of this many entries first


class RowStats(NamedTuple):
    """Output and per-row statistics of one kernel call."""

    y: np.ndarray  # (M, N) normalized (and affine-mapped) rows
    mean: np.ndarray  # (M,) row means; zeros when not centred (RMS)
    second: np.ndarray  # (M,) population variance, or mean square when not centred


def normalize_rows(
    x2: np.ndarray,
    eps: float,
    *,
    centered: bool = True,
    weight: np.ndarray | None = None,
    bias: np.ndarray | None = None,
) -> RowStats:
    """y = (x - mu) / sqrt(var + eps) * weight + bias per row (M, N); RMS when not centered."""
    m, n = x2.shape  # M rows, each with N entries that share one statistic
    y = np.empty((m, n), dtype=x2.dtype)  # (M, N), C order
    mean = np.empty(m, dtype=x2.dtype) if centered else np.zeros(m, dtype=x2.dtype)  # (M,)
    second = np.empty(m, dtype=x2.dtype)  # (M,)
    k = max(1, min(m, _TILE // max(1, n)))  # rows per tile of weight and bias
    rows = max(k, _BLOCK_BYTES // max(1, n * x2.itemsize) // k * k)  # per block, k divides it
    w_tile = None if weight is None else _tile(weight, k)  # (k*N,)
    b_tile = None if bias is None else _tile(bias, k)  # (k*N,)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if rows >= m:  # a single block: no loop, no slicing
            _block(x2, y, mean, second, eps, centered, w_tile, b_tile)
        else:
            for lo in range(0, m, rows):
                hi = min(m, lo + rows)
                rs = slice(lo, hi)
                _block(x2[rs], y[rs], mean[rs], second[rs], eps, centered, w_tile, b_tile)
    _check_stats(x2, second)
    return RowStats(y, mean, second)


def _block(
    x: np.ndarray,
    out: np.ndarray,
    mean: np.ndarray,
    second: np.ndarray,
    eps: float,
    centered: bool,
    w_tile: np.ndarray | None,
    b_tile: np.ndarray | None,
) -> None:
    """The kernel on one cache-sized block of rows, writing out, mean and second in place."""
    n = x.shape[1]
    if centered:
        _row_sums(x, mean)  # (R,)
        np.divide(mean, float(n), out=mean)  # (R,) row means
        np.subtract(x, mean[:, None], out=out)  # (R, N) centred rows
        src = out
    else:
        src = x
    np.vecdot(src, src, out=second)  # (R,) sums of squares
    np.divide(second, float(n), out=second)  # (R,) divisor N
    if centered:
        _exact_constant_rows(x, out, mean, second)
    inv = np.add(second, eps)  # (R,) var + eps
    np.sqrt(inv, out=inv)
    np.divide(1.0, inv, out=inv)  # (R,) 1 / sqrt(var + eps)
    np.multiply(src, inv[:, None], out=out)  # (R, N) normalized rows
    for tile, op in ((w_tile, np.multiply), (b_tile, np.add)):
        if tile is None:
            continue
        k = tile.size // n
        full = out.shape[0] // k * k  # rows covered by whole tiles
        body = out[:full].reshape(-1, k * n)  # (R/k, k*N) view, k rows per line
        op(body, tile, out=body)
        if full < out.shape[0]:  # fewer than k rows left (last block)
            op(out[full:], tile[:n], out=out[full:])  # (R - full, N)


def _exact_constant_rows(
    x: np.ndarray, centred: np.ndarray, mean: np.ndarray, second: np.ndarray
) -> None:
    """Constant rows centre to exactly 0 with variance 0, which a rounded mean would not give."""
    tol = np.abs(mean)  # (R,)
    tol *= x.shape[1] * float(np.finfo(x.dtype).eps)
    candidates = np.flatnonzero(second <= tol * tol)  # (c,) row indices
    if candidates.size == 0:
        return
    rows = x[candidates]  # (c, N) copy of the few candidate rows
    const = candidates[(rows == rows[:, :1]).all(axis=1)]  # (k,)
    mean[const] = x[const, 0]
    centred[const] = 0
    second[const] = 0


def _row_sums(x: np.ndarray, out: np.ndarray) -> None:
    """Row sums, one dot per row so they do not depend on the batch, chunked to bound rounding."""
    r, n = x.shape
    if n <= _CHUNK:
        np.vecdot(x, _ones(n, x.dtype), out=out)  # (R,)
    elif n % _CHUNK == 0 and x.flags.c_contiguous:
        parts = np.vecdot(x.reshape(-1, _CHUNK), _ones(_CHUNK, x.dtype))  # (R*N/_CHUNK,)
        _row_sums(parts.reshape(r, -1), out)  # (R, N/_CHUNK) -> (R,)
    else:
        np.add.reduce(x, axis=1, out=out)  # (R,)


def _tile(v: np.ndarray, k: int) -> np.ndarray:
    """k copies of the (N,) vector v laid end to end: shape (k*N,)."""
    if k == 1:
        return v
    t = np.empty((k, v.size), dtype=v.dtype)  # (k, N)
    t[...] = v
    return t.reshape(-1)


@lru_cache(maxsize=16)
def _ones_cached(n: int, dtype: np.dtype) -> np.ndarray:
    v = np.ones(n, dtype=dtype)  # (N,)
    v.flags.writeable = False
    return v


def _ones(n: int, dtype: np.dtype) -> np.ndarray:
    """A read-only (N,) vector of ones: np.vecdot(x, ones) gives the row sums."""
    return _ones_cached(n, dtype) if n <= 1 << 16 else np.ones(n, dtype=dtype)


def _check_stats(x2: np.ndarray, second: np.ndarray) -> None:
    """Cheap finiteness check: non-finite input always shows in the row statistics."""
    if math.isfinite(np.vdot(second, second)) or np.isfinite(second).all():
        return
    require_finite(x2, "x")
    raise LnvizError(
        "x",
        x2,
        f"its values overflow {x2.dtype} while computing statistics; rescale the input",
    )
