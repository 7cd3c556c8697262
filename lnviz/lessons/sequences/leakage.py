"""Three experiments on what token-wise normalization guarantees about time and batches."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.channels import batch_norm
from lnviz.errors import LnvizError
from lnviz.lessons.sequences import HISTORY, MAX_BATCH, Market, features, simulate_returns
from lnviz.lessons.sequences.causality import SCHEMES, normalize

MOVED = 1e-12  # an output counts as changed when it moves by more than this


def correlations(target: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Pearson correlation of each column (..., F) with target, pooled; NaN where constant."""
    y = np.asarray(target, dtype=np.float64).ravel()  # (M,)
    x = np.asarray(columns, dtype=np.float64).reshape(y.size, -1)  # (M, F)
    xc = x - x.mean(axis=0)  # (M, F)
    yc = y - y.mean()  # (M,)
    den = np.sqrt((xc**2).sum(axis=0) * (yc**2).sum())  # (F,)
    scale = np.abs(xc).max(axis=0) * np.abs(yc).max() * y.size  # (F,) rounding floor
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (xc.T @ yc) / den  # (F,)
    return np.where(den > 1e-12 * scale, np.clip(rho, -1.0, 1.0), np.nan)


@dataclass(frozen=True)
class LeakTable:
    """Correlation of each feature (rows) with the next return, per treatment (columns)."""

    names: tuple[str, ...]  # (F,) features
    columns: tuple[str, ...]  # (K,) "raw" and the schemes
    corr: np.ndarray  # (F, K) corr(feature, r_{t+1}), pooled over every (b, t)
    samples: int  # B * T pairs pooled

    @property
    def chance(self) -> float:
        """2 / sqrt(samples): about two standard errors of a correlation that is really 0."""
        return 2.0 / np.sqrt(self.samples)

    def value(self, feature: str, column: str) -> float:
        return float(self.corr[self.names.index(feature), self.columns.index(column)])


def leak_table(m: Market, eps: float = 1e-5) -> LeakTable:
    """corr(x[..., f], target) for the raw features and each normalized version."""
    outs = [m.x] + [normalize(m.x, s, eps).y for s in SCHEMES]  # K x (B, T, F)
    corr = np.column_stack([correlations(m.next_return, y) for y in outs])  # (F, K)
    return LeakTable(m.names, ("raw", *SCHEMES), corr, int(m.next_return.size))


@dataclass(frozen=True)
class Shock:
    """Outputs before and after adding `size` to the return at time `token` of one series."""

    token: int
    size: float
    example: int
    input_change: np.ndarray  # (T,) max_f |dx[example, t, f]|
    change: np.ndarray  # (K, T) max_f |dy[example, t, f]| per scheme (SCHEMES order)
    others: np.ndarray  # (K,) max |dy| over the other examples

    @property
    def first_moved(self) -> np.ndarray:
        """(K,) the earliest token whose output changed (-1 if none)."""
        moved = self.change > MOVED  # (K, T)
        return np.where(moved.any(axis=1), moved.argmax(axis=1), -1)

    @property
    def past(self) -> np.ndarray:
        """(K,) the largest change at tokens before the shocked one."""
        return self.change[:, : self.token].max(axis=1, initial=0.0)


def future_shock(m: Market, eps: float, token: int, size: float, example: int = 0) -> Shock:
    """Shock r at time `token` of series `example`, rebuild x, compare every normalization."""
    b, t, _ = m.x.shape
    if not 1 <= token < t or not 0 <= example < b:
        raise LnvizError("token/example", (token, example), f"1 <= token < {t}, example < {b}")
    if not np.isfinite(size) or abs(size) > 100:
        raise LnvizError("size", size, "a finite shock of at most 100 (%)")
    r = m.returns.copy()  # (B, N)
    r[example, HISTORY + token] += size
    x2 = features(r, t, m.window, m.leak)  # (B, T, F)
    change, others = [], []
    for s in SCHEMES:
        dy = np.abs(normalize(x2, s, eps).y - normalize(m.x, s, eps).y)  # (B, T, F)
        change.append(dy[example].max(axis=-1))
        rest = np.delete(dy, example, axis=0)
        others.append(float(rest.max()) if rest.size else 0.0)
    dx = np.abs(x2 - m.x)[example].max(axis=-1)  # (T,)
    return Shock(token, float(size), example, dx, np.array(change), np.array(others))


