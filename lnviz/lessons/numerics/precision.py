"""Floating-point formats as arithmetic you can run: float64, float32, float16, bfloat16.

Why: layer-norm outputs differ between precisions because every operation rounds; to show
where the digits go, each operation here is rounded to the chosen format, one at a time.

- float64, float32 and float16 use NumPy's own types. Their +, -, *, / and sqrt are
  correctly rounded (NumPy computes float16 through float32 and rounds once more, which
  gives the same result because 24 >= 2 * 11 + 2 bits: double rounding is harmless).
- bfloat16 (8 significand bits, float32's exponent range) is emulated: values are float32
  arrays whose low 16 bits are zero; every operation runs in float32 and its result is
  rounded to bfloat16 with `round_bfloat16`. Again 24 >= 2 * 8 + 2, so each emulated
  operation equals the correctly rounded bfloat16 operation.

Sums add in the format after every step, either left to right ("sequential", a plain
loop) or as a balanced tree ("pairwise", what NumPy and most GPU reductions do in spirit).
"""

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
    """Round float32 values to the nearest bfloat16, ties to even; returned as float32.

    On the float32 bit pattern b: add 0x7FFF plus bit 16 of b (the last kept bit), then
    clear the low 16 bits. Infinities stay infinite, overflow rounds to infinity, and
    every NaN becomes a quiet NaN with its sign kept (the addition alone could turn a NaN
    whose payload sits in the low bits into infinity, or wrap a negative NaN to +0).

    >>> round_bfloat16([1.0, 1 + 2**-8, 1 + 3 * 2**-8, 3.0]).tolist()
    [1.0, 1.0, 1.015625, 3.0]
    """
    f = np.asarray(x, dtype=np.float32)  # (...,)
    bits = f.view(np.uint32)  # (...,) same memory, integer view
    lsb = (bits >> np.uint32(16)) & np.uint32(1)  # (...,) last kept bit, for ties to even
    rounded = (bits + (_HALF + lsb)) & _KEEP  # (...,) NaN patterns may wrap; fixed below
    nan = np.isnan(f)  # (...,)
    if nan.any():
        rounded = np.where(nan, (bits & np.uint32(0x80000000)) | _QUIET_NAN, rounded)
    return rounded.view(np.float32)


def _round_bfloat16_arith(f: np.ndarray) -> np.ndarray:
    """round_bfloat16 for float32 results of arithmetic on bfloat16 values (no NaN check).

    Such NaNs are quiet NaNs whose low 16 bits are zero (made by the hardware, or carried
    from an operand that was already rounded), and the bit trick keeps them NaN; only a
    foreign NaN payload needs the check in round_bfloat16. Half the cost in the loops.
    """
    bits = f.view(np.uint32)  # (...,)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)  # (...,)
    return ((bits + (_HALF + lsb)) & _KEEP).view(np.float32)


def bfloat16_bits(x: ArrayLike) -> np.ndarray:
    """The 16-bit bfloat16 pattern of float32 values after rounding (upper half of float32).

    >>> [hex(b) for b in bfloat16_bits([1.0, -2.0, float("inf")]).tolist()]
    ['0x3f80', '0xc000', '0x7f80']
    """
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
    """The Format named `precision` (one of PRECISIONS).

    >>> get_format("bfloat16").unit_roundoff
    0.00390625
    """
    if precision not in FORMATS:
        raise LnvizError("precision", precision, "one of " + ", ".join(PRECISIONS))
    return FORMATS[precision]


def store(x: ArrayLike, precision: str) -> np.ndarray:
    """x rounded into the format: what an array of that precision actually holds.

    bfloat16 goes through float32 first (float64 -> float32 -> bfloat16), the route of a
    cast from float32 data. Values beyond the format's range become infinite.

    >>> store([2000.4, 1e4 + 1e-3], "float16").tolist()
    [2000.0, 10000.0]
    """
    fmt = get_format(precision)
    with np.errstate(over="ignore"):
        held = np.asarray(x, dtype=np.float64).astype(fmt.dtype)  # (...,)
    return round_bfloat16(held) if precision == "bfloat16" else held


def total(a: np.ndarray, fmt: Format, summation: str = "sequential") -> np.ndarray:
    """Sum over the last axis in the format, rounding after every addition.

    sequential: s_k = round(s_(k-1) + a_k), left to right (np.add.accumulate does exactly
    this for native types). pairwise: add neighbours level by level, a balanced tree; an
    odd element out moves up to the next level unchanged.

    >>> a = np.array([[1.0, 2.0**-24, 2.0**-24, 2.0**-24, 2.0**-24]], dtype=np.float32)
    >>> f32 = get_format("float32")
    >>> total(a, f32).tolist(), total(a, f32, "pairwise").tolist()  # exact: 1 + 2^-22
    ([1.0], [1.000000238418579])
    """
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
