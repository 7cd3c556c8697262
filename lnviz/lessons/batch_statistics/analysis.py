"""The batch-statistics page's model: each section's numbers as frozen results (NumPy only)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.lessons.batch_statistics.batchmates import (
    BatchSizes,
    Companions,
    Spread,
    batch_size_effect,
    companions,
    estimator_spread,
)
from lnviz.lessons.batch_statistics.running import (
    MAX_BATCH,
    Running,
    Stream,
    catch_up,
    keras_running,
    pytorch_running,
    sample_stream,
    steps_to_close,
    variance_ratio,
)

TORCH_EPS, KERAS_EPS, FLAX_EPS = 1e-5, 1e-3, 1e-5  # each framework's default batch-norm ε
TORCH_MOMENTUM, KERAS_MOMENTUM = 0.1, 0.99  # defaults; Flax's BatchNorm also uses 0.99 as Keras
SIZES = (2, 3, 4, 8, 16, 32, 64)  # batch sizes of the estimator chart
SPREAD_REPEATS = 200  # batches per size in the estimator chart


@dataclass(frozen=True)
class StreamSettings:
    """The stream's controls: S steps of B × F, the seed, the shift (at, shift, spread), momenta."""

    steps: int
    batch: int
    features: int
    seed: int
    at: int
    shift: float
    spread: float
    torch_momentum: float
    keras_momentum: float


@dataclass(frozen=True)
class StreamRuns:
    """The stream and both conventions' running statistics (None for a batch of one)."""

    stream: Stream
    runs: tuple[Running, Running] | None


def settings_stream(s: StreamSettings) -> Stream:
    """The stream the settings describe (x: steps × B × F)."""
    return sample_stream(
        s.steps, s.batch, s.features, seed=s.seed, shift_step=s.at, shift=s.shift,
        spread=s.spread,
    )  # fmt: skip


def stream_runs(s: StreamSettings) -> StreamRuns:
    """Sample the stream and run PyTorch's and Keras's running statistics, each at its default ε."""
    stream = settings_stream(s)
    if s.batch < 2:
        return StreamRuns(stream, None)
    runs = (
        pytorch_running(stream.x, s.torch_momentum, TORCH_EPS),
        keras_running(stream.x, s.keras_momentum, KERAS_EPS),
    )
    return StreamRuns(stream, runs)


@dataclass(frozen=True)
class ConventionColumn:
    """One framework's column of the conventions table."""

    convention: str  # "pytorch" or "keras"
    momentum: float  # as the framework spells it
    weight_new: float  # w, the weight of the new batch
    unbiased: bool  # the variance fed to the running average
    close: int | None  # steps to close 90 % of a jump by the formula (None: never)
    took: int | None  # steps it took after the shift (None: no shift or never)
    ratio: float  # running ÷ true variance, averaged over steps first..last
    band: float  # two standard deviations of that ratio over those steps
    limit: float  # its long-run value: 1 or (B − 1)/B

    @property
    def settled(self) -> bool:
        """The measured ratio lies within its band of the long-run value."""
        return abs(self.ratio - self.limit) <= self.band


@dataclass(frozen=True)
class Conventions:
    """Both conventions on the stream, for one feature (0-based)."""

    feature: int
    batch: int
    first: int  # first step of the variance-ratio average
    last: int  # its last step
    columns: tuple[ConventionColumn, ConventionColumn]

    @property
    def limits_differ(self) -> bool:
        """Both averages settled and their limits differ beyond the bands: the biased feed shows."""
        a, b = self.columns
        return a.settled and b.settled and abs(a.limit - b.limit) > max(a.band, b.band)


def conventions(stream: Stream, runs: tuple[Running, Running], feature: int) -> Conventions:
    """Momentum, weight, fed variance, lag and variance ratio of each convention."""
    cols = []
    for run in runs:
        ratio, limit, first, last = variance_ratio(run, stream, feature)  # same steps for both
        values = run.running_var[first : last + 1, feature] / stream.var[first : last + 1, feature]
        cols.append(
            ConventionColumn(
                run.convention,
                run.momentum,
                run.weight_new,
                run.unbiased,
                steps_to_close(run.weight_new),
                catch_up(run, stream, feature),
                ratio,
                float(2.0 * values.std()),
                limit,
            )
        )
    first, last = variance_ratio(runs[0], stream, feature)[2:]  # the steps averaged over
    return Conventions(feature, stream.x.shape[1], first, last, (cols[0], cols[1]))


