"""The sequences page's model: what each section shows, as frozen results (NumPy only)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.lessons.sequences import Market, describe_features, feature_jacobian, market
from lnviz.lessons.sequences.causality import SCHEMES, Dependence, SeqNorm, dependence, normalize
from lnviz.lessons.sequences.leakage import (
    Inference,
    LeakTable,
    Shock,
    correlations,
    future_shock,
    inference_check,
    leak_table,
)

SEEDS = 16  # random seeds a correlation change is averaged over


@dataclass(frozen=True)
class Settings:
    """The page's data controls: B series of T tokens, the seed, the window w, the leak, ε."""

    batch: int
    tokens: int
    seed: int
    window: int
    leak: bool
    eps: float

    def market(self, seed: int | None = None) -> Market:
        """The simulated market of these settings (of another seed if given)."""
        s = self.seed if seed is None else seed
        return market(self.batch, self.tokens, s, self.window, self.leak)


@dataclass(frozen=True)
class Analysis:
    """The market, its four normalizations, their dependence maps and the leak table."""

    market: Market
    norms: dict[str, SeqNorm]  # scheme -> normalized tensor
    deps: dict[str, dict[str, Dependence]]  # "x" or "returns" -> scheme -> dependence map
    leaks: LeakTable


def analyse(s: Settings) -> Analysis:
    """Every scheme's output, its dependence on x and on the returns, and the leak table."""
    m = s.market()
    norms = {k: normalize(m.x, k, s.eps) for k in SCHEMES}
    g = feature_jacobian(m)  # (B, T, F, N)
    deps = {
        "x": {k: dependence(n) for k, n in norms.items()},
        "returns": {k: dependence(n, g, m.first_read) for k, n in norms.items()},
    }
    return Analysis(m, norms, deps, leak_table(m, s.eps))


def shock(s: Settings, token: int, size: float, example: int) -> Shock:
    """The future-shock experiment of lnviz.lessons.sequences.leakage on this market."""
    return future_shock(s.market(), s.eps, token, size, example)


def inference(s: Settings, example: int, steps: int) -> Inference:
    """The training/inference comparison of lnviz.lessons.sequences.leakage on this market."""
    return inference_check(s.market(), s.eps, example, steps)


def scheme_label(scheme: str) -> str:
    """The scheme's name in labels and tables."""
    return "token-wise" if scheme == "token" else scheme


@dataclass(frozen=True)
class FeatureTable:
    """The features: name, value at token t, the returns it reads (one tuple per column)."""

    feature: tuple[str, ...]
    at_token: tuple[str, ...]
    reads: tuple[str, ...]


def feature_table(window: int, leak: bool) -> FeatureTable:
    """The feature descriptions of lnviz.lessons.sequences as columns."""
    name, value, reads = zip(*describe_features(window, leak), strict=True)
    return FeatureTable(name, value, reads)


@dataclass(frozen=True)
class DependenceTable:
    """Per scheme: future pairs, tokens that read a later input, cross-example pairs."""

    scheme: tuple[str, ...]
    future_pairs: tuple[int, ...]
    tokens: tuple[int, ...]
    other_examples: tuple[int, ...]


def dependence_table(deps: dict[str, Dependence]) -> DependenceTable:
    """The counts of each dependence map, in the order of `deps`."""
    ds = list(deps.values())
    return DependenceTable(
        tuple(scheme_label(k) for k in deps),
        tuple(d.future_pairs for d in ds),
        tuple(d.future_tokens for d in ds),
        tuple(d.cross_examples for d in ds),
    )


@dataclass(frozen=True)
class ShockTable:
    """Per scheme: first token moved, largest change before the shocked token, other series."""

    token: int  # the shocked token
    scheme: tuple[str, ...]
    first_moved: tuple[int, ...]
    before: tuple[float, ...]
    other_series: tuple[float, ...]


def shock_table(s: Shock) -> ShockTable:
    """The shock's summary per scheme (SCHEMES order)."""
    return ShockTable(
        s.token,
        tuple(scheme_label(k) for k in SCHEMES),
        tuple(int(v) for v in s.first_moved),
        tuple(float(v) for v in s.past),
        tuple(float(v) for v in s.others),
    )


@dataclass(frozen=True)
class InferenceTable:
    """Largest gaps from the in-batch training output: alone, other mates, token by token."""

    setting: tuple[str, ...]
    layer_norm: tuple[float | None, ...]
    batch_norm: tuple[float | None, ...]


def inference_table(inf: Inference) -> InferenceTable:
    """max |Δy| per setting, for layer norm and batch norm."""

    def gaps(prefix: str) -> tuple[float | None, ...]:
        out = [inf.gap(f"{prefix}_batch", f"{prefix}_{c}") for c in ("alone", "mates", "stream")]
        return (out[0], out[1] if inf.batch > 1 else None, out[2])

    return InferenceTable(("alone", "other mates", "token by token"), gaps("ln"), gaps("bn"))


@dataclass(frozen=True)
class CorrelationChange:
    """corr(feature, r(t+1)) raw and after one normalization, against the noise it must beat."""

    feature: str
    scheme: str
    before: float
    after: float
    band: float
    mean_change: float
    mean_band: float
    affine: bool

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def clear(self) -> bool:
        """The change in this state is larger than chance alone gives."""
        return not self.affine and abs(self.change) > self.band

    @property
    def clear_on_average(self) -> bool:
        """The change averaged over seeds is larger than two standard errors of it."""
        return not self.affine and abs(self.mean_change) > self.mean_band

    @property
    def verdict(self) -> str:
        """The page's word: "unchanged", "noise", "clear" (here, as on average) or "average"."""
        if self.affine:
            return "unchanged"
        if not self.clear_on_average:
            return "noise"
        same_sign = self.change * self.mean_change > 0
        return "clear" if self.clear and same_sign else "average"


def correlation_change(s: Settings, feature: str, scheme: str) -> CorrelationChange:
    """How normalizing with `scheme` moves the feature's corr with r(t+1), here and on average."""
    changes = []
    for seed in range(s.seed, s.seed + SEEDS):
        m = s.market(seed)
        k = m.names.index(feature)
        raw = m.x[..., k]  # (B, T)
        normed = normalize(m.x, scheme, s.eps).y[..., k]  # (B, T)
        pair = correlations(m.next_return, np.stack([raw, normed], axis=-1))  # (2,)
        changes.append(float(pair[1] - pair[0]))
        if seed == s.seed:
            before, after = float(pair[0]), float(pair[1])
    d = np.array(changes)  # (SEEDS,)
    band = 2.0 / np.sqrt(s.batch * s.tokens)
    affine = scheme == "batch" or (scheme == "sequence" and s.batch == 1)
    return CorrelationChange(
        feature, scheme, before, after, float(band), float(d.mean()),
        float(2.0 * d.std(ddof=1) / np.sqrt(d.size)), affine,
    )  # fmt: skip
