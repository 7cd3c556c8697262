"""The gain-and-bias page's three stages for a whole grid of values of one coordinate.

One coordinate of z, γ or β takes V values; everything else stays. For each value the page
draws z → u_ε(z) → y = γ ⊙ u_ε(z) + β with each stage's mean and population variance:

    Z  (V, d)   z with coordinate i replaced (or z repeated when γ or β moves)
    U  (V, d)   u_ε(Z) row by row, by lnviz.analyze_core (which works over the last axis)
    Y  (V, d)   G ⊙ U + B
    mean, var  (V, 3) for input, core and output, as lnviz.affine_stages computes them

computed by broadcasting in one call. A constant z at ε = 0 has no core (0/0): its rows of
U and Y, and their moments, are NaN and `defined` is False there.
tests/lessons/test_live_gain.py checks each row against lnviz.affine_stages.

>>> g = gain_grid([1.0, 2.0, 3.0], [1.0, 2.0, 1.0], [0.0, 1.0, 0.0], 0.0, "gamma", 1, [0.0, 2.0])
>>> g.output.shape, g.mean[:, 2].round(6).tolist(), g.defined.tolist()
((2, 3), [0.333333, 0.333333], [True, True])
>>> drag_values(2.0, -100, 100)[[0, -1]].tolist(), drag_values(1 / 3, -100, 100).size
([-5.0, 5.0], 102)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.core import analyze_core

FIELDS = ("z", "gamma", "beta")  # the vectors a coordinate can be dragged of
STAGE_NAMES = ("input z", "core u", "output y")  # as lnviz.affine_stages names its stages


@dataclass(frozen=True)
class GainGrid:
    field: str  # "z", "gamma" or "beta"
    index: int  # the coordinate that moves (0-based)
    values: np.ndarray  # (V,) its values
    input: np.ndarray  # (V, d)
    core: np.ndarray  # (V, d) NaN where undefined
    output: np.ndarray  # (V, d) NaN where undefined
    mean: np.ndarray  # (V, 3) input, core, output
    var: np.ndarray  # (V, 3) population variances (divisor d)
    defined: np.ndarray  # (V,) bool: False for a constant z at ε = 0

    @property
    def stages(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.input, self.core, self.output


def drag_values(
    value: float, lo: float, hi: float, half: float = 5.0, step: float = 0.1
) -> np.ndarray:
    """The grid a coordinate is dragged over: −half…half by `step` (around the nearest whole
    number when |value| > half, moved inside [lo, hi] near a bound), and `value` itself."""
    v = float(value)
    if not (np.isfinite(v) and lo <= v <= hi and lo < hi and 0 < step <= half):
        raise ValueError("need lo <= value <= hi (finite), lo < hi and 0 < step <= half")
    centre = 0.0 if abs(v) <= half else float(round(v))
    if hi - lo >= 2 * half:  # the whole window inside the bounds
        centre = min(max(centre, lo + half), hi - half)
    n = round(half / step)
    grid = np.round(centre + step * np.arange(-n, n + 1), 10)  # (2n+1,)
    grid = grid[(grid >= lo) & (grid <= hi)]
    if not np.any(np.abs(grid - v) <= 1e-9 * max(1.0, abs(v))):
        grid = np.sort(np.append(grid, v))
    return grid


def gain_grid(
    z: ArrayLike,
    gamma: ArrayLike,
    beta: ArrayLike,
    eps: float,
    field: str,
    index: int,
    values: ArrayLike,
) -> GainGrid:
    """The three stages with coordinate `index` of `field` ("z", "gamma" or "beta") set to
    each of `values`, the other inputs as given."""
    given = (z, gamma, beta)
    vectors = {name: np.asarray(v, dtype=np.float64) for name, v in zip(FIELDS, given, strict=True)}
    d = vectors["z"].shape[0] if vectors["z"].ndim == 1 else 0
    if d < 1 or any(v.shape != (d,) for v in vectors.values()):
        raise ValueError("z, gamma and beta must be 1-D vectors of the same length")
    if not all(np.all(np.isfinite(v)) for v in vectors.values()):
        raise ValueError("z, gamma and beta must be finite")
    if not (np.isfinite(eps) and eps >= 0):
        raise ValueError("eps must be a finite number >= 0")
    if field not in FIELDS:
        raise ValueError(f"field must be one of {', '.join(FIELDS)}")
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < d:
        raise ValueError(f"index must be a coordinate 0…{d - 1}")
    vals = np.asarray(values, dtype=np.float64)  # (V,)
    if vals.ndim != 1 or vals.size == 0 or not np.all(np.isfinite(vals)):
        raise ValueError("values must be a non-empty 1-D array of finite numbers")
    rows = {name: np.repeat(v[None, :], vals.size, axis=0) for name, v in vectors.items()}
    rows[field][:, index] = vals  # (V, d): the moving coordinate
    core = analyze_core(rows["z"], eps)
    defined = np.all(np.isfinite(core.core), axis=1)  # (V,)
    u = np.where(defined[:, None], core.core, np.nan)  # (V, d)
    y = rows["gamma"] * u + rows["beta"]  # (V, d)
    stages = (core.z, u, y)
    means = [s.mean(axis=1) for s in stages]  # as lnviz.core._stage, row by row
    variances = [((s - m[:, None]) ** 2).mean(axis=1) for s, m in zip(stages, means, strict=True)]
    return GainGrid(
        field=field,
        index=int(index),
        values=vals,
        input=core.z,
        core=u,
        output=y,
        mean=np.stack(means, axis=1),
        var=np.stack(variances, axis=1),
        defined=defined,
    )
