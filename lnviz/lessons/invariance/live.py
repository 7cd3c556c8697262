"""The invariance page's common-shift and scaling sections for a whole grid of c or a at once.

For z ∈ ℝ^d and C values of c (section 1, one lnviz.analyze_core and one lnviz.rms_norm
call over the (C, d) stack of z + c𝟏):

    u_ε(z + c𝟏)                       (C, d)   equal to u_ε(z) up to rounding
    rms_ε(z + c𝟏)                     (C, d)   not equal: RMS norm does not centre
    max_i |u_ε(z + c𝟏) − u_ε(z)|     (C,)


For z ∈ ℝ^d (centred v = z − μ𝟏, variance q) and ε ≥ 0, with A values of a > 0:

    u_ε(z)        = v / √(q + ε)               (d,)
    u_ε(az)       = a v / √(a²q + ε)           (A, d)
    u_(ε/a²)(z)   = v / √(q + ε/a²)            (A, d)   the same numbers: scaling moves ε
    change        = max_i |u_ε(az) − u_ε(z)|   (A,)

computed by broadcasting in one call; tests/lessons/test_live_invariance.py checks each row
against lnviz.scaling_identity.

>>> g = scale_grid([1.0, 2.0, 3.0], 1 / 3, (1.0, 10.0))
>>> g.core_az.shape, g.change.round(6).tolist()
((2, 3), [0.0, 0.221694])
>>> h = shift_grid([1.0, 2.0, 3.0], 1 / 3, (-10.0, 0.0, 100.0))
>>> h.ln_moved.shape, h.ln_change.tolist(), bool(h.rms_change[2] > 0.5)
((3, 3), [0.0, 0.0, 0.0], True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.core import analyze_core
from lnviz.errors import as_float_array, check_eps, require_finite
from lnviz.functional import rms_norm


@dataclass(frozen=True)
class ShiftGrid:
    c: np.ndarray  # (C,) the common shifts
    z: np.ndarray  # (d,)
    moved: np.ndarray  # (C, d) z + c𝟏
    ln: np.ndarray  # (d,) u_ε(z)
    ln_moved: np.ndarray  # (C, d) u_ε(z + c𝟏)
    rms: np.ndarray  # (d,) rms_ε(z)
    rms_moved: np.ndarray  # (C, d) rms_ε(z + c𝟏)
    ln_change: np.ndarray  # (C,) max_i |u_ε(z + c𝟏) − u_ε(z)|; NaN where undefined
    rms_change: np.ndarray  # (C,) max_i |rms_ε(z + c𝟏) − rms_ε(z)|; NaN where undefined


def _max_gap(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """max_i |after − before| per row, NaN for a row with a non-finite entry."""
    gap = np.abs(after - before[None, :])  # (C, d)
    return np.where(np.isfinite(gap).all(axis=1), gap.max(axis=1), np.nan)


def shift_grid(z: ArrayLike, eps: float, c_values: ArrayLike) -> ShiftGrid:
    """u_ε and rms_ε of z and of z + c𝟏 for each c of `c_values`, with the largest changes,
    as lnviz.lessons.symmetry.common_shift gives them one c at a time.

    A constant z at ε = 0 has no core (0/0): its rows are NaN and the page shows no chart.
    """
    c = np.asarray(c_values, dtype=np.float64)  # (C,)
    if c.ndim != 1 or c.size == 0 or not np.isfinite(c).all():
        raise ValueError("c_values must be a non-empty 1-D array of finite numbers")
    x = as_float_array(z, "z", min_ndim=1).astype(np.float64)  # (d,)
    if x.ndim != 1:
        raise ValueError("z must be one 1-D vector")
    require_finite(x, "z")
    e = check_eps(eps)
    moved = x[None, :] + c[:, None]  # (C, d)
    ln, ln_moved = analyze_core(x, e).core, analyze_core(moved, e).core
    rms, rms_moved = rms_norm(x, x.size, eps=e), rms_norm(moved, x.size, eps=e)
    return ShiftGrid(
        c, x, moved, ln, ln_moved, rms, rms_moved, _max_gap(ln, ln_moved), _max_gap(rms, rms_moved)
    )


@dataclass(frozen=True)
class ScaleGrid:
    a: np.ndarray  # (A,) the scale factors, > 0
    core_z: np.ndarray  # (d,)
    core_az: np.ndarray  # (A, d)
    rescaled: np.ndarray  # (A, d)
    change: np.ndarray  # (A,)


def scale_grid(z: ArrayLike, eps: float, a_values: ArrayLike) -> ScaleGrid:
    """u_ε(z), u_ε(az), u_(ε/a²)(z) and the largest change for each a of `a_values`.

    A constant z at ε = 0 has no core (0/0): the page shows no chart then, and its rows
    here are NaN.
    """
    a = np.asarray(a_values, dtype=np.float64)  # (A,)
    if a.ndim != 1 or a.size == 0 or not np.all(a > 0):
        raise ValueError("a_values must be a non-empty 1-D array of values > 0")
    x = np.asarray(z, dtype=np.float64)  # (d,)
    v = x - x.mean()  # (d,)
    q = float(v @ v / x.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        core_z = v / np.sqrt(q + eps)
        core_az = a[:, None] * v[None, :] / np.sqrt(a[:, None] ** 2 * q + eps)
        rescaled = v[None, :] / np.sqrt(q + eps / a[:, None] ** 2)
    change = np.abs(core_az - core_z[None, :]).max(axis=1)
    return ScaleGrid(a=a, core_z=core_z, core_az=core_az, rescaled=rescaled, change=change)
