"""Why normalize: a plain stack's spread goes as (g·c_f)^L; layer norm resets it every layer."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lnviz.errors import LnvizError
from lnviz.functional import layer_norm

ACTIVATIONS = ("linear", "relu", "tanh")
MAX_DEPTH = 64
MAX_WIDTH = 256
TOKENS = 32  # tokens pushed through the stack together
EPS = 1e-5  # layer norm's ε, as PyTorch's default


@dataclass(frozen=True)
class Stack:
    """One stack's activations, layer by layer (layer 0 is the input)."""

    normalized: bool
    spread: np.ndarray  # (L+1,) standard deviation over tokens and features
    mean: np.ndarray  # (L+1,) mean over tokens and features
    last: np.ndarray  # (T, d) the last layer's activations


@dataclass(frozen=True)
class Drift:
    """The same random stack with and without layer norm after every layer."""

    depth: int
    width: int
    gain: float
    activation: str
    seed: int
    plain: Stack
    normalized: Stack

    @property
    def factor(self) -> float:
        """The spread's growth per layer without normalization, as predicted."""
        return expected_factor(self.gain, self.activation)

    @property
    def measured_factor(self) -> float:
        """The plain stack's growth per layer, measured: (spread_L / spread_0)^(1/L)."""
        ratio = self.plain.spread[-1] / self.plain.spread[0]
        return float(ratio ** (1 / self.depth)) if ratio > 0 else 0.0


def expected_factor(gain: float, activation: str) -> float:
    """Growth of the spread per layer for small activations: g·c_f (tanh ≈ linear near 0)."""
    return gain / math.sqrt(2.0) if activation == "relu" else gain


def _check(depth: int, width: int, gain: float, activation: str) -> None:
    if not (isinstance(depth, int) and 1 <= depth <= MAX_DEPTH):
        raise LnvizError("depth", depth, f"a whole number from 1 to {MAX_DEPTH}")
    if not (isinstance(width, int) and 2 <= width <= MAX_WIDTH):
        raise LnvizError("width", width, f"a whole number from 2 to {MAX_WIDTH}")
    if not (math.isfinite(gain) and 0.1 <= gain <= 4.0):
        raise LnvizError("gain", gain, "a number from 0.1 to 4")
    if activation not in ACTIVATIONS:
        raise LnvizError("activation", activation, "one of " + ", ".join(ACTIVATIONS))


def _f(x: np.ndarray, activation: str) -> np.ndarray:
    if activation == "relu":
        return np.maximum(x, 0.0)
    if activation == "tanh":
        return np.tanh(x)
    return x


def _run(
    h: np.ndarray, weights: np.ndarray, activation: str, normalized: bool
) -> Stack:  # h: (T, d), weights: (L, d, d)
    spreads, means = [float(h.std())], [float(h.mean())]
    for w in weights:
        h = _f(h @ w, activation)  # (T, d)
        if normalized:
            h = layer_norm(h, (h.shape[-1],), eps=EPS)  # (T, d), each token mean 0, var ~1
        spreads.append(float(h.std()))
        means.append(float(h.mean()))
    return Stack(normalized, np.array(spreads), np.array(means), h)


def activation_drift(
    depth: int = 32, width: int = 64, gain: float = 1.0, activation: str = "tanh", seed: int = 0
) -> Drift:
    """Push TOKENS random tokens through `depth` random layers, with and without layer norm."""
    _check(depth, width, gain, activation)
    rng = np.random.default_rng(seed)
    h0 = rng.standard_normal((TOKENS, width))  # (T, d)
    weights = rng.standard_normal((depth, width, width)) * (gain / math.sqrt(width))  # (L, d, d)
    with np.errstate(over="ignore", invalid="ignore"):
        plain = _run(h0, weights, activation, normalized=False)
    normalized = _run(h0, weights, activation, normalized=True)
    return Drift(depth, width, float(gain), activation, seed, plain, normalized)
