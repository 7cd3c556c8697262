"""Routes that compute each checked number another way, never by the engine formula it checks."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

import lnviz

FD_STEP = 1e-4  # central differences with one Richardson step: error ~ step^4 and 1e-16/step

Vector = Callable[[np.ndarray], np.ndarray]


def _central(f: Vector, z: np.ndarray, e: np.ndarray, step: float) -> np.ndarray:
    return (np.asarray(f(z + step * e)) - np.asarray(f(z - step * e))) / (2 * step)


def fd_derivative(
    f: Vector, z: ArrayLike, direction: ArrayLike, step: float = FD_STEP
) -> np.ndarray:
    """Directional derivative of f at z by central differences, Richardson-extrapolated."""
    zv = np.asarray(z, dtype=np.float64)
    e = np.asarray(direction, dtype=np.float64)
    coarse, fine = _central(f, zv, e, step), _central(f, zv, e, step / 2)
    return (4 * fine - coarse) / 3


def fd_jacobian(f: Vector, z: ArrayLike, step: float = FD_STEP) -> np.ndarray:
    """The (d, d) matrix of partial derivatives of f at z, one column per coordinate."""
    zv = np.asarray(z, dtype=np.float64)
    cols = [fd_derivative(f, zv, np.eye(zv.size)[j], step) for j in range(zv.size)]
    return np.column_stack(cols)  # (d, d)


def core_fd_jacobian(z: ArrayLike, eps: float) -> np.ndarray:
    """Du_eps(z) by finite differences of the engine's core, never from its formula."""
    return fd_jacobian(lambda x: lnviz.normalized_core(x, eps), z)


def fd_eigenvalues(z: ArrayLike, eps: float) -> np.ndarray:
    """Eigenvalues (ascending) of the finite-difference Jacobian, symmetrized first."""
    j = core_fd_jacobian(z, eps)
    return np.linalg.eigvalsh((j + j.T) / 2)


def core_stretch(z: ArrayLike, eps: float) -> float:
    """The largest factor by which the core stretches a small step at z (‖Du‖₂, measured)."""
    return float(np.linalg.norm(core_fd_jacobian(z, eps), 2))


def output_stretch(z: ArrayLike, gamma: ArrayLike, beta: ArrayLike, eps: float) -> float:
    """The largest stretch of y = γ ⊙ u_eps(z) + β at z, from finite differences of y."""
    j = fd_jacobian(lambda x: lnviz.affine_stages(x, gamma, beta, eps).output.values, z)
    return float(np.linalg.norm(j, 2))


def h_by_core(t: float, eps: float) -> float:
    """h_eps(t) as the third coordinate of the engine's core of (−t, 0, t)."""
    return float(lnviz.normalized_core([-t, 0.0, t], eps)[2])


def core_variance_measured(z: ArrayLike, eps: float) -> float:
    """The population variance of the core's values, measured (numpy.var, divisor d)."""
    return float(np.var(lnviz.normalized_core(z, eps)))


def nullspace_projection(a: ArrayLike, x: ArrayLike) -> np.ndarray:
    """The Euclidean orthogonal projection of x onto {y : aᵀy = 0}, from an SVD basis."""
    av = np.asarray(a, dtype=np.float64)
    _, _, vt = np.linalg.svd(av[None, :])  # rows 1.. span the null space of aᵀ
    basis = vt[1:].T  # (n, n − 1) orthonormal
    return basis @ (basis.T @ np.asarray(x, dtype=np.float64))


def lstsq_centering_matrix(a: ArrayLike) -> np.ndarray:
    """P_a column by column: e_j minus its weighted least-squares constant (engine's solver)."""
    n = len(np.asarray(a))
    cols = [lnviz.weighted.constant_fit(lnviz.weighted_centering(a, e)).residual for e in np.eye(n)]
    return np.column_stack(cols)  # (n, n)
