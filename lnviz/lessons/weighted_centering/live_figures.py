"""The weighted-centering page's charts at every state of its two live controls.

Frame k is what the lesson's figures module draws for the parts that move (trace order of
plane_figure: 0 ordinary-mean-0 line, 1 ker aᵀ, 2 x + t𝟏, 3 Euclidean path, 4 x, 5 Pₐx,
6 Euclidean projection, 7 origin; annotations 0-2 label x, Pₐx and the Euclidean point):

- ``weight_frames``: over w's grid, the plane (lines, the two projections, their labels and
  the view's range) and the constant fit's f(c) with its two marked points;
- ``point_frames``: over a lattice of points x, the plane in a fixed view (x, both
  projections, the segments to them and the labels).

tests/lessons/test_live_weighted.py checks the frames against the page's builders.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lnviz.content.text import short
from lnviz.figures.live import Frames
from lnviz.lessons.weighted_centering.live import PointLattice, WeightGrid


def _decimals(half: float) -> int:
    """Enough decimals for a view of half-width `half` (about 5 significant digits)."""
    return max(0, 4 - math.floor(math.log10(max(half, 1e-9))))


def _xy(frames: Frames, trace: int, ends: np.ndarray, digits: int) -> Frames:
    """Trace `trace`'s x and y from rows of points, (K, m, 2)."""
    pts = np.round(ends, digits) + 0.0
    return frames.trace(trace, "x", pts[:, :, 0]).trace(trace, "y", pts[:, :, 1])


def _label(frames: Frames, index: int, points: np.ndarray, digits: int) -> Frames:
    """Annotation `index` sits on the points, (K, 2)."""
    pts = np.round(points, digits) + 0.0
    frames.layout(f"annotations[{index}].x", pts[:, 0])
    return frames.layout(f"annotations[{index}].y", pts[:, 1])


def weight_frames(
    grid: WeightGrid, plane: str = "plane", objective: str = "objective"
) -> list[dict[str, Any]]:
    """Frames of the plane chart (key `plane`) and the fit chart (key `objective`)."""
    n = grid.w.size
    d = _decimals(float(grid.half.max()))
    x = np.broadcast_to(grid.x, grid.centered.shape)
    ranges = [[-float(h), float(h)] for h in grid.half]
    f = Frames(plane, n)
    _xy(f, 0, grid.mean_zero_line, d)
    _xy(f, 1, grid.kernel_line, d)
    _xy(f, 2, grid.ones_line, d)
    _xy(f, 3, np.stack([x, grid.euclidean], axis=1), d)
    _xy(f, 5, grid.centered[:, None, :], d)
    _xy(f, 6, grid.euclidean[:, None, :], d)
    _label(f, 1, grid.centered, d)
    _label(f, 2, grid.euclidean, d)
    f.layout("xaxis.range", ranges).layout("yaxis.range", ranges)

    fit = Frames(objective, n)
    fit.trace(0, "y", list(grid.fit_values))
    fit.trace(1, "y", [[float(v)] for v in grid.at_ordinary_mean])
    fit.trace(2, "x", [[float(v)] for v in grid.c])
    fit.trace(2, "y", [[float(v)] for v in grid.minimum])
    fit.trace(2, "text", [[f"minimum at c = {short(float(v))}"] for v in grid.c])
    return [f.payload(), fit.payload()]


def point_frames(lattice: PointLattice, plane: str = "plane") -> dict[str, Any]:
    """Frames of the plane chart (key `plane`) for every point of the lattice."""
    n = len(lattice.points)
    d = _decimals(lattice.half)
    x = lattice.points
    f = Frames(plane, n)
    _xy(f, 2, lattice.ones_line, d)
    _xy(f, 3, np.stack([x, lattice.euclidean], axis=1), d)
    for trace, points in ((4, x), (5, lattice.centered), (6, lattice.euclidean)):
        _xy(f, trace, points[:, None, :], d)
    for index, points in enumerate((x, lattice.centered, lattice.euclidean)):
        _label(f, index, points, d)
    return f.payload()