@dataclass(frozen=True)
class Inference:
    """One example's normalized tokens in several settings (each (T, F))."""

    example: int
    batch: int  # B, the size of the example's batch (1: there are no batch mates)
    steps: int  # training batches seen by batch norm's running statistics
    momentum: float
    ln_batch: np.ndarray  # layer norm inside its batch
    ln_alone: np.ndarray  # layer norm of the example alone (a batch of one)
    ln_mates: np.ndarray  # layer norm among other batch mates
    ln_stream: np.ndarray  # inference, one token at a time: each token is its own input
    bn_batch: np.ndarray  # batch norm, training mode, inside its batch
    bn_alone: np.ndarray  # training mode, alone: statistics from its own tokens only
    bn_mates: np.ndarray  # training mode, among other batch mates
    bn_eval: np.ndarray  # evaluation mode: the running statistics
    bn_eval_alone: np.ndarray  # evaluation mode, alone
    bn_stream: np.ndarray  # evaluation mode, one token at a time
    seq_alone: np.ndarray  # pooled over the example's own sequence
    running_mean: np.ndarray  # (F,)
    running_var: np.ndarray  # (F,)

    def gap(self, a: str, b: str) -> float:
        """max |a - b| between two of the fields above."""
        return float(np.abs(getattr(self, a) - getattr(self, b)).max())


def _bn(x: np.ndarray, eps: float, rm=None, rv=None, training=True, momentum=0.1):
    y, rm, rv = batch_norm(x.transpose(0, 2, 1), rm, rv, None, None, training, momentum, eps)
    return y.transpose(0, 2, 1), rm, rv  # (B, T, F), (F,), (F,)


def inference_check(
    m: Market, eps: float = 1e-5, example: int = 0, steps: int = 20, momentum: float = 0.1
) -> Inference:
    """Layer norm needs no running averages; batch norm's evaluation output uses them."""
    b, t, f = m.x.shape
    if not 0 <= example < b or not 0 <= steps <= 200:
        raise LnvizError("example/steps", (example, steps), f"example < {b}, 0 <= steps <= 200")
    n = HISTORY + t + 1
    rm, rv = np.zeros(f), np.ones(f)  # (F,) fresh running statistics
    for k in range(steps):
        r = simulate_returns(b, n, m.seed, first=MAX_BATCH * (k + 1))  # other series
        _, rm, rv = _bn(features(r, t, m.window, m.leak), eps, rm, rv, True, momentum)
    r = simulate_returns(b, n, m.seed, first=MAX_BATCH)  # the first training batch
    mates = features(r, t, m.window, m.leak)  # (B, T, F)
    mates[example] = m.x[example]  # same example, other batch mates
    one = m.x[example : example + 1]  # (1, T, F)
    tokens = m.x[example][:, None, :]  # (T, 1, F): T inputs of one token each
    pairs = (("b", m.x), ("a", one), ("m", mates), ("s", tokens))
    ln = {k: normalize(v, "token", eps).y for k, v in pairs}
    return Inference(
        example=example,
        batch=b,
        steps=int(steps),
        momentum=float(momentum),
        ln_batch=ln["b"][example],
        ln_alone=ln["a"][0],
        ln_mates=ln["m"][example],
        ln_stream=ln["s"][:, 0, :],
        bn_batch=_bn(m.x, eps)[0][example],
        bn_alone=_bn(one, eps)[0][0],
        bn_mates=_bn(mates, eps)[0][example],
        bn_eval=_bn(m.x, eps, rm, rv, False)[0][example],
        bn_eval_alone=_bn(one, eps, rm, rv, False)[0][0],
        bn_stream=_bn(tokens, eps, rm, rv, False)[0][:, 0, :],
        seq_alone=normalize(one, "sequence", eps).y[0],
        running_mean=rm,
        running_var=rv,
    )