@dataclass(frozen=True)
class Gap:
    """One convention's training/evaluation gap before and after the shift."""

    convention: str
    median_before: float | None  # median over the second half of the steps before the shift
    max_before: float | None  # the largest gap over that second half: the batch noise
    max_after: float | None  # the largest gap from the shift on (None: no shift)
    weight_new: float
    close: int | None  # steps to close 90 % of a jump (None: never)

    @property
    def shift_shows(self) -> bool:
        """After the shift the gap rises above everything batch noise gave before it."""
        if self.max_after is None:
            return False
        return self.max_before is None or self.max_after > self.max_before


def gaps(stream: Stream, runs: tuple[Running, Running]) -> tuple[Gap, Gap]:
    """Each convention's gap summary; `before` is None when the shift is at step 0."""
    k, s = stream.shift_step, stream.x.shape[0]
    out = []
    for run in runs:
        before = run.gap[k // 2 : k] if k > 0 else np.zeros(0)  # (k - k//2,)
        out.append(
            Gap(
                run.convention,
                float(np.median(before)) if before.size else None,
                float(before.max()) if before.size else None,
                float(run.gap[k:].max()) if k < s else None,
                run.weight_new,
                steps_to_close(run.weight_new),
            )
        )
    return out[0], out[1]


@dataclass(frozen=True)
class PairTable:
    """Two examples and their batch-norm and layer-norm outputs, one tuple per feature."""

    rows: tuple[str, ...]
    features: tuple[tuple[float, ...], ...]  # (F,) columns of len(rows) values
    largest_off_one: float  # max ||batch-norm value| − 1| over the pair


@dataclass(frozen=True)
class SizeLesson:
    """The batch-size section: one pool of examples, the pair table and the estimators."""

    sizes: BatchSizes
    pair: PairTable
    spread: Spread


def batch_sizes(features: int, seed: int, eps: float) -> SizeLesson:
    """The batch-size section: a MAX_BATCH pool's example 0 per size, its pair, estimator spread."""
    pool = sample_stream(1, MAX_BATCH, features, seed=seed)  # same feature distribution
    bs = batch_size_effect(pool.x[0], eps, pool.mean[0], pool.var[0])
    rows = ("input 1", "input 2", "batch norm 1", "batch norm 2", "layer norm 1", "layer norm 2")
    cols = np.concatenate([bs.pool[:2], bs.pair, bs.pair_ln])  # (6, F)
    off = float(np.abs(np.abs(bs.pair) - 1.0).max())
    table = PairTable(rows, tuple(tuple(float(v) for v in c) for c in cols.T), off)
    return SizeLesson(bs, table, estimator_spread(SIZES, SPREAD_REPEATS, seed))


@dataclass(frozen=True)
class CompanionSummary:
    """The companions experiment and what its bullets may say."""

    comp: Companions
    bn_spread: float  # largest spread of the example's batch-norm output
    ln_spread: float  # the same for layer norm (0 up to rounding)
    most_after_shift: bool  # the batch-norm output moves most with post-shift companions


def stream_companions(s: StreamSettings, sets: int) -> CompanionSummary:
    """companion_summary() keyed by the settings, not the stream's arrays: a cache hashes keys."""
    return companion_summary(settings_stream(s), sets, TORCH_EPS)


def companion_summary(stream: Stream, sets: int, eps: float) -> CompanionSummary:
    """Example x[0, 0] among `sets` companion sets: do post-shift ones move its batch norm most?"""
    comp = companions(stream, sets, eps)
    move = np.abs(comp.bn - comp.bn[0]).max(axis=1)  # (R,) change from the first set
    after = comp.steps >= stream.shift_step  # (R,)
    most = bool(after.any() and (~after).any() and move[after].max() > move[~after].max())
    return CompanionSummary(comp, float(comp.bn_range.max()), float(comp.ln_range.max()), most)
