"""Shift invariance: a common shift z + c 1 leaves u_eps unchanged; unequal shifts and RMS don't."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.core import normalized_core
from lnviz.errors import LnvizError, as_float_array, check_eps, check_finite_number, require_finite
from lnviz.functional import rms_norm


@dataclass(frozen=True)
class Shift:
    """u_eps(z) against u_eps(z + s), and RMS norm of both for contrast."""

    z: np.ndarray  # (d,)
    shift: np.ndarray  # (d,)
    eps: float
    core: np.ndarray  # (d,) u_eps(z)
    core_shifted: np.ndarray  # (d,) u_eps(z + s)
    change: float  # max |u_eps(z + s) - u_eps(z)|
    common: bool  # s = c 1 for some c
    rms: np.ndarray  # (d,) RMS norm of z
    rms_shifted: np.ndarray  # (d,) RMS norm of z + s
    rms_change: float


def _vec(v: ArrayLike, name: str) -> np.ndarray:
    arr = as_float_array(v, name, min_ndim=1).astype(np.float64)
    if arr.ndim != 1:
        raise LnvizError(name, arr, "one 1-D vector")
    require_finite(arr, name)
    return arr


def compare_shift(z: ArrayLike, shift: ArrayLike | float, eps: float) -> Shift:
    """Normalize z and z + shift (a scalar shift means c 1)."""
    zv = _vec(z, "z")
    s = (
        np.broadcast_to(np.asarray(shift, dtype=np.float64), zv.shape).copy()
        if np.ndim(shift) == 0
        else _vec(shift, "shift")
    )
    if s.shape != zv.shape:
        raise LnvizError("shift", shift, f"a number or a vector of length {zv.size}")
    require_finite(s, "shift")
    e = check_eps(eps)
    core, shifted = normalized_core(zv, e), normalized_core(zv + s, e)
    r0, r1 = rms_norm(zv, zv.size, eps=e), rms_norm(zv + s, zv.size, eps=e)
    return Shift(
        zv,
        s,
        e,
        core,
        shifted,
        float(np.abs(shifted - core).max()),
        bool(np.ptp(s) == 0),
        r0,
        r1,
        float(np.abs(r1 - r0).max()),
    )


@dataclass(frozen=True)
class Redundancy:
    """Layer norm of z = W x + b for several inputs x, under three changes."""

    xs: np.ndarray  # (k, n) inputs, one per row
    base: np.ndarray  # (k, d) u_eps(W x + b)
    bias_shift: np.ndarray  # (k, d) u_eps(W x + b + c 1)
    weight_shift: np.ndarray  # (k, d) u_eps((W + 1 r^T) x + b)
    input_shift: np.ndarray  # (k, d) u_eps(W (x + s) + b)
    bias_change: float  # max over inputs: 0 up to rounding
    weight_change: float  # 0 up to rounding
    input_change: float  # generally > 0
    added_by_input_shift: np.ndarray  # (d,) W s, a common shift only if its entries agree


def affine_redundancy(
    w: ArrayLike, b: ArrayLike, xs: ArrayLike, *, c: float, r: ArrayLike, s: ArrayLike, eps: float
) -> Redundancy:
    """Compare u_eps(Wx+b) with u_eps(Wx+b+c1), u_eps((W+1r^T)x+b) and u_eps(W(x+s)+b)."""
    wm = as_float_array(w, "W", min_ndim=2).astype(np.float64)  # (d, n)
    if wm.ndim != 2:
        raise LnvizError("W", wm, "a 2-D matrix (d, n)")
    require_finite(wm, "W")
    d, n = wm.shape
    bv, rv, sv = _vec(b, "b"), _vec(r, "r"), _vec(s, "s")
    if bv.shape != (d,):
        raise LnvizError("b", b, f"a vector of length {d}")
    if rv.shape != (n,) or sv.shape != (n,):
        raise LnvizError("r/s", (r, s), f"vectors of length {n}")
    x = as_float_array(xs, "xs").astype(np.float64)
    if x.shape[-1:] != (n,) or x.ndim > 2:
        raise LnvizError("xs", x, f"one input of length {n}, or a (k, {n}) matrix of them")
    x = x.reshape(-1, n)  # (k, n)
    require_finite(x, "xs")
    e = check_eps(eps)
    c = check_finite_number(c, "c")
    ones = np.ones(d)
    base = normalized_core(x @ wm.T + bv, e)  # (k, d)
    bias_shift = normalized_core(x @ wm.T + bv + float(c) * ones, e)
    weight_shift = normalized_core(x @ (wm + np.outer(ones, rv)).T + bv, e)
    input_shift = normalized_core((x + sv) @ wm.T + bv, e)

    def gap(other: np.ndarray) -> float:
        return float(np.abs(other - base).max())

    return Redundancy(
        x,
        base,
        bias_shift,
        weight_shift,
        input_shift,
        gap(bias_shift),
        gap(weight_shift),
        gap(input_shift),
        wm @ sv,
    )
