"""The Jacobian of the core, Du_eps(z) = (q + eps)^(-1/2) (P - v v^T / (d (q + eps)))."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.core import Core, analyze_core
from lnviz.errors import LnvizError, check_param


def centering_matrix(d: int) -> np.ndarray:
    """P = I - 1 1^T / d, so that P z = z - mean(z) 1."""
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= 4096:
        raise LnvizError("d", d, "an int from 1 to 4096")
    return np.eye(int(d)) - 1.0 / int(d)  # (d, d)


def _one_vector(z: ArrayLike, eps: float) -> Core:
    core = analyze_core(z, eps)
    if core.z.ndim != 1:
        raise LnvizError("z", core.z, "one vector (1-D) is accepted here")
    if core.q + core.eps == 0:
        raise LnvizError("eps", eps, "eps > 0 for a constant z: at eps = 0 u is not defined")
    return core


def jacobian(z: ArrayLike, eps: float) -> np.ndarray:
    """Du_eps(z) = (q + eps)^(-1/2) (P - v v^T / (d (q + eps))), a (d, d) matrix."""
    core = _one_vector(z, eps)
    d = core.z.shape[0]
    s = float(core.q) + core.eps
    return (centering_matrix(d) - np.outer(core.v, core.v) / (d * s)) / math.sqrt(s)  # (d, d)


@dataclass(frozen=True)
class EigenDirection:
    """One labelled eigenspace of the Jacobian."""

    label: str  # "common offset", "radial" or "tangential"
    formula: str  # the eigenvalue as a formula (LaTeX)
    formula_text: str  # the same formula in plain text, for tables
    value: float  # the eigenvalue from the formula
    basis: np.ndarray  # (d, k) orthonormal columns spanning the eigenspace
    measured: np.ndarray  # (k,) Rayleigh quotients b^T J b of the basis, for checking


@dataclass(frozen=True)
class Spectrum:
    """Du_eps(z), its eigenvalues, the labelled eigenspaces and the Lipschitz bounds."""

    z: np.ndarray  # (d,)
    eps: float
    q: float
    matrix: np.ndarray  # (d, d)
    eigenvalues: np.ndarray  # (d,) ascending, from numpy.linalg.eigvalsh
    directions: tuple[EigenDirection, ...]
    operator_norm: float  # largest |eigenvalue| (the matrix is symmetric)
    core_bound: float  # eps^(-1/2)
    output_bound: float  # max|gamma| eps^(-1/2)
    attained: bool  # operator norm equals the bound (constant input, d >= 2)


def _complement(d: int, used: list[np.ndarray]) -> np.ndarray:
    """Orthonormal basis (d, k) of the orthogonal complement of the given unit vectors."""
    a = np.column_stack(used) if used else np.zeros((d, 0))  # (d, m)
    q, _ = np.linalg.qr(np.column_stack([a, np.eye(d)]))  # (d, d)
    return q[:, a.shape[1] :]


def jacobian_spectrum(z: ArrayLike, eps: float, gamma: ArrayLike | None = None) -> Spectrum:
    """Eigen-decomposition of Du_eps(z), its eigenspaces labelled by the source's formulas."""
    core = _one_vector(z, eps)
    d = core.z.shape[0]
    s = float(core.q) + core.eps
    mat = jacobian(core.z, core.eps)
    ones = np.full(d, 1.0 / math.sqrt(d))  # (d,) unit common offset
    spaces: list[tuple[str, str, str, float, np.ndarray]] = [
        ("common offset", r"0", "0", 0.0, ones[:, None])
    ]
    used = [ones]
    vnorm = float(np.linalg.norm(core.v))
    if vnorm > 0:
        radial = core.v / np.abs(core.v).max()  # (d,) scaled first: |v|^2 may underflow
        radial /= np.linalg.norm(radial)
        spaces.append(
            (
                "radial",
                r"\varepsilon/(q+\varepsilon)^{3/2}",
                "ε / (q + ε)^(3/2)",
                core.eps / s**1.5,
                radial[:, None],
            )
        )
        used.append(radial)
    if d > len(used):
        spaces.append(
            (
                "tangential",
                r"(q+\varepsilon)^{-1/2}",
                "(q + ε)^(−1/2)",
                1.0 / math.sqrt(s),
                _complement(d, used),
            )
        )
    directions = tuple(
        EigenDirection(lab, f, ft, val, b, np.einsum("ik,ij,jk->k", b, mat, b))
        for lab, f, ft, val, b in spaces
    )
    eig = np.linalg.eigvalsh(mat)  # (d,)
    g = check_param(np.ones(d) if gamma is None else gamma, (d,), "gamma", np.dtype(np.float64))
    assert g is not None
    bound = math.inf if core.eps == 0 else 1.0 / math.sqrt(core.eps)
    norm = float(np.abs(eig).max())
    return Spectrum(
        z=core.z,
        eps=core.eps,
        q=float(core.q),
        matrix=mat,
        eigenvalues=eig,
        directions=directions,
        operator_norm=norm,
        core_bound=bound,
        output_bound=float(np.abs(g).max()) * bound,
        attained=d >= 2 and math.isfinite(bound) and math.isclose(norm, bound, rel_tol=1e-12),
    )
