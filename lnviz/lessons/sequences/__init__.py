"""A seeded GARCH market for sequence models: point-in-time features plus one leak, r_{t+1}."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.errors import LnvizError

MAX_BATCH, MIN_TOKENS, MAX_TOKENS, MAX_WINDOW = 8, 4, 64, 16  # bounded sizes
HISTORY = MAX_WINDOW - 1  # returns before token 0, so every window is full at t = 0
FEATURES = ("return", "mean", "volatility", "level", "next return")  # short names
LEAK = 4  # index of the leaky feature in FEATURES
_GARCH = (0.05, 0.10, 0.85, 0.03)  # omega, alpha, beta (long-run variance 1 %^2), drift %


@dataclass(frozen=True)
class Market:
    """The simulated series and the (B, T, F) feature tensor built from them."""

    seed: int
    window: int  # w, the length of the rolling windows
    leak: bool  # whether the leaky feature is included
    returns: np.ndarray  # (B, H + T + 1) log returns in %, index H + t is token t
    log_price: np.ndarray  # (B, H + T + 1) cumulative log price in %, 0 just before tau = -H
    x: np.ndarray  # (B, T, F) features per token
    names: tuple[str, ...]  # (F,) feature names
    next_return: np.ndarray  # (B, T) r_{t+1}, the target a forecaster would want

    @property
    def shape(self) -> tuple[int, int, int]:
        return tuple(self.x.shape)  # type: ignore[return-value]

    @property
    def first_read(self) -> int:
        """Index in `returns` of the earliest return any feature reads (time 1 - w)."""
        return HISTORY - (self.window - 1)

    @property
    def spread(self) -> np.ndarray:
        """(F,) standard deviation of each feature over every (b, t)."""
        return self.x.std(axis=(0, 1))


def _check_int(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise LnvizError(name, value, f"a whole number from {lo} to {hi}")
    return int(value)


def simulate_returns(batch: int, length: int, seed: int, first: int = 0) -> np.ndarray:
    """GARCH(1, 1) returns in %, series b from stream (seed, first + b): stable in B and length."""
    batch = _check_int(batch, "batch", 1, MAX_BATCH)
    length = _check_int(length, "length", 1, MAX_TOKENS + HISTORY + 1)
    seed = _check_int(seed, "seed", 0, 2**32 - 1)
    first = _check_int(first, "first", 0, 2**20)
    omega, alpha, beta, drift = _GARCH
    streams = [np.random.default_rng([seed, first + b]) for b in range(batch)]
    z = np.stack([g.standard_normal(length) for g in streams])  # (B, N)
    r = np.empty((batch, length))  # (B, N)
    var = np.full(batch, omega / (1 - alpha - beta))  # (B,) start at the long-run variance
    prev = np.zeros(batch)  # (B,) previous shock
    for k in range(length):
        var = omega + alpha * prev**2 + beta * var  # (B,)
        prev = np.sqrt(var) * z[:, k]  # (B,)
        r[:, k] = drift + prev
    return r


def features(returns: np.ndarray, tokens: int, window: int, leak: bool = True) -> np.ndarray:
    """The (B, T, F) feature tensor of returns (B, H + T + 1), as describe_features lists them."""
    r = np.asarray(returns, dtype=np.float64)  # (B, N)
    tokens = _check_int(tokens, "tokens", 1, MAX_TOKENS)
    window = _check_int(window, "window", 1, MAX_WINDOW)
    if r.ndim != 2 or r.shape[1] < HISTORY + tokens + 1:
        raise LnvizError("returns", r, f"shape (B, {HISTORY + tokens + 1}) or longer")
    h = HISTORY
    idx = h + np.arange(tokens)[:, None] - np.arange(window)[None, :]  # (T, w) window indices
    win = r[:, idx]  # (B, T, w)
    mean = win.mean(axis=-1)  # (B, T)
    vol = np.sqrt(((win - mean[..., None]) ** 2).mean(axis=-1))  # (B, T) two-pass
    own = r[:, h : h + tokens]  # (B, T) r_t
    level = np.cumsum(own, axis=1) - own[:, :1]  # (B, T) r_1 + ... + r_t
    cols = [own, mean, vol, level] + ([r[:, h + 1 : h + tokens + 1]] if leak else [])
    return np.stack(cols, axis=-1)  # (B, T, F)


def market(batch: int, tokens: int, seed: int, window: int = 5, leak: bool = True) -> Market:
    """Simulate B series of T tokens and their features, all from `seed`."""
    tokens = _check_int(tokens, "tokens", MIN_TOKENS, MAX_TOKENS)
    window = _check_int(window, "window", 2, MAX_WINDOW)
    r = simulate_returns(batch, HISTORY + tokens + 1, seed)  # (B, H + T + 1)
    return Market(
        seed=int(seed),
        window=window,
        leak=bool(leak),
        returns=r,
        log_price=np.cumsum(r, axis=1),  # (B, H + T + 1)
        x=features(r, tokens, window, leak),
        names=FEATURES if leak else FEATURES[:LEAK],
        next_return=r[:, HISTORY + 1 :].copy(),  # (B, T) r_1 .. r_T
    )


def feature_jacobian(m: Market) -> np.ndarray:
    """d x[b, t, f] / d r[b, tau] as a (B, T, F, H + T + 1) array (zero across series)."""
    b, t, f = m.x.shape
    h, w = HISTORY, m.window
    n = m.returns.shape[1]
    g = np.zeros((b, t, f, n))  # (B, T, F, N)
    tok = np.arange(t)  # (T,)
    g[:, tok, 0, h + tok] = 1.0
    idx = h + tok[:, None] - np.arange(w)[None, :]  # (T, w)
    rows = np.broadcast_to(tok[:, None], idx.shape)  # (T, w)
    g[:, rows, 1, idx] = 1.0 / w
    dev = m.returns[:, idx] - m.x[:, :, 1, None]  # (B, T, w)
    vol = m.x[:, :, 2, None]  # (B, T, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        g[:, rows, 2, idx] = np.where(vol > 0, dev / (w * vol), 0.0)  # (B, T, w)
    g[:, :, 3, h + 1 : h + t] = np.tril(np.ones((t, t - 1)), -1)  # level: tau in 1..t
    if m.leak:
        g[:, tok, LEAK, h + tok + 1] = 1.0
    return g


def describe_features(window: int, leak: bool = True) -> tuple[tuple[str, str, str], ...]:
    """(name, value at token t, returns read) for each feature, for tables and captions."""
    w = _check_int(window, "window", 1, MAX_WINDOW)
    rows = (
        ("return", "r(t)", "t"),
        ("mean", f"mean of r over the last {w}", f"t−{w - 1} … t"),
        ("volatility", f"std of r over the last {w}", f"t−{w - 1} … t"),
        ("level", "log price change since t = 0", "1 … t"),
        ("next return", "r(t+1) ⚠ leak", "t+1"),
    )
    return rows if leak else rows[:LEAK]
