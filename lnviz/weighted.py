"""Weighted centering P_a = I - 1 a^T: an oblique projection onto ker a^T along 1.

For weights a_i >= 0 with a^T 1 = 1, P_a x = x - (a^T x) 1 has zero weighted mean. It is
idempotent with kernel span{1} and range ker a^T, symmetric only for equal weights, and
orthogonal for the inner product <u, v>_D = u^T D v with D = diag(a) when all a_i > 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz._checks import as_float_array, require_finite
from lnviz.errors import LnvizError

__all__ = [
    "WeightedCentering",
    "normalize_weights",
    "weighted_centering",
    "weighted_centering_matrix",
]


def normalize_weights(a: ArrayLike) -> np.ndarray:
    """Weights as a float vector scaled to sum 1; refuses negatives, NaN, all-zero, non-vectors.

    >>> normalize_weights([1, 3]).tolist()
    [0.25, 0.75]
    """
    arr = as_float_array(a, "a").astype(np.float64)
    if arr.ndim != 1:
        raise LnvizError("a", arr, "a 1-D vector of weights")
    require_finite(arr, "a")
    if (arr < 0).any():
        raise LnvizError("a", a, "weights must be >= 0")
    total = float(arr.sum())
    if total <= 0:
        raise LnvizError("a", a, "at least one weight must be > 0")
    return arr / total


def weighted_centering_matrix(a: ArrayLike) -> np.ndarray:
    """P_a = I - 1 a^T for weights a (scaled to sum 1 first).

    >>> weighted_centering_matrix([0.25, 0.75]).tolist()
    [[0.75, -0.75], [-0.25, 0.25]]
    """
    w = normalize_weights(a)
    return np.eye(w.size) - np.outer(np.ones(w.size), w)  # (n, n)


def _angle_deg(u: np.ndarray, v: np.ndarray, metric: np.ndarray) -> float:
    """Angle between u and v in the inner product u^T M v (nan if either has zero length)."""
    uu, vv, uv = u @ metric @ u, v @ metric @ v, u @ metric @ v
    if uu <= 0 or vv <= 0:
        return math.nan
    # sqrt(uu) * sqrt(vv): the product uu * vv can underflow to 0 for short vectors
    return math.degrees(math.acos(max(-1.0, min(1.0, uv / (math.sqrt(uu) * math.sqrt(vv))))))


@dataclass(frozen=True)
class WeightedCentering:
    """P_a x and everything to compare it with."""

    a: np.ndarray  # (n,) weights summing to 1
    x: np.ndarray  # (n,)
    matrix: np.ndarray  # (n, n) P_a
    c: float  # a^T x: weighted mean, the weighted least-squares constant
    centered: np.ndarray  # (n,) P_a x = x - c 1
    weighted_mean: float  # a^T P_a x (0 up to rounding)
    ordinary_mean: float  # mean of P_a x (need not be 0)
    euclidean: np.ndarray  # (n,) orthogonal projection of x onto ker a^T
    angle_d: float  # angle between P_a x and c 1 in <.,.>_D (90 when all a_i > 0)
    angle_euclidean: float  # the same angle in the Euclidean inner product
    symmetric: bool  # P_a == P_a^T (equal weights)
    degenerate: bool  # some a_i == 0: <.,.>_D is only semi-definite
    rank: int  # n - 1

    def objective(self, const: ArrayLike) -> np.ndarray:
        """Weighted squared error sum_i a_i (x_i - c)^2 for candidate constants c."""
        cs = np.asarray(const, dtype=np.float64)
        return ((self.x - cs[..., None]) ** 2) @ self.a


def weighted_centering(a: ArrayLike, x: ArrayLike) -> WeightedCentering:
    """Centre x with weights a and compare with the Euclidean projection onto ker a^T.

    The seed's example, a = (1/4, 3/4), x = (4, 2):

    >>> r = weighted_centering([0.25, 0.75], [4.0, 2.0])
    >>> r.c, r.centered.tolist(), r.ordinary_mean, r.euclidean.round(12).tolist()
    (2.5, [1.5, -0.5], 0.5, [3.0, -1.0])
    """
    w = normalize_weights(a)
    xv = as_float_array(x, "x").astype(np.float64)
    if xv.shape != w.shape:
        raise LnvizError("x", xv, f"a vector of length {w.size}, like the weights")
    require_finite(xv, "x")
    p = np.eye(w.size) - np.outer(np.ones(w.size), w)  # (n, n)
    c = float(w @ xv)
    centered = p @ xv  # (n,)
    euclid = xv - (w @ xv) / (w @ w) * w  # (n,) x minus its component along a
    return WeightedCentering(
        a=w,
        x=xv,
        matrix=p,
        c=c,
        centered=centered,
        weighted_mean=float(w @ centered),
        ordinary_mean=float(centered.mean()),
        euclidean=euclid,
        angle_d=_angle_deg(centered, xv - centered, np.diag(w)),
        angle_euclidean=_angle_deg(centered, xv - centered, np.eye(w.size)),
        symmetric=bool(np.allclose(p, p.T)),
        degenerate=bool((w == 0).any()),
        rank=int(np.linalg.matrix_rank(p)),
    )
