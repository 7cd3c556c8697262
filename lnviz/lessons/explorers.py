"""Facts beside the epsilon, gain-and-bias and invariance charts, each judged against rounding."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from lnviz.core import AffineStages, Scaling, analyze_core, scaling_identity
from lnviz.family import Family, epsilon_family
from lnviz.invariance import Redundancy
from lnviz.jacobian import Spectrum
from lnviz.lessons.symmetry import AffineLayer, Split, Symmetry, split_shift

ROUNDING_ULPS = 16  # units of rounding (float64 eps) an effect must exceed to count
_UNIT = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class Table:
    """A table as named columns of equal length, ready for st.dataframe(table.as_dict())."""

    names: tuple[str, ...]
    columns: tuple[tuple[Any, ...], ...]

    def as_dict(self) -> dict[str, list[Any]]:
        return {name: list(col) for name, col in zip(self.names, self.columns, strict=True)}


def rounding_level(z: ArrayLike, moved: ArrayLike, eps: float) -> float:
    """What rounding alone can change in u_eps when z becomes `moved` (nan if undefined)."""
    level = 1.0
    for x in (z, moved):
        core = analyze_core(x, eps)
        spread = math.sqrt(float(core.q) + core.eps)
        if spread == 0:
            return float("nan")
        level = max(level, float(np.abs(core.z).max()) / spread + float(np.abs(core.core).max()))
    return ROUNDING_ULPS * _UNIT * level


# --- the epsilon page ---------------------------------------------------------------------


def compare_families(eps: float, others: tuple[float, ...]) -> tuple[Family, ...]:
    """h_eps for each comparison value of eps except the page's own (faint curves)."""
    return tuple(epsilon_family(e) for e in others if not np.isclose(e, eps))


def jacobian_table(spec: Spectrum) -> Table:
    """Du_eps(z)'s eigenspaces: each formula's value beside b^T J b measured on the matrix."""
    dirs = spec.directions
    return Table(
        ("direction", "multiplicity", "formula", "from the formula", "measured bᵀJb"),
        (
            tuple(d.label for d in dirs),
            tuple(int(d.basis.shape[1]) for d in dirs),
            tuple(d.formula_text for d in dirs),
            tuple(float(d.value) for d in dirs),
            tuple(float(d.measured[0]) for d in dirs),
        ),
    )


@dataclass(frozen=True)
class ScalingCheck:
    """u_eps(a z) against u_eps(z), the same at eps = 0, and the rounding level."""

    scaling: Scaling  # at the page's eps
    at_zero: Scaling | None  # the same a at eps = 0; None for a constant z (0/0)
    constant: bool  # q = 0: the core is 0 at every scale
    noise: float  # rounding level: the estimate, or the measured rounding if larger

    @property
    def visible(self) -> bool:
        """The change is larger than rounding."""
        return self.scaling.change > self.noise

    @property
    def equivalent_eps(self) -> float:
        """eps / a^2: the eps at which z's own core equals u_eps(a z)."""
        return self.scaling.eps / self.scaling.a**2


def scaling_check(z: ArrayLike, eps: float, a: float) -> ScalingCheck:
    """u_eps(a z) = u_{eps/a^2}(z) at eps and at 0; noise includes the rounding-only errors."""
    s = scaling_identity(z, eps, a)
    zv = analyze_core(z, eps).z  # (d,) validated
    constant = bool(np.ptp(zv) == 0)
    at_zero = None if constant else scaling_identity(zv, 0.0, s.a)
    est = 0.0 if constant else rounding_level(zv, s.a * zv, s.eps)
    measured = [s.identity_error] + ([at_zero.change] if at_zero is not None else [])
    noise = max([est, ROUNDING_ULPS * _UNIT, *measured])
    return ScalingCheck(s, at_zero, constant, noise)


# --- the gain-and-bias page ---------------------------------------------------------------

# The worked example of layer norm with gain and bias (ε = 0): z, γ and β.
WORKED_Z, WORKED_GAMMA, WORKED_BETA = (1.0, 2.0, 3.0), (1.0, 2.0, 1.0), (0.0, 1.0, 0.0)


@dataclass(frozen=True)
class AffineCheck:
    """What the notes of the gain-and-bias page say about the state shown."""

    core_var: float  # q / (q + eps), the formula for the core's variance
    mean_noise: float  # rounding level of the output's mean
    var_noise: float  # rounding level of a variance
    centred: bool  # the output's mean is 0 up to rounding
    unit_variance: bool  # the output's variance is 1 up to rounding
    plain: bool  # gamma = 1 and beta = 0: the output is the core
    zero_entries: tuple[int, ...]  # coordinates (from 0) where a non-zero core is exactly 0
    formula_agrees: bool  # measured core variance = q / (q + eps) up to rounding
    worked: bool  # z, gamma, beta are the worked example's (1, 2, 3), (1, 2, 1), (0, 1, 0)


