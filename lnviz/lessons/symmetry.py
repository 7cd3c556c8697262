"""Layer norm beside RMS norm under a common shift, an unequal shift and a positive scale."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, as_float_array, check_finite_number, require_finite
from lnviz.invariance import compare_shift


@dataclass(frozen=True)
class Symmetry:
    """One change z -> t(z), seen by layer norm and by RMS norm, with the largest effect."""

    kind: str  # "common shift", "unequal shift" or "scale"
    amount: float  # c of a common shift, a of a scale; nan for a vector shift
    z: np.ndarray  # (d,) input
    moved: np.ndarray  # (d,) t(z)
    eps: float
    ln: np.ndarray  # (d,) u_eps(z)
    ln_moved: np.ndarray  # (d,) u_eps(t(z))
    rms: np.ndarray  # (d,) rms_eps(z)
    rms_moved: np.ndarray  # (d,) rms_eps(t(z))
    ln_change: float  # max_i |u_eps(t(z))_i - u_eps(z)_i|; nan when undefined
    rms_change: float  # max_i |rms_eps(t(z))_i - rms_eps(z)_i|; nan when undefined

    @property
    def ln_defined(self) -> bool:
        """False only for eps = 0 with z or t(z) constant: 0 / 0 in layer norm."""
        return bool(np.isfinite(self.ln).all() and np.isfinite(self.ln_moved).all())

    @property
    def rms_defined(self) -> bool:
        """False only for eps = 0 with z or t(z) all zero: 0 / 0 in RMS norm."""
        return bool(np.isfinite(self.rms).all() and np.isfinite(self.rms_moved).all())


def _max_gap(a: np.ndarray, b: np.ndarray) -> float:
    gap = np.abs(b - a)  # (d,)
    return float(gap.max()) if np.isfinite(gap).all() else float("nan")


def _symmetry(
    kind: str,
    amount: float,
    inputs: tuple[np.ndarray, np.ndarray],
    eps: float,
    ln: tuple[np.ndarray, np.ndarray],
    rms: tuple[np.ndarray, np.ndarray],
) -> Symmetry:
    """A Symmetry from (before, after) pairs of input, layer norm and RMS norm."""
    return Symmetry(kind, amount, *inputs, eps, *ln, *rms, _max_gap(*ln), _max_gap(*rms))


def _from_shift(
    kind: str, amount: float, z: ArrayLike, shift: ArrayLike | float, eps: float
) -> Symmetry:
    s = compare_shift(z, shift, eps)
    pairs = (s.core, s.core_shifted), (s.rms, s.rms_shifted)
    return _symmetry(kind, amount, (s.z, s.z + s.shift), s.eps, *pairs)


def common_shift(z: ArrayLike, c: float, eps: float) -> Symmetry:
    """z -> z + c 1: mu moves by c and q stays, so u_eps is unchanged; rms_eps is not."""
    c_f = check_finite_number(c, "c")
    return _from_shift("common shift", c_f, z, c_f, eps)


def unequal_shift(z: ArrayLike, s: ArrayLike, eps: float) -> Symmetry:
    """z -> z + s for a vector s: only the part of s along 1 is removed."""
    if np.ndim(s) != 1:
        raise LnvizError("s", s, "a vector with one entry per coordinate of z")
    return _from_shift("unequal shift", float("nan"), z, s, eps)


def scale(z: ArrayLike, a: float, eps: float) -> Symmetry:
    """z -> a z, a > 0: u_eps(a z) = u_{eps/a^2}(z) and rms_eps(a z) = rms_{eps/a^2}(z)."""
    a_f = check_finite_number(a, "a")
    if a_f <= 0:
        raise LnvizError("a", a, "a finite scale factor > 0")
    base = compare_shift(z, 0.0, eps)  # u_eps(z) and rms_eps(z), validated
    moved = a_f * base.z  # (d,)
    scaled = compare_shift(moved, 0.0, base.eps)
    pairs = (base.core, scaled.core), (base.rms, scaled.rms)
    return _symmetry("scale", a_f, (base.z, moved), base.eps, *pairs)


@dataclass(frozen=True)
class Split:
    """s = c 1 + p: the common part c 1, which layer norm removes, and the centred rest p."""

    s: np.ndarray  # (d,) the shift
    c: float  # mean(s): the common part per coordinate
    rest: np.ndarray  # (d,) p = s - c 1 = P s, the part layer norm keeps
    common: bool  # p = 0: s is a common shift


def split_shift(s: ArrayLike) -> Split:
    """Split a shift into c 1 + p with c = mean(s) and p = s - c 1 (so mean(p) = 0)."""
    arr = as_float_array(s, "s", min_ndim=1).astype(np.float64)
    if arr.ndim != 1:
        raise LnvizError("s", s, "one 1-D vector")
    require_finite(arr, "s")
    ref = arr[0]  # centre about the first entry so an exactly common s gives p = 0 exactly
    c = float(ref + (arr - ref).mean())
    rest = (arr - ref) - (arr - ref).mean()  # (d,)
    return Split(arr, c, rest, bool(np.ptp(arr) == 0))


@dataclass(frozen=True)
class AffineLayer:
    """A small affine map z = W x + b with a few inputs x, for the redundancy demo."""

    w: np.ndarray  # (d, n) weights, one decimal
    b: np.ndarray  # (d,) bias, one decimal
    xs: np.ndarray  # (k, n) inputs, one per row, one decimal
    seed: int


def seeded_layer(seed: int = 0, d: int = 4, n: int = 3, k: int = 5) -> AffineLayer:
    """W, b and k inputs x, N(0, 1) from `seed`, rounded to one decimal so tables stay readable."""
    for name, value, lo in (("d", d, 2), ("n", n, 1), ("k", k, 1)):
        if not isinstance(value, int | np.integer) or not lo <= int(value) <= 16:
            raise LnvizError(name, value, f"a whole number from {lo} to 16")
    if not isinstance(seed, int | np.integer) or not 0 <= int(seed) < 2**32:
        raise LnvizError("seed", seed, "a whole number from 0 to 2**32 - 1")
    rng = np.random.default_rng(int(seed))
    w = np.round(rng.standard_normal((d, n)), 1)  # (d, n)
    b = np.round(rng.standard_normal(d), 1)  # (d,)
    xs = np.round(rng.standard_normal((k, n)), 1)  # (k, n)
    return AffineLayer(w, b, xs, int(seed))
