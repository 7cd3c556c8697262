"""Floating-point formats as arithmetic you can run: every operation rounded to the format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError

PRECISIONS = ("float64", "float32", "float16", "bfloat16")
SUMMATIONS = ("sequential", "pairwise")

_KEEP = np.uint32(0xFFFF0000)  # sign, exponent and the 7 stored fraction bits of bfloat16
_HALF = np.uint32(0x7FFF)  # just under half a bfloat16 unit in the last place
_QUIET_NAN = np.uint32(0x7FC00000)


def round_bfloat16(x: ArrayLike) -> np.ndarray:
    """Nearest bfloat16 (ties to even) as float32: b + 0x7FFF + bit 16, low half cut; NaN kept."""
    f = np.asarray(x, dtype=np.float32)  # (...,)
    bits = f.view(np.uint32)  # (...,) same memory, integer view
    lsb = (bits >> np.uint32(16)) & np.uint32(1)  # (...,) last kept bit, for ties to even
    rounded = (bits + (_HALF + lsb)) & _KEEP  # (...,) NaN patterns may wrap; fixed below
    nan = np.isnan(f)  # (...,)
    if nan.any():
        rounded = np.where(nan, (bits & np.uint32(0x80000000)) | _QUIET_NAN, rounded)
    return rounded.view(np.float32)


def _round_bfloat16_arith(f: np.ndarray) -> np.ndarray:
    """round_bfloat16 without the NaN check: NaNs from arithmetic on bfloat16 have zero low bits."""
    bits = f.view(np.uint32)  # (...,)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)  # (...,)
    return ((bits + (_HALF + lsb)) & _KEEP).view(np.float32)


def bfloat16_bits(x: ArrayLike) -> np.ndarray:
    """The 16-bit bfloat16 pattern of float32 values after rounding (upper half of float32)."""
    return (round_bfloat16(x).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


@dataclass(frozen=True)
class Format:
    """A floating-point format: the NumPy type that holds it and its rounding step."""

    name: str
    dtype: type[np.floating]  # arrays of this format have this dtype
    significand_bits: int  # p, counting the implicit leading bit
    max_finite: float  # largest finite value
    rounder: Callable[[np.ndarray], np.ndarray] | None  # extra rounding after each op

    @property
    def unit_roundoff(self) -> float:
        """u = 2^-p: the relative error bound of one correctly rounded operation."""
        return 2.0**-self.significand_bits

    def round(self, a: np.ndarray) -> np.ndarray:
        """The result of one operation, rounded to the format (a no-op for native types)."""
        return a if self.rounder is None else self.rounder(a)


FORMATS = {
    "float64": Format("float64", np.float64, 53, float(np.finfo(np.float64).max), None),
    "float32": Format("float32", np.float32, 24, float(np.finfo(np.float32).max), None),
    "float16": Format("float16", np.float16, 11, 65504.0, None),
    "bfloat16": Format("bfloat16", np.float32, 8, 3.3895313892515355e38, _round_bfloat16_arith),
}


def get_format(precision: str) -> Format:
    """The Format named `precision` (one of PRECISIONS)."""
    if precision not in FORMATS:
        raise LnvizError("precision", precision, "one of " + ", ".join(PRECISIONS))
    return FORMATS[precision]


def store(x: ArrayLike, precision: str) -> np.ndarray:
    """x rounded into the format (bfloat16 via float32, as a float32 cast); overflow: inf."""
    fmt = get_format(precision)
    with np.errstate(over="ignore"):
        held = np.asarray(x, dtype=np.float64).astype(fmt.dtype)  # (...,)
    return round_bfloat16(held) if precision == "bfloat16" else held


def total(a: np.ndarray, fmt: Format, summation: str = "sequential") -> np.ndarray:
    """Sum over the last axis in the format, rounding after each addition (in order or pairwise)."""
    if summation not in SUMMATIONS:
        raise LnvizError("summation", summation, "one of " + ", ".join(SUMMATIONS))
    with np.errstate(over="ignore", invalid="ignore"):
        if summation == "pairwise":
            while a.shape[-1] > 1:
                odd = a[..., -1:] if a.shape[-1] % 2 else a[..., :0]  # (..., 0 or 1)
                pairs = fmt.round(a[..., 0:-1:2] + a[..., 1::2])  # (..., n // 2)
                a = np.concatenate([pairs, odd], axis=-1)  # (..., ceil(n / 2))
            return a[..., 0]  # (...,)
        if fmt.rounder is None:
            return np.add.accumulate(a, axis=-1, dtype=fmt.dtype)[..., -1]  # (...,)
        s = np.zeros(a.shape[:-1], dtype=fmt.dtype)  # (...,)
        for column in np.moveaxis(a, -1, 0):  # n views of shape (...,)
            s = fmt.round(s + column)  # (...,)
        return s
