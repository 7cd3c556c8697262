"""Layer norm's geometry: in 1^perp, |u| = sqrt(d q / (q + eps)) <= sqrt(d); the gain: ellipsoid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz import analyze_core
from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk

D_MIN, D_MAX, N_MAX = 3, 256, 2000


@dataclass(frozen=True)
class SphereView:
    """Tokens (n, d) at each stage of layer norm, and their coordinates in a plane of 1^perp."""

    z: np.ndarray  # (n, d) input tokens
    eps: float
    gamma: np.ndarray  # (d,) gain
    beta: np.ndarray  # (d,) bias
    centred: np.ndarray  # (n, d) v = z - mean(z) 1, in 1^perp
    q: np.ndarray  # (n,) population variance |v|^2 / d
    core: np.ndarray  # (n, d) u = v / sqrt(q + eps)
    radius: np.ndarray  # (n,) |u|
    predicted_radius: np.ndarray  # (n,) sqrt(d q / (q + eps))
    sphere_radius: float  # sqrt(d): the radius of every core when eps = 0
    output: np.ndarray  # (n, d) y = gamma * u + beta
    basis: np.ndarray  # (d, 2) orthonormal, both columns orthogonal to 1
    plane_input: np.ndarray  # (n, 2) z @ basis (equal to v @ basis: the basis is in 1^perp)
    plane_core: np.ndarray  # (n, 2) u @ basis
    plane_output: np.ndarray  # (n, 2) y @ basis
    circle: np.ndarray  # (K, d) the radius-sqrt(d) circle in span(basis)
    ellipse: np.ndarray  # (K, d) gamma * circle + beta: where that circle's outputs land
    semi_axes: np.ndarray  # (d - 1,) descending: the image ellipsoid's semi-axes about beta

    @property
    def image_rank(self) -> int:
        """How many semi-axes are not 0: d - 1 for an ellipsoid, 1 a segment, 0 a point."""
        return int((self.semi_axes > 1e-12 * max(1.0, float(self.semi_axes[0]))).sum())

    @property
    def image_shape(self) -> str:
        """d = 3: the gain's image of the circle, "point", "segment", "circle" or "ellipse"."""
        rank, axes = self.image_rank, self.semi_axes
        if rank < 2:
            return ("point", "segment")[rank]
        return "circle" if np.isclose(axes[0], axes[-1], rtol=1e-9) else "ellipse"

    @property
    def pulled_in(self) -> np.ndarray:
        """(n,) tokens whose core lies visibly inside the sphere (radius < 99 % of sqrt(d))."""
        return self.radius < 0.99 * self.sphere_radius


def plane_basis(d: int) -> np.ndarray:
    """Orthonormal vectors of 1^perp in R^d: (1, -1, 0, ..)/sqrt(2), (1, 1, -2, 0, ..)/sqrt(6)."""
    n = chk.whole(d, "d", D_MIN, D_MAX)
    basis = np.zeros((n, 2))  # (d, 2)
    basis[:2, 0] = (1.0, -1.0)
    basis[:3, 1] = (1.0, 1.0, -2.0)
    return basis / np.linalg.norm(basis, axis=0)


def gain_semi_axes(gamma: np.ndarray) -> np.ndarray:
    """Gain ellipsoid's semi-axes: sqrt(d) sv(diag(gamma) P), P = I - 11^T / d, without its 0."""
    d = gamma.shape[0]
    projector = np.eye(d) - 1.0 / d  # (d, d) P, onto 1^perp
    values = np.linalg.svd(gamma[:, None] * projector, compute_uv=False)  # (d,) descending
    return np.sqrt(d) * values[: d - 1]


def sample_tokens(n: int = 60, d: int = 3, seed: int = 0) -> np.ndarray:
    """n tokens (n, d): offset along 1 plus a log-uniform length, some of variance far below eps."""
    k = chk.whole(n, "n", 1, N_MAX)
    dim = chk.whole(d, "d", D_MIN, D_MAX)
    rng = np.random.default_rng(chk.seed(seed))
    direction = rng.standard_normal((k, dim))  # (n, d)
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    length = 10.0 ** rng.uniform(-2.0, np.log10(3.0), size=(k, 1))  # (n, 1)
    offset = rng.normal(0.0, 1.0, size=(k, 1))  # (n, 1) a shift along 1
    return offset + length * np.sqrt(dim) * direction


def sphere_view(
    z: ArrayLike,
    eps: float = 1e-5,
    gamma: ArrayLike | None = None,
    beta: ArrayLike | None = None,
    n_circle: int = 181,
) -> SphereView:
    """Each stage of y = gamma * u_eps(z) + beta for tokens z (n, d), d from 3 to 256."""
    zs = chk.matrix(z, "z", rows=(1, N_MAX), cols=(D_MIN, D_MAX))
    d = zs.shape[1]
    e = chk.number(eps, "eps", 0.0, 100.0)
    gam = chk.vector(gamma, "gamma", d, 1.0)
    bet = chk.vector(beta, "beta", d, 0.0)
    k = chk.whole(n_circle, "n_circle", 3, 2001)
    core = analyze_core(zs, e)
    if e == 0.0 and (core.q == 0.0).any():
        raise LnvizError("z", zs, "with eps = 0 every token must have variance > 0")
    u = core.core  # (n, d)
    y = gam * u + bet  # (n, d)
    basis = plane_basis(d)  # (d, 2)
    theta = np.linspace(0.0, 2.0 * np.pi, k)  # (K,)
    circle = np.sqrt(d) * (
        np.cos(theta)[:, None] * basis[:, 0] + np.sin(theta)[:, None] * basis[:, 1]
    )
    return SphereView(
        z=zs,
        eps=e,
        gamma=gam,
        beta=bet,
        centred=core.v,
        q=core.q,
        core=u,
        radius=np.linalg.norm(u, axis=1),
        predicted_radius=np.sqrt(d * core.q / (core.q + e)),
        sphere_radius=float(np.sqrt(d)),
        output=y,
        basis=basis,
        plane_input=zs @ basis,
        plane_core=u @ basis,
        plane_output=y @ basis,
        circle=circle,
        ellipse=gam * circle + bet,
        semi_axes=gain_semi_axes(gam),
    )
