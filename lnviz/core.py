"""u_eps(z) = (z - mu 1) / sqrt(q + eps), q = |z - mu 1|^2 / d: the normalized core and output."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, as_float_array, check_eps, check_param, require_finite


@dataclass(frozen=True)
class Core:
    """u_eps(z) with its named intermediates, batched over leading axes."""

    z: np.ndarray  # (..., d) input
    eps: float
    mu: np.ndarray  # (...,) mean of z
    v: np.ndarray  # (..., d) centred input z - mu 1
    q: np.ndarray  # (...,) population variance |v|^2 / d
    core: np.ndarray  # (..., d) u_eps(z) = v / sqrt(q + eps)
    core_var: np.ndarray  # (...,) variance of the core, q / (q + eps)

    @property
    def finite(self) -> bool:
        """False only for eps = 0 with a constant input (0 / 0)."""
        return bool(np.isfinite(self.core).all())


def _vector(z: ArrayLike, name: str = "z") -> np.ndarray:
    arr = as_float_array(z, name, min_ndim=1).astype(np.float64)
    require_finite(arr, name)
    return arr


def analyze_core(z: ArrayLike, eps: float) -> Core:
    """u_eps(z) = v / sqrt(q + eps) with mu, v, q and the core variance q / (q + eps)."""
    arr = _vector(z)
    e = check_eps(eps)
    # Centre about the first entry, so a constant z gives v = 0 exactly (C1) even when its
    # mean is not representable (e.g. (0.1, 0.1, 0.1)); a common shift only moves `ref`.
    ref = arr[..., :1]  # (..., 1)
    dz = arr - ref  # (..., d)
    m = dz.mean(axis=-1)  # (...,)
    mu = ref[..., 0] + m  # (...,)
    v = dz - m[..., None]  # (..., d)
    q = (v * v).mean(axis=-1)  # (...,) divisor d
    with np.errstate(divide="ignore", invalid="ignore"):
        core = v / np.sqrt(q + e)[..., None]  # (..., d)
        core_var = q / (q + e)  # (...,)
    return Core(arr, e, mu, v, q, core, core_var)


def normalized_core(z: ArrayLike, eps: float) -> np.ndarray:
    """u_eps(z) = (z - mu 1) / sqrt(q + eps) over the last axis."""
    return analyze_core(z, eps).core


def core_variance_ratio(q_over_eps: ArrayLike) -> np.ndarray:
    """Variance of the core as a function of r = q / eps: q / (q + eps) = r / (r + 1)."""
    r = np.asarray(q_over_eps, dtype=np.float64)
    if (r < 0).any() or not np.isfinite(r).all():
        raise LnvizError("q_over_eps", q_over_eps, "finite ratios >= 0")
    return r / (r + 1.0)


@dataclass(frozen=True)
class Stage:
    """One stage of the pipeline: its values with their mean and population variance."""

    name: str
    values: np.ndarray  # (d,)
    mean: float
    var: float


@dataclass(frozen=True)
class AffineStages:
    """Input -> core -> output y = gamma * u_eps(z) + beta, with stage statistics."""

    input: Stage
    core: Stage
    output: Stage
    gamma: np.ndarray  # (d,)
    beta: np.ndarray  # (d,)
    eps: float
    q: float  # variance of the input
    core_lipschitz: float  # eps^(-1/2), inf at eps = 0
    output_lipschitz: float  # max|gamma| eps^(-1/2)
    constant_input: bool  # q == 0: the core is 0 and the output is beta (eps > 0)
    defined: bool  # False for eps = 0 with a constant input

    @property
    def stages(self) -> tuple[Stage, Stage, Stage]:
        return (self.input, self.core, self.output)


def _stage(name: str, values: np.ndarray) -> Stage:
    return Stage(name, values, float(values.mean()), float(((values - values.mean()) ** 2).mean()))


def affine_stages(
    z: ArrayLike, gamma: ArrayLike | None = None, beta: ArrayLike | None = None, eps: float = 0.0
) -> AffineStages:
    """y = gamma * u_eps(z) + beta for one vector z, with mean and variance at each stage."""
    core = analyze_core(z, eps)
    if core.z.ndim != 1:
        raise LnvizError("z", core.z, "one vector (1-D) is accepted here")
    d = core.z.shape[0]
    g = check_param(np.ones(d) if gamma is None else gamma, (d,), "gamma", np.dtype(np.float64))
    b = check_param(np.zeros(d) if beta is None else beta, (d,), "beta", np.dtype(np.float64))
    assert g is not None and b is not None
    y = g * core.core + b  # (d,)
    with np.errstate(divide="ignore"):
        bound = float(1.0 / np.sqrt(core.eps)) if core.eps > 0 else float("inf")
    gmax = float(np.abs(g).max())
    return AffineStages(
        input=_stage("input z", core.z),
        core=_stage("core u", core.core),
        output=_stage("output y", y),
        gamma=g,
        beta=b,
        eps=core.eps,
        q=float(core.q),
        core_lipschitz=bound,
        output_lipschitz=gmax * bound if gmax > 0 else 0.0,
        constant_input=bool(core.q == 0.0),
        defined=core.finite,
    )


@dataclass(frozen=True)
class Scaling:
    """u_eps(a z) against u_eps(z), and the identity u_eps(a z) = u_{eps / a^2}(z)."""

    a: float
    eps: float
    core_z: np.ndarray  # (d,) u_eps(z)
    core_az: np.ndarray  # (d,) u_eps(a z)
    core_rescaled_eps: np.ndarray  # (d,) u_{eps / a^2}(z)
    change: float  # max |u_eps(a z) - u_eps(z)|: 0 only when a = 1, eps = 0 or q = 0
    identity_error: float  # max |u_eps(a z) - u_{eps/a^2}(z)|: rounding only

    @property
    def invariant(self) -> bool:
        return self.change <= 1e-12


def scaling_identity(z: ArrayLike, eps: float, a: float) -> Scaling:
    """u_eps(a z) = a v / sqrt(a^2 q + eps) = u_{eps / a^2}(z) for a > 0."""
    a_f = float(a)
    if not np.isfinite(a_f) or a_f <= 0:
        raise LnvizError("a", a, "a finite scale factor > 0")
    base = analyze_core(z, eps)
    scaled = normalized_core(a_f * base.z, base.eps)
    rescaled = normalized_core(base.z, base.eps / a_f**2)
    return Scaling(
        a=a_f,
        eps=base.eps,
        core_z=base.core,
        core_az=scaled,
        core_rescaled_eps=rescaled,
        change=float(np.abs(scaled - base.core).max()),
        identity_error=float(np.abs(scaled - rescaled).max()),
    )
