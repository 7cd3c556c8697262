"""Argument checks of the "Inside a transformer" lessons: each failure raises LnvizError."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from lnviz.errors import LnvizError

SEED_MAX = 2**32 - 1


def whole(value: object, name: str, lo: int, hi: int) -> int:
    """value as an int from lo to hi (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise LnvizError(name, value, f"a whole number from {lo} to {hi}")
    return int(value)


def seed(value: object) -> int:
    """A seed for np.random.default_rng: a whole number from 0 to 2**32 - 1."""
    return whole(value, "seed", 0, SEED_MAX)


def number(value: object, name: str, lo: float, hi: float, *, open_low: bool = False) -> float:
    """value as a finite float in [lo, hi] (or (lo, hi] with open_low); text refused."""
    try:
        if isinstance(value, (str, bytes, bool)):
            raise TypeError(name)
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        out = math.nan
    low_ok = out > lo if open_low else out >= lo
    if not (math.isfinite(out) and low_ok and out <= hi):
        accepted = (
            f"a number > {lo:g} and <= {hi:g}" if open_low else f"a number from {lo:g} to {hi:g}"
        )
        raise LnvizError(name, value, accepted)
    return out


def choice(value: object, name: str, options: Sequence[str]) -> str:
    """value as one of the strings in options."""
    if not isinstance(value, str) or value not in options:
        raise LnvizError(name, value, "one of " + ", ".join(repr(o) for o in options))
    return value


def matrix(value: object, name: str, *, cols: tuple[int, int], rows: tuple[int, int]) -> np.ndarray:
    """value as a finite float64 array of shape (n, d), n and d within the given bounds."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise LnvizError(name, value, "a real array of shape (n, d)") from None
    ok = arr.ndim == 2 and rows[0] <= arr.shape[0] <= rows[1] and cols[0] <= arr.shape[1] <= cols[1]
    if not ok:
        raise LnvizError(
            name,
            value,
            f"an array of shape (n, d) with n from {rows[0]} to {rows[1]} "
            f"and d from {cols[0]} to {cols[1]}",
        )
    if not np.isfinite(arr).all():
        raise LnvizError(name, arr, "every entry must be finite (no NaN or inf)")
    return arr


def vector(value: object, name: str, d: int, default: float) -> np.ndarray:
    """A per-coordinate parameter (gain or bias) of shape (d,), or `default` everywhere."""
    if value is None:
        return np.full(d, default)
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise LnvizError(name, value, f"a real array of shape ({d},)") from None
    if arr.shape != (d,) or not np.isfinite(arr).all():
        raise LnvizError(name, value, f"a finite real array of shape ({d},)")
    return arr
