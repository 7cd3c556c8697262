"""The epsilon page's states for a whole grid of ε at once (the live control's frames).

For one input z ∈ ℝ^d (mean μ, centred v = z − μ𝟏, variance q = ‖v‖²/d) and E values of ε,
every quantity the page draws that moves with ε, computed by broadcasting in one call:

    h_ε(t)  = t / √(2t²/3 + ε)              (E, T)   the family (−t, 0, t)
    h'_ε(t) = ε / (2t²/3 + ε)^(3/2)         (E, T)   its slope, peak ε^(−1/2) at t = 0
    q/ε                                      (E,)     where z sits on the variance curve
    Du_ε(z) = (P − vvᵀ/(d(q+ε))) / √(q+ε)    (E, d, d)
    eigenvalues 0, ε/(q+ε)^(3/2), (q+ε)^(−1/2) and the bound ε^(−1/2)   (E,) each

The formulas are those of lnviz.family and lnviz.jacobian; tests/lessons/test_live_epsilon.py
checks every row against the one-ε functions.

>>> g = epsilon_grid([1.0, 2.0, 3.0], (1 / 3, 4 / 3), n=5)
>>> g.h.shape, g.jacobian.shape, g.radial.round(6).tolist()
((2, 5), (2, 3, 3), [0.333333, 0.471405])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.family import epsilon_family


@dataclass(frozen=True)
class EpsilonGrid:
    eps: np.ndarray  # (E,) the grid, > 0
    t: np.ndarray  # (T,) the family's t, as lnviz.epsilon_family samples it
    h: np.ndarray  # (E, T)
    dh: np.ndarray  # (E, T)
    peak: np.ndarray  # (E,) ε^(−1/2)
    q: float  # the input's variance
    q_over_eps: np.ndarray  # (E,)
    jacobian: np.ndarray  # (E, d, d)
    radial: np.ndarray  # (E,) ε/(q+ε)^(3/2) (meaningful when q > 0)
    tangential: np.ndarray  # (E,) (q+ε)^(−1/2)
    bound: np.ndarray  # (E,) ε^(−1/2)


def epsilon_grid(z: ArrayLike, eps_values: ArrayLike, n: int = 601) -> EpsilonGrid:
    """Every ε-dependent quantity of the epsilon page for each ε of `eps_values` (all > 0)."""
    eps = np.asarray(eps_values, dtype=np.float64)  # (E,)
    if eps.ndim != 1 or eps.size == 0 or not np.all(eps > 0):
        raise ValueError("eps_values must be a non-empty 1-D array of values > 0")
    x = np.asarray(z, dtype=np.float64)  # (d,)
    d = x.shape[0]
    t = epsilon_family(float(eps[0]), n=n).t  # (T,) the same grid for every ε
    spread = 2 * t[None, :] ** 2 / 3 + eps[:, None]  # (E, T)
    h = t[None, :] / np.sqrt(spread)
    dh = eps[:, None] / spread**1.5
    v = x - x.mean()  # (d,)
    q = float(v @ v / d)
    s = q + eps  # (E,)
    centering = np.eye(d) - 1.0 / d  # (d, d)
    outer = np.outer(v, v) / d  # (d, d)
    jac = (centering[None] - outer[None] / s[:, None, None]) / np.sqrt(s)[:, None, None]
    return EpsilonGrid(
        eps=eps,
        t=t,
        h=h,
        dh=dh,
        peak=eps**-0.5,
        q=q,
        q_over_eps=q / eps,
        jacobian=jac,
        radial=eps / s**1.5,
        tangential=s**-0.5,
        bound=eps**-0.5,
    )
