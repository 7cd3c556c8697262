"""Weighted centering P_a = I - 1 a^T: an oblique projection onto ker a^T along 1."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, as_float_array, require_finite

_TOL = 1e-12  # absolute tolerance of the checks on P_a (entries are of order 1)


def normalize_weights(a: ArrayLike) -> np.ndarray:
    """Weights as a float vector scaled to sum 1; refuses negatives, NaN, all-zero, non-vectors."""
    arr = as_float_array(a, "a").astype(np.float64)
    if arr.ndim != 1:
        raise LnvizError("a", arr, "a 1-D vector of weights")
    require_finite(arr, "a")
    if (arr < 0).any():
        raise LnvizError("a", a, "weights must be >= 0")
    total = float(arr.sum())
    if total <= 0:
        raise LnvizError("a", a, "at least one weight must be > 0")
    return arr / total


def weighted_centering_matrix(a: ArrayLike) -> np.ndarray:
    """P_a = I - 1 a^T for weights a (scaled to sum 1 first)."""
    w = normalize_weights(a)
    return np.eye(w.size) - np.outer(np.ones(w.size), w)  # (n, n)


def _angle_deg(u: np.ndarray, v: np.ndarray, metric: np.ndarray) -> float:
    """Angle between u and v in the inner product u^T M v (nan if either has zero length)."""
    uu, vv, uv = u @ metric @ u, v @ metric @ v, u @ metric @ v
    if uu <= 0 or vv <= 0:
        return math.nan
    # sqrt(uu) * sqrt(vv): the product uu * vv can underflow to 0 for short vectors
    return math.degrees(math.acos(max(-1.0, min(1.0, uv / (math.sqrt(uu) * math.sqrt(vv))))))


@dataclass(frozen=True)
class WeightedCentering:
    """P_a x and everything to compare it with."""

    a: np.ndarray  # (n,) weights summing to 1
    x: np.ndarray  # (n,)
    matrix: np.ndarray  # (n, n) P_a
    c: float  # a^T x: weighted mean, the weighted least-squares constant
    centered: np.ndarray  # (n,) P_a x = x - c 1
    weighted_mean: float  # a^T P_a x (0 up to rounding)
    ordinary_mean: float  # mean of P_a x (need not be 0)
    euclidean: np.ndarray  # (n,) orthogonal projection of x onto ker a^T
    angle_d: float  # angle between P_a x and c 1 in <.,.>_D (90 when all a_i > 0)
    angle_euclidean: float  # the same angle in the Euclidean inner product
    symmetric: bool  # P_a == P_a^T (equal weights)
    degenerate: bool  # some a_i == 0: <.,.>_D is only semi-definite
    rank: int  # n - 1

    def objective(self, const: ArrayLike) -> np.ndarray:
        """Weighted squared error sum_i a_i (x_i - c)^2 for candidate constants c."""
        cs = np.asarray(const, dtype=np.float64)
        return ((self.x - cs[..., None]) ** 2) @ self.a


def weighted_centering(a: ArrayLike, x: ArrayLike) -> WeightedCentering:
    """Centre x with weights a and compare with the Euclidean projection onto ker a^T."""
    w = normalize_weights(a)
    xv = as_float_array(x, "x").astype(np.float64)
    if xv.shape != w.shape:
        raise LnvizError("x", xv, f"a vector of length {w.size}, like the weights")
    require_finite(xv, "x")
    p = np.eye(w.size) - np.outer(np.ones(w.size), w)  # (n, n)
    c = float(w @ xv)
    centered = p @ xv  # (n,)
    euclid = xv - (w @ xv) / (w @ w) * w  # (n,) x minus its component along a
    return WeightedCentering(
        a=w,
        x=xv,
        matrix=p,
        c=c,
        centered=centered,
        weighted_mean=float(w @ centered),
        ordinary_mean=float(centered.mean()),
        euclidean=euclid,
        angle_d=_angle_deg(centered, xv - centered, np.diag(w)),
        angle_euclidean=_angle_deg(centered, xv - centered, np.eye(w.size)),
        symmetric=bool(np.allclose(p, p.T)),
        degenerate=bool((w == 0).any()),
        rank=int(np.linalg.matrix_rank(p)),
    )


# --- Quantities drawn and checked by the "Weighted centering" page -------------------------


def two_weights(w: float) -> np.ndarray:
    """The two-coordinate weights a = (w, 1 - w) for w in [0, 1]."""
    if not (isinstance(w, (int, float, np.floating)) and 0.0 <= w <= 1.0):
        raise LnvizError("w", w, "a number from 0 to 1")
    return np.array([w, 1.0 - w], dtype=np.float64)  # (2,)


def d_inner(a: ArrayLike, u: ArrayLike, v: ArrayLike) -> float:
    """<u, v>_D = u^T diag(a) v = sum_i a_i u_i v_i, with a scaled to sum 1 first."""
    w = normalize_weights(a)
    return float(np.sum(w * np.asarray(u, dtype=np.float64) * np.asarray(v, dtype=np.float64)))


def kernel_basis(a: ArrayLike) -> np.ndarray:
    """Orthonormal columns spanning ker a^T = {y : a^T y = 0}: rows 2..n of V^T in a^T = U S V^T."""
    w = normalize_weights(a)
    _, _, vt = np.linalg.svd(w[None, :])  # (n, n); row 0 is a / |a|
    return vt[1:].T  # (n, n - 1)


def segment_in_box(point: ArrayLike, direction: ArrayLike, half: float) -> np.ndarray | None:
    """Ends of the part of the line {p + t d} inside the cube [-half, half]^n, or None."""
    p = np.asarray(point, dtype=np.float64)  # (n,)
    d = np.asarray(direction, dtype=np.float64)  # (n,)
    moving = d != 0
    if (np.abs(p[~moving]) > half).any() or not moving.any():
        return None
    ends = np.sort(np.stack([(-half - p[moving]), (half - p[moving])]) / d[moving], axis=0)
    lo, hi = float(ends[0].max()), float(ends[1].min())  # intersection of the t-intervals
    if lo > hi:
        return None
    return np.stack([p + lo * d, p + hi * d])  # (2, n)


@dataclass(frozen=True)
class ProjectionView:
    """Everything a plot of P_a x needs, in the cube [-half, half]^n (n = 2 or 3)."""

    half: float  # half-width of the view, the same on every axis (equal aspect ratio)
    ones_line: np.ndarray  # (2, n) ends of the line {x + t 1}: the direction P_a moves along
    kernel_line: np.ndarray | None  # (2, 2) ends of ker a^T (n = 2)
    mean_zero_line: np.ndarray | None  # (2, 2) ends of ker 1^T, ordinary mean 0 (n = 2)
    plane: np.ndarray | None  # (4, 3) corners of a square patch of the plane ker a^T (n = 3)


def projection_view(result: WeightedCentering) -> ProjectionView:
    """A view of 0, x, P_a x and the projection: half-width max(1, 1.25 max |coordinate|)."""
    n = result.a.size
    if n not in (2, 3):
        raise LnvizError("a", result.a, "a picture needs 2 or 3 coordinates")
    points = np.stack([result.x, result.centered, result.euclidean])  # (3, n)
    plane = None
    if n == 3:
        basis = kernel_basis(result.a)  # (3, 2)
        s = 1.3 * float(np.abs(points[1:] @ basis).max()) or 1.0
        corners = np.array([[1, 1], [1, -1], [-1, -1], [-1, 1]], dtype=np.float64)  # (4, 2)
        plane = s * corners @ basis.T  # (4, 3)
        points = np.vstack([points, plane])
    half = max(1.0, 1.25 * float(np.abs(points).max()))
    ones_line = segment_in_box(result.x, np.ones(n), half)  # never None: x is in the view
    kernel = mean_zero = None
    if n == 2:
        kernel = segment_in_box(np.zeros(2), [result.a[1], -result.a[0]], half)
        mean_zero = segment_in_box(np.zeros(2), [1.0, -1.0], half)
    return ProjectionView(half, ones_line, kernel, mean_zero, plane)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Orthogonality:
    """The residual P_a x against the step x - P_a x = c 1, in both geometries."""

    step: np.ndarray  # (n,) x - P_a x = c 1: how far x moved, along 1
    d_inner: float  # <P_a x, c 1>_D = c a^T P_a x: always 0
    euclidean_inner: float  # <P_a x, c 1> = c sum_i (P_a x)_i: 0 only in special cases
    d_length: float  # ||P_a x||_D = sqrt(sum_i a_i (P_a x)_i^2)
    euclidean_length: float  # ||P_a x||_2


def orthogonality(result: WeightedCentering) -> Orthogonality:
    """Inner products and lengths behind the two angles of a WeightedCentering."""
    step = result.x - result.centered  # (n,)
    return Orthogonality(
        step=step,
        d_inner=d_inner(result.a, result.centered, step),
        euclidean_inner=float(result.centered @ step),
        d_length=math.sqrt(d_inner(result.a, result.centered, result.centered)),
        euclidean_length=float(np.linalg.norm(result.centered)),
    )


@dataclass(frozen=True)
class ConstantFit:
    """Weighted least squares with one constant: minimise f(c) = sum_i a_i (x_i - c)^2."""

    c: float  # minimiser from a least-squares solve of sqrt(a) c = sqrt(a) x
    residual: np.ndarray  # (n,) x - c 1, which equals P_a x
    minimum: float  # f(c) = sum_i a_i residual_i^2
    grid: np.ndarray  # (m,) candidate constants
    values: np.ndarray  # (m,) f on the grid
    ordinary_mean: float  # unweighted mean of x, the minimiser for equal weights
    at_ordinary_mean: float  # f(ordinary mean) >= minimum


def constant_fit(result: WeightedCentering, num: int = 201) -> ConstantFit:
    """Fit c by weighted least squares (independently of a^T x) and tabulate f(c)."""
    root = np.sqrt(result.a)  # (n,)
    sol, *_ = np.linalg.lstsq(root[:, None], root * result.x, rcond=None)  # (1,)
    c = float(sol[0])
    pad = max(1.0, float(np.ptp(result.x)) / 2)
    grid = np.linspace(result.x.min() - pad, result.x.max() + pad, num)  # (m,)
    mean = float(result.x.mean())
    return ConstantFit(
        c=c,
        residual=result.x - c,
        minimum=float(result.objective(c)),
        grid=grid,
        values=result.objective(grid),
        ordinary_mean=mean,
        at_ordinary_mean=float(result.objective(mean)),
    )


@dataclass(frozen=True)
class ProjectionChecks:
    """P_a and its properties, each measured rather than assumed."""

    a: np.ndarray  # (n,) weights summing to 1
    matrix: np.ndarray  # (n, n) P_a = I - 1 a^T
    idempotent_error: float  # max |P_a^2 - P_a|
    ones_image: np.ndarray  # (n,) P_a 1
    rank: int  # numerical rank of P_a
    asymmetry: float  # max |P_a - P_a^T|
    d_p: np.ndarray  # (n, n) D P_a with D = diag(a)
    pt_d: np.ndarray  # (n, n) P_a^T D
    d_minus_aat: np.ndarray  # (n, n) D - a a^T
    d_identity_error: float  # max |D P_a - (D - a a^T)|, |P_a^T D - (D - a a^T)|
    zero_weights: tuple[int, ...]  # 1-based positions i with a_i = 0

    @property
    def n(self) -> int:
        return self.a.size

    @property
    def idempotent(self) -> bool:
        return self.idempotent_error <= _TOL

    @property
    def kills_ones(self) -> bool:
        return float(np.abs(self.ones_image).max()) <= _TOL

    @property
    def rank_ok(self) -> bool:
        return self.rank == self.n - 1

    @property
    def symmetric(self) -> bool:
        return self.asymmetry <= _TOL

    @property
    def d_identity(self) -> bool:
        return self.d_identity_error <= _TOL

    @property
    def degenerate(self) -> bool:
        return bool(self.zero_weights)


def projection_checks(a: ArrayLike) -> ProjectionChecks:
    """Measure P_a^2 = P_a, P_a 1 = 0, rank n - 1, symmetry and D P_a = P_a^T D = D - a a^T."""
    w = normalize_weights(a)
    p = weighted_centering_matrix(w)  # (n, n)
    d = np.diag(w)  # (n, n)
    target = d - np.outer(w, w)  # (n, n)
    d_p, pt_d = d @ p, p.T @ d
    return ProjectionChecks(
        a=w,
        matrix=p,
        idempotent_error=float(np.abs(p @ p - p).max()),
        ones_image=p @ np.ones(w.size),
        rank=int(np.linalg.matrix_rank(p)),
        asymmetry=float(np.abs(p - p.T).max()),
        d_p=d_p,
        pt_d=pt_d,
        d_minus_aat=target,
        d_identity_error=float(max(np.abs(d_p - target).max(), np.abs(pt_d - target).max())),
        zero_weights=tuple(int(i) + 1 for i in np.flatnonzero(w == 0)),
    )
