"""Sweeps over the mean offset c of x = c + base: one-pass fails once the mean dwarfs the spread."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, check_eps
from lnviz.lessons.numerics import (
    ALGORITHMS,
    MAX_N,
    MAX_OFFSET,
    MAX_ROWS,
    Moments,
    _choice,
    _normalized,
    _rows,
    input_error,
    moments,
    normalize,
)
from lnviz.lessons.numerics.precision import PRECISIONS

SAMPLES = ("noise", "grid")


def sample(kind: str, n: int = 1000, seed: int = 0, offset: float = 0.0) -> np.ndarray:
    """offset + a centred base: n standard normals, or the grid (7 - k) * 1e-3 for k = 0..15."""
    _choice(kind, SAMPLES, "sample")
    if not (isinstance(offset, (int, float)) and abs(offset) <= MAX_OFFSET):
        raise LnvizError("offset", offset, f"a finite number with |offset| <= {MAX_OFFSET:g}")
    if kind == "grid":
        return offset + (7 - np.arange(16)) * 1e-3  # (16,)
    if not (isinstance(n, (int, np.integer)) and 2 <= n <= MAX_N):
        raise LnvizError("n", n, f"a whole number from 2 to {MAX_N}")
    if not (isinstance(seed, (int, np.integer)) and 0 <= seed < 2**32):
        raise LnvizError("seed", seed, "a whole number from 0 to 2^32 - 1")
    return offset + np.random.default_rng(int(seed)).standard_normal(int(n))  # (n,)


@dataclass(frozen=True)
class Sweep:
    """Every algorithm x precision at every mean offset of one base sample."""

    base: np.ndarray  # (n,)
    offsets: np.ndarray  # (K,)
    eps: float
    clamp: bool
    summation: str
    algorithms: tuple[str, ...]  # A
    precisions: tuple[str, ...]  # P
    variance: np.ndarray  # (A, P, K) as computed
    negative: np.ndarray  # (A, P, K) bool
    rel_error: np.ndarray  # (A, P, K) output error against the float64 truth
    var_rel_error: np.ndarray  # (A, P, K)
    input_error: np.ndarray  # (P, K) error of storing the input alone
    true_variance: np.ndarray  # (K,)

    def cell(self, field: str, algorithm: str, precision: str, k: int = 0) -> float:
        """One entry of an (A, P, K) field ("variance", "rel_error", ...) by names."""
        table = getattr(self, field)  # (A, P, K)
        return float(table[self.algorithms.index(algorithm), self.precisions.index(precision), k])

    def cell_true(self, k: int = 0) -> float:
        """The float64 two-pass variance of the exact sample at offset index k."""
        return float(self.true_variance[k])

    def index(self, offset: float) -> int:
        """The index of the swept offset nearest to `offset`."""
        return int(np.argmin(np.abs(self.offsets - offset)))

    def at(self, k: int) -> Sweep:
        """The sweep at offset index k alone: the same numbers as sweeping [offsets[k]]."""
        ks = slice(k, k + 1)
        return replace(
            self, offsets=self.offsets[ks], variance=self.variance[:, :, ks],
            negative=self.negative[:, :, ks], rel_error=self.rel_error[:, :, ks],
            var_rel_error=self.var_rel_error[:, :, ks], input_error=self.input_error[:, ks],
            true_variance=self.true_variance[ks],
        )  # fmt: skip


@dataclass(frozen=True)
class SweepMoments:
    """What ε and the clamp leave alone in a sweep: the swept rows and every algorithm's moments."""

    base: np.ndarray  # (n,)
    offsets: np.ndarray  # (K,)
    summation: str
    rows: np.ndarray  # (K, n) x = c + base, one row per offset
    moments: tuple[Moments, ...]  # (A * P,) algorithm-major: ALGORITHMS x PRECISIONS


def sweep_moments(
    base: ArrayLike, offsets: ArrayLike, summation: str = "sequential"
) -> SweepMoments:
    """Mean and variance of x = c + base for every offset c, algorithm and precision."""
    b = np.asarray(base, dtype=np.float64)  # (n,)
    c = np.asarray(offsets, dtype=np.float64).ravel()  # (K,)
    if not (np.isfinite(c).all() and np.abs(c).max(initial=0) <= MAX_OFFSET and c.size):
        raise LnvizError("offsets", c, f"1 to {MAX_ROWS} finite offsets with |c| <= 1e8")
    x = _rows(c[:, None] + b[None, :])  # (K, n)
    moms = tuple(moments(x, alg, prec, summation) for alg in ALGORITHMS for prec in PRECISIONS)
    for a in (b, c, x, *(v for m in moms for v in (m.stored, m.mean, m.variance))):
        a.flags.writeable = False  # shared by every sweep that reuses them (pages cache it)
    return SweepMoments(b, c, moms[0].summation, x, moms)


