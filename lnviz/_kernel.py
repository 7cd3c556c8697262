"""The row kernel every normalization shares: statistics over the last axis of a 2-D array.

Rows are processed in blocks of about 256 KiB, so the passes of the two-pass algorithm
(mean, then centred sum of squares, then scaling) run on data that is still in cache. The
variance is never formed as E[x^2] - E[x]^2, which loses every digit far from zero.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lnviz._checks import require_finite
from lnviz.errors import LnvizError

_BLOCK_BYTES = 1 << 18  # rows per block chosen so one block fits in L2 cache


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
    """y = (x - mu) / sqrt(var + eps) * weight + bias for each row of x2 (M, N).

    var = mean((x - mu)^2) uses the divisor N (population variance). With centered=False
    this is RMS normalization: y = x / sqrt(mean(x^2) + eps) * weight. x2 is not modified.

    >>> import numpy as np
    >>> normalize_rows(np.array([[1.0, 2.0, 3.0]]), 1 / 3).y.round(12).tolist()
    [[-1.0, 0.0, 1.0]]
    """
    m, n = x2.shape  # M rows, each with N entries that share one statistic
    y = np.empty_like(x2)  # (M, N)
    mean = np.zeros(m, dtype=x2.dtype)  # (M,)
    second = np.empty(m, dtype=x2.dtype)  # (M,)
    rows = max(1, _BLOCK_BYTES // max(1, n * x2.itemsize))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for lo in range(0, m, rows):
            hi = min(m, lo + rows)
            blk = x2[lo:hi]  # (b, N)
            out = y[lo:hi]  # (b, N) view into y
            if centered:
                mu = blk.mean(axis=1)  # (b,)
                mean[lo:hi] = mu
                np.subtract(blk, mu[:, None], out=out)  # (b, N) centred rows
                src = out
            else:
                src = blk
            q = np.einsum("ij,ij->i", src, src)  # (b,) sum of squares
            q /= n  # divisor N
            second[lo:hi] = q
            rstd = np.sqrt(q + eps)  # (b,)
            np.divide(1, rstd, out=rstd)
            np.multiply(src, rstd[:, None], out=out)
            if weight is not None:
                out *= weight  # (N,) broadcast over rows
            if bias is not None:
                out += bias
    _check_stats(x2, mean, second)
    return RowStats(y, mean, second)


def _check_stats(x2: np.ndarray, mean: np.ndarray, second: np.ndarray) -> None:
    """Cheap finiteness check: non-finite input always shows in some row statistic."""
    if np.isfinite(mean).all() and np.isfinite(second).all():
        return
    require_finite(x2, "x")
    raise LnvizError(
        "x",
        x2,
        f"its values overflow {x2.dtype} while computing statistics; rescale the input",
    )
