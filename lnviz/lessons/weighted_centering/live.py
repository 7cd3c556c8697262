"""The weighted-centering page's plane picture for whole grids of states at once.

Two live controls move that picture (issue 18):

- the weight w of a = (w, 1 − w), x fixed: ``weight_grid`` gives, for W values of w,
  a = (w, 1 − w), c = aᵀx, Pₐx = x − c𝟏, the Euclidean projection x − (aᵀx / aᵀa) a, the
  view's half-width (as lnviz.weighted.projection_view), the lines in that view and
  f(c) = Σ aᵢ(xᵢ − c)² on the fit's grid of constants (as lnviz.weighted.constant_fit);
- the point x, w fixed: ``point_lattice`` gives the same points for every x of a square
  lattice over the view [−half, half]², with the view kept (the picture does not zoom
  while the point is dragged; the page fits the view again on release).

Everything is computed by broadcasting in one call; tests/lessons/test_live_weighted.py
checks each row against the page's one-value computation (lnviz.weighted).

>>> g = weight_grid([4.0, 2.0], [0.25, 0.5])
>>> g.c.tolist(), g.centered.tolist(), g.half.tolist()
([2.5, 3.0], [[1.5, -0.5], [1.0, -1.0]], [5.0, 5.0])
>>> p = point_lattice(0.25, 5.0)
>>> p.step, p.size, p.points[p.index_of([4.0, 2.0])].tolist()
(0.25, (41, 41), [4.0, 2.0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

X_LIMIT = 100.0  # the page's x box accepts coordinates in [−100, 100]
CELLS = 20  # lattice steps from the origin to the edge of the view, at least


def _weights(w_values: ArrayLike) -> np.ndarray:
    w = np.asarray(w_values, dtype=np.float64)  # (W,)
    if w.ndim != 1 or w.size == 0 or not np.all((w >= 0) & (w <= 1)):
        raise ValueError("w_values must be a non-empty 1-D array of numbers from 0 to 1")
    return np.stack([w, 1.0 - w], axis=1)  # (W, 2)


def _point(x: ArrayLike) -> np.ndarray:
    p = np.asarray(x, dtype=np.float64)
    if p.shape[-1:] != (2,) or not np.all(np.isfinite(p)):
        raise ValueError("x must be finite points of the plane, shape (..., 2)")
    return p


def _through_origin(direction: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Ends of the line {t d} inside [−half, half]², (..., 2, 2); d ≠ 0 (segment_in_box)."""
    t = half / np.abs(direction).max(axis=-1)  # (...,)
    end = t[..., None] * direction  # (..., 2)
    return np.stack([-end, end], axis=-2)