def affine_check(res: AffineStages) -> AffineCheck:
    """Centred? Unit variance? Which core entries vanish? Judged against rounding."""
    q, e = res.q, res.eps
    core_var = q / (q + e) if q + e > 0 else float("nan")
    y = res.output.values
    scale = max(1.0, float(np.abs(y).max()) if res.defined else 1.0)
    mean_noise = ROUNDING_ULPS * _UNIT * scale
    var_noise = ROUNDING_ULPS * _UNIT * scale**2
    u = res.core.values
    zeros = tuple(int(i) for i in np.flatnonzero(u == 0)) if np.any(u != 0) else ()
    return AffineCheck(
        core_var=core_var,
        mean_noise=mean_noise,
        var_noise=var_noise,
        centred=res.defined and abs(res.output.mean) <= mean_noise,
        unit_variance=res.defined and abs(res.output.var - 1.0) <= var_noise,
        plain=bool(np.all(res.gamma == 1) and np.all(res.beta == 0)),
        zero_entries=zeros if res.defined else (),
        formula_agrees=res.defined and abs(res.core.var - core_var) <= var_noise,
        worked=(
            res.input.values.shape == (3,)
            and tuple(res.input.values) == WORKED_Z
            and tuple(res.gamma) == WORKED_GAMMA
            and tuple(res.beta) == WORKED_BETA
        ),
    )


# --- the invariance page ------------------------------------------------------------------


@dataclass(frozen=True)
class ShiftCheck:
    """A shift z -> z + s seen by layer norm, with the part of s it keeps."""

    sym: Symmetry
    split: Split  # s = c 1 + rest
    noise: float  # rounding level of the comparison (nan when undefined)
    parallel: bool  # rest is a non-zero multiple of z's centred vector (a rescaling of it)

    @property
    def visible(self) -> bool:
        """The change is larger than rounding."""
        return bool(self.sym.ln_change > self.noise)


def shift_check(sym: Symmetry) -> ShiftCheck:
    """Split the shift of `sym` (a common or unequal shift) and judge its change."""
    split = split_shift(sym.moved - sym.z)
    v = analyze_core(sym.z, 0.0).v  # (d,) centred input
    rest = split.rest
    parallel = False
    if not split.common and np.any(v != 0):
        k = float(rest @ v) / float(v @ v)
        parallel = bool(np.allclose(rest, k * v, rtol=1e-9, atol=1e-12 * np.abs(v).max()))
    noise = rounding_level(sym.z, sym.moved, sym.eps) if sym.ln_defined else float("nan")
    return ShiftCheck(sym, split, noise, parallel)


def layer_tables(layer: AffineLayer) -> tuple[Table, Table]:
    """The layer z = W x + b as two tables: W's columns with b, and the inputs x."""
    d, n = layer.w.shape
    w = Table(
        ("row", *(f"W col {j + 1}" for j in range(n)), "b"),
        (
            tuple(f"z{i + 1}" for i in range(d)),
            *(tuple(float(v) for v in layer.w[:, j]) for j in range(n)),
            tuple(float(v) for v in layer.b),
        ),
    )
    x = Table(
        ("entry", *(f"x{i + 1}" for i in range(layer.xs.shape[0]))),
        (
            tuple(f"x[{j + 1}]" for j in range(n)),
            *(tuple(float(v) for v in row) for row in layer.xs),
        ),
    )
    return w, x


@dataclass(frozen=True)
class Contrast:
    """Layer norm against RMS norm under the common shift and the scaling of the page."""

    shift: Symmetry
    scaled: Symmetry
    m: float  # mean square of z (RMS norm's statistic)
    m_shifted: float  # mean square of z + c
    noise: float  # rounding level of every change compared here (nan when undefined)


def contrast(shift: Symmetry, scaled: Symmetry) -> Contrast:
    """The mean squares RMS norm divides by, and one rounding level for the four changes."""
    m = float(np.mean(shift.z**2))
    m_shifted = float(np.mean(shift.moved**2))
    if not (shift.ln_defined and scaled.ln_defined and shift.rms_defined and scaled.rms_defined):
        return Contrast(shift, scaled, m, m_shifted, float("nan"))
    levels = [
        rounding_level(shift.z, shift.moved, shift.eps),
        rounding_level(scaled.z, scaled.moved, scaled.eps),
    ]
    for x in (shift.z, shift.moved, scaled.moved):  # RMS norm: no centring, spread sqrt(m + eps)
        root = math.sqrt(float(np.mean(x**2)) + shift.eps)
        levels.append(ROUNDING_ULPS * _UNIT * (1.0 + float(np.abs(x).max()) / root))
    return Contrast(shift, scaled, m, m_shifted, max(levels))


@dataclass(frozen=True)
class RedundancyCheck:
    """The three changes of z = W x + b, judged against the page's own rounding."""

    red: Redundancy
    split: Split  # W dx = c 1 + rest
    inputs: int  # k, the number of inputs x
    noise: float  # the larger of the two mathematically zero changes and the estimate

    @property
    def input_visible(self) -> bool:
        """The raw-input shift moves the output by more than rounding."""
        return self.red.input_change > self.noise


def redundancy_check(red: Redundancy) -> RedundancyCheck:
    """Noise: what b + c 1 and W + 1 r^T change (0 in exact arithmetic) or an estimate if larger."""
    est = ROUNDING_ULPS * _UNIT * max(1.0, float(np.abs(red.base).max()))
    noise = max(red.bias_change, red.weight_change, est)
    return RedundancyCheck(red, split_shift(red.added_by_input_shift), red.xs.shape[0], noise)