def offset_sweep(
    base: ArrayLike,
    offsets: ArrayLike,
    eps: float,
    *,
    clamp: bool = True,
    summation: str = "sequential",
    parts: SweepMoments | None = None,
) -> Sweep:
    """Layer norm of x = c + base per offset, algorithm and precision, as normalize() does."""
    e = check_eps(eps)
    if parts is None:
        m = sweep_moments(base, offsets, summation)
    elif not (
        parts.summation == summation
        and np.array_equal(parts.offsets, np.ravel(offsets))
        and np.array_equal(parts.base, base)
    ):
        raise LnvizError(
            "parts", parts.summation, "the moments of this base, offsets and summation"
        )
    else:
        m = parts
    x, c = m.rows, m.offsets  # (K, n), (K,)
    shape = (len(ALGORITHMS), len(PRECISIONS), c.size)
    var, neg, rel, vrel = (np.empty(shape) for _ in range(4))  # (A, P, K) each
    for k, mom in enumerate(m.moments):
        i, j = divmod(k, len(PRECISIONS))
        r = _normalized(x, mom, e, bool(clamp))
        var[i, j], neg[i, j] = r.moments.variance, r.negative
        rel[i, j], vrel[i, j] = r.rel_error, r.var_rel_error
    inp = np.stack([input_error(x, p, e) for p in PRECISIONS])  # (P, K)
    return Sweep(
        m.base, c, e, r.clamp, m.summation, ALGORITHMS, PRECISIONS, var,
        neg.astype(bool), rel, vrel, inp, x.var(axis=1),
    )  # fmt: skip


@dataclass(frozen=True)
class Clamping:
    """The one-pass layer norm of one sample with and without clamping v at 0."""

    precision: str
    eps: float
    summation: str
    x: np.ndarray  # (n,) exact input
    mean: float  # the mean as the format computes it, S(x)/n
    true_mean: float
    variance: float  # one-pass variance as computed (may be negative)
    true_variance: float
    truth: np.ndarray  # (n,) float64 two-pass output
    unclamped: np.ndarray  # (n,) (x - mu) / sqrt(v + eps); NaN when v + eps < 0
    clamped: np.ndarray  # (n,) (x - mu) / sqrt(max(v, 0) + eps)
    two_pass: np.ndarray  # (n,) the two-pass output in the same format, for contrast

    @property
    def negative(self) -> bool:
        """The one-pass variance came out below zero, so the clamp changed something."""
        return self.variance < 0

    @property
    def blowup(self) -> float:
        """max |clamped| / max |truth|, > 1 if the clamp inflated the output; NaN if none finite."""
        finite = self.clamped[~np.isnan(self.clamped)]  # (k,)
        if finite.size == 0:
            return float("nan")
        return float(np.max(np.abs(finite)) / np.max(np.abs(self.truth)))


def clamping(x: ArrayLike, precision: str, eps: float, summation: str = "sequential") -> Clamping:
    """One-pass layer norm of x in `precision`, raw and clamped (v < 0 -> 0: (x - mu)/sqrt(eps))."""
    arr = _rows(x)
    if arr.shape[0] != 1:
        raise LnvizError("x", arr, "a single sample (one row)")
    e = check_eps(eps)
    one = moments(arr, "one-pass", precision, summation)  # shared by both outputs
    raw, held = _normalized(arr, one, e, False), _normalized(arr, one, e, True)
    two = normalize(arr, "two-pass", precision, e, summation=summation)
    return Clamping(
        precision, raw.eps, summation, arr[0], float(one.mean[0]), float(arr[0].mean()),
        float(raw.moments.variance[0]),
        float(raw.true_variance[0]), raw.truth[0], raw.output[0], held.output[0], two.output[0],
    )  # fmt: skip


@dataclass(frozen=True)
class SampleSpec:
    """Which base sample the lab uses: `kind` ("noise" or "grid"), its size and seed."""

    kind: str
    n: int = 1000  # noise only: the grid always has 16 values
    seed: int = 0  # noise only: the random seed

    def draw(self, offset: float = 0.0) -> np.ndarray:
        """offset + the base sample (see sample())."""
        return sample(self.kind, self.n, self.seed, offset)


@dataclass(frozen=True)
class SweepSetup:
    """Everything offset_sweep needs, as one hashable value (the page caches on it)."""

    sample: SampleSpec
    offsets: tuple[float, ...]
    eps: float
    clamp: bool
    summation: str


def run_sweep(setup: SweepSetup, parts: SweepMoments | None = None) -> Sweep:
    """offset_sweep of the setup's base sample (`parts`: its sweep_moments, if known)."""
    return offset_sweep(
        setup.sample.draw(), setup.offsets, setup.eps, clamp=setup.clamp,
        summation=setup.summation, parts=parts,
    )  # fmt: skip


@dataclass(frozen=True)
class ClampSetup:
    """Everything clamping needs: the sample at one offset, the format, ε, the sums."""

    sample: SampleSpec
    offset: float
    precision: str
    eps: float
    summation: str


def run_clamping(setup: ClampSetup) -> Clamping:
    """clamping() of the setup's sample at its offset."""
    x = setup.sample.draw(setup.offset)
    return clamping(x, setup.precision, setup.eps, setup.summation)
