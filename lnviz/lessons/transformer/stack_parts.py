"""The residual stack's parts: sizes, sign weights, inputs, activation, Gram gradient norms."""

from __future__ import annotations

import numpy as np

from lnviz.lessons.transformer import checks as chk

DEPTH_MAX, WIDTH_MIN, WIDTH_MAX, TOKENS_MAX, HIDDEN_MAX = 96, 4, 256, 64, 1024
_GELU_C = float(np.sqrt(2.0 / np.pi))


def check_sizes(
    depth: object, width: object, tokens: object, hidden: object, seed: object
) -> tuple[int, int, int, int, int]:
    L = chk.whole(depth, "depth", 1, DEPTH_MAX)
    d = chk.whole(width, "width", WIDTH_MIN, WIDTH_MAX)
    T = chk.whole(tokens, "tokens", 1, TOKENS_MAX)
    H = 4 * d if hidden is None else chk.whole(hidden, "hidden", 1, HIDDEN_MAX)
    return L, d, T, H, chk.seed(seed)


def packed_signs(seed: int, layer: int, width: int, hidden: int) -> np.ndarray:
    """The 2 d H sign bits of block `layer`, packed 8 to a byte (uint8)."""
    n_words = -(-2 * width * hidden // 64)  # ceil
    bits = np.random.default_rng([seed, layer]).bit_generator.random_raw(n_words)
    return bits.view(np.uint8)


_SIGN_TABLES = {  # byte -> its 8 bits as -1.0 / +1.0, most significant bit first
    np.dtype(t): np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(t) * 2 - 1
    for t in (np.float32, np.float64)
}


def signs(packed: np.ndarray, width: int, hidden: int, dtype: np.dtype) -> tuple[np.ndarray, ...]:
    """S1 (d, H) and S2 (H, d) of +-1 from the packed bits: one gather of 8 values per byte."""
    n = width * hidden
    s = np.take(_SIGN_TABLES[dtype], packed, axis=0).reshape(-1)[: 2 * n]  # (2n,)
    return s[:n].reshape(width, hidden), s[n:].reshape(hidden, width)


def xavier_scale(width: int, hidden: int) -> float:
    """a = sqrt(2 / (fan_in + fan_out)): +-a has Xavier's variance 2 / (d + H)."""
    return float(np.sqrt(2.0 / (width + hidden)))


def stack_weights(
    layer: int, width: int, hidden: int | None = None, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """W1 (d, H) and W2 (H, d) of block `layer` (1-based): entries ±sqrt(2 / (d + H))."""
    _, d, _, H, s = check_sizes(1, width, 1, hidden, seed)
    packed = packed_signs(s, chk.whole(layer, "layer", 1, DEPTH_MAX), d, H)
    s1, s2 = signs(packed, d, H, np.dtype(np.float64))
    a = xavier_scale(d, H)
    return a * s1, a * s2


def stack_inputs(width: int, tokens: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """x_0 (T, d) and the loss projection r (T, d), both N(0, 1), from default_rng([seed, 0])."""
    _, d, T, _, s = check_sizes(1, width, tokens, None, seed)
    both = np.random.default_rng([s, 0]).standard_normal((2, T, d))  # (2, T, d)
    return both[0], both[1]


def activate(h: np.ndarray, activation: str) -> tuple[np.ndarray, np.ndarray]:
    """phi(h) and phi'(h) (both (..., H))."""
    if activation == "relu":
        mask = h > 0
        return h * mask, mask.astype(h.dtype)
    inner = _GELU_C * (h + 0.044715 * h**3)
    t = np.tanh(inner)
    dinner = _GELU_C * (1.0 + 3 * 0.044715 * h * h)
    return 0.5 * h * (1.0 + t), 0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * dinner


def input_scale(placement: str, k: int) -> float:
    """c, the factor on block k + 1's layer-norm output: 1 / sqrt(k + 1) for "scaled", else 1."""
    return 1.0 / float(np.sqrt(k + 1.0)) if placement == "scaled" else 1.0


def gram_norm(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """|a^T g|_F per placement from T x T Grams: sum_st (a_s . a_t)(g_s . g_t), no (n, m) matrix."""
    aa = a @ a.transpose(0, 2, 1)  # (P, T, T)
    gg = g @ g.transpose(0, 2, 1)  # (P, T, T)
    return np.sqrt(np.maximum((aa * gg).sum(axis=(1, 2), dtype=np.float64), 0.0))