def _along_ones(x: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Ends of the line {x + t𝟏} inside [−half, half]², x inside, (..., 2, 2)."""
    lo = (-half[..., None] - x).max(axis=-1)  # (...,)
    hi = (half[..., None] - x).min(axis=-1)
    return np.stack([x + lo[..., None], x + hi[..., None]], axis=-2)


def _project(a: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """c = aᵀx, Pₐx and the Euclidean projection onto ker aᵀ, broadcast over rows."""
    c = (a * x).sum(axis=-1)  # (...,)
    centered = x - c[..., None]
    euclid = x - (c / (a * a).sum(axis=-1))[..., None] * a
    return c, centered, euclid


@dataclass(frozen=True)
class WeightGrid:
    w: np.ndarray  # (W,)
    a: np.ndarray  # (W, 2) = (w, 1 − w)
    x: np.ndarray  # (2,)
    c: np.ndarray  # (W,) aᵀx
    centered: np.ndarray  # (W, 2) Pₐx
    euclidean: np.ndarray  # (W, 2)
    half: np.ndarray  # (W,) the view's half-width
    ones_line: np.ndarray  # (W, 2, 2) ends of x + t𝟏 in the view
    kernel_line: np.ndarray  # (W, 2, 2) ends of ker aᵀ
    mean_zero_line: np.ndarray  # (W, 2, 2) ends of ker 𝟏ᵀ
    fit_grid: np.ndarray  # (m,) the constants c of the fit's curve (depends on x only)
    fit_values: np.ndarray  # (W, m) f(c) = Σ aᵢ(xᵢ − c)²
    minimum: np.ndarray  # (W,) f(aᵀx)
    ordinary_mean: float  # mean of x
    at_ordinary_mean: np.ndarray  # (W,) f(mean of x)


def weight_grid(x: ArrayLike, w_values: ArrayLike, num: int = 201) -> WeightGrid:
    """The plane picture and the constant fit for each w of `w_values`, x fixed."""
    a = _weights(w_values)
    xv = _point(x)
    if xv.ndim != 1:
        raise ValueError("x must be one point of the plane")
    c, centered, euclid = _project(a, xv[None, :])
    points = np.stack([np.broadcast_to(xv, centered.shape), centered, euclid], axis=1)
    half = np.maximum(1.0, 1.25 * np.abs(points).max(axis=(1, 2)))  # (W,)
    pad = max(1.0, float(np.ptp(xv)) / 2)
    grid = np.linspace(xv.min() - pad, xv.max() + pad, num)  # (m,)
    mean = float(xv.mean())
    return WeightGrid(
        w=a[:, 0],
        a=a,
        x=xv,
        c=c,
        centered=centered,
        euclidean=euclid,
        half=half,
        ones_line=_along_ones(np.broadcast_to(xv, centered.shape), half),
        kernel_line=_through_origin(np.stack([a[:, 1], -a[:, 0]], axis=1), half),
        mean_zero_line=_through_origin(np.array([1.0, -1.0]), half),
        fit_grid=grid,
        fit_values=((xv[None, None, :] - grid[None, :, None]) ** 2 * a[:, None, :]).sum(axis=2),
        minimum=(a * centered**2).sum(axis=1),
        ordinary_mean=mean,
        at_ordinary_mean=(a * (xv - mean) ** 2).sum(axis=1),
    )


def lattice_step(half: float, cells: int = CELLS) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10ᵏ that is at least half / cells.

    >>> lattice_step(5.0), lattice_step(12.5), lattice_step(1.0)
    (0.25, 1.0, 0.05)
    """
    if not (math.isfinite(half) and half > 0):
        raise ValueError("half must be a number > 0")
    target = half / cells
    power = 10.0 ** math.floor(math.log10(target))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * power >= target * (1 - 1e-12):
            return m * power
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class PointLattice:
    a: np.ndarray  # (2,) = (w, 1 − w)
    half: float  # the view [−half, half]² that stays during the drag
    step: float  # lattice spacing, the same on both axes
    xs: np.ndarray  # (nx,) lattice coordinates on the first axis
    ys: np.ndarray  # (ny,) on the second
    points: np.ndarray  # (N, 2) state k = (xs[k % nx], ys[k // nx]): rows of x₁ first
    c: np.ndarray  # (N,)
    centered: np.ndarray  # (N, 2) Pₐx
    euclidean: np.ndarray  # (N, 2)
    ones_line: np.ndarray  # (N, 2, 2) ends of x + t𝟏 in the view

    @property
    def size(self) -> tuple[int, int]:
        return self.xs.size, self.ys.size

    def index_of(self, x: ArrayLike) -> int:
        """The state nearest to the point x."""
        p = _point(x)
        i = int(np.abs(self.xs - p[0]).argmin())
        j = int(np.abs(self.ys - p[1]).argmin())
        return j * self.xs.size + i


def _axis(half: float, step: float) -> np.ndarray:
    edge = min(half, X_LIMIT)
    k = np.arange(math.ceil(-edge / step - 1e-9), math.floor(edge / step + 1e-9) + 1)
    return np.round(k * step, 10) + 0.0  # (n,) exact decimals such as 4.25, no −0


def point_lattice(w: float, half: float, cells: int = CELLS) -> PointLattice:
    """Every x of the lattice of step lattice_step(half) in [−half, half]² (and in the x
    box's range), with Pₐx, the Euclidean projection and the line x + t𝟏 in that view."""
    a = _weights([w])[0]  # (2,)
    step = lattice_step(half, cells)
    xs = ys = _axis(half, step)
    gx, gy = np.meshgrid(xs, ys)  # (ny, nx)
    points = np.stack([gx.ravel(), gy.ravel()], axis=1)  # (N, 2)
    c, centered, euclid = _project(a[None, :], points)
    return PointLattice(
        a=a,
        half=float(half),
        step=step,
        xs=xs,
        ys=ys,
        points=points,
        c=c,
        centered=centered,
        euclidean=euclid,
        ones_line=_along_ones(points, np.full(len(points), float(half))),
    )
