"""The invariance page's scaling section for a whole grid of scale factors a at once.

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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["ScaleGrid", "scale_grid"]


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
