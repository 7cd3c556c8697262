"""The one-parameter family z(t) = (-t, 0, t): the third core coordinate h_eps(t)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, check_eps

ASYMPTOTE = math.sqrt(1.5)  # lim h_eps(t) as t -> +inf, for every eps


def _t(t: ArrayLike) -> np.ndarray:
    arr = np.asarray(t, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise LnvizError("t", t, "finite values")
    return arr


def h(t: ArrayLike, eps: float) -> np.ndarray:
    """h_eps(t) = t / sqrt(2 t^2 / 3 + eps), since (-t, 0, t) has q = 2 t^2 / 3."""
    arr, e = _t(t), check_eps(eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        return arr / np.sqrt(2.0 * arr**2 / 3.0 + e)


def dh(t: ArrayLike, eps: float) -> np.ndarray:
    """h'_eps(t) = eps / (2 t^2 / 3 + eps)^(3/2); its peak eps^(-1/2) is at t = 0."""
    arr, e = _t(t), check_eps(eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        return e / (2.0 * arr**2 / 3.0 + e) ** 1.5


@dataclass(frozen=True)
class Family:
    """h_eps and h'_eps sampled on a grid of t."""

    eps: float
    t: np.ndarray  # (n,)
    h: np.ndarray  # (n,)
    dh: np.ndarray  # (n,)
    asymptote: float  # sqrt(3/2)
    peak_slope: float  # h'_eps(0) = eps^(-1/2)


def epsilon_family(eps: float, t_max: float = 5.0, n: int = 601) -> Family:
    """Sample h_eps, h'_eps on t = t_max s^3 (s even in [-1, 1]): dense near 0, width ~sqrt(eps)."""
    e = check_eps(eps)
    if not (math.isfinite(t_max) and t_max > 0):
        raise LnvizError("t_max", t_max, "a finite number > 0")
    if not 3 <= int(n) <= 100_001:
        raise LnvizError("n", n, "an int from 3 to 100001")
    t = t_max * np.linspace(-1.0, 1.0, int(n)) ** 3  # (n,) cubic spacing
    peak = float("inf") if e == 0 else 1.0 / math.sqrt(e)
    return Family(e, t, h(t, e), dh(t, e), ASYMPTOTE, peak)
