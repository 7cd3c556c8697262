"""Which input tokens each normalized token depends on, for four statistic groupings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.channels import batch_norm, instance_norm
from lnviz.errors import LnvizError, as_float_array, check_eps, require_finite
from lnviz.functional import layer_norm

SCHEMES = ("token", "sequence", "causal", "batch")
SCHEME_INFO = {  # scheme -> (display name, the statistic group of entry (b, t, f))
    "token": ("Token-wise layer norm", "the F features of token t"),
    "sequence": ("Pooled over the sequence", "feature f over all T tokens of the example"),
    "causal": ("Causal (expanding) statistics", "feature f over tokens 0 … t of the example"),
    "batch": ("Batch norm (training)", "feature f over every example and token of the batch"),
}
TOLERANCE = 1e-10  # a Jacobian entry counts as a dependence above this fraction of the largest


@dataclass(frozen=True)
class SeqNorm:
    """x (B, T, F) normalized under one scheme, with the statistics each entry used."""

    scheme: str
    eps: float
    x: np.ndarray  # (B, T, F)
    mean: np.ndarray  # (B, T, F) mean of the group of each entry
    var: np.ndarray  # (B, T, F) population variance of that group
    count: np.ndarray  # (B, T, F) size n of that group
    y: np.ndarray  # (B, T, F) output (no gain or bias)


def _check(x: ArrayLike, scheme: str, eps: float) -> tuple[np.ndarray, float]:
    arr = as_float_array(x).astype(np.float64)
    if arr.ndim != 3:
        raise LnvizError("x", arr, "a 3-D (batch, token, feature) tensor")
    require_finite(arr)
    if scheme not in SCHEMES:
        raise LnvizError("scheme", scheme, "one of " + ", ".join(SCHEMES))
    if scheme == "batch" and arr.shape[0] * arr.shape[1] < 2:
        raise LnvizError("x", arr, "batch statistics need B * T >= 2")
    return arr, check_eps(eps)


def _prefix_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, population variance and count over tokens 0..t, per (b, f); two-pass."""
    t = x.shape[1]
    mask = np.tril(np.ones((t, t)))  # (T, S) s <= t
    count = mask.sum(axis=1)  # (T,)
    mean = np.einsum("ts,bsf->btf", mask, x) / count[:, None]  # (B, T, F)
    dev = x[:, None, :, :] - mean[:, :, None, :]  # (B, T, S, F)
    var = np.einsum("ts,btsf->btf", mask, dev**2) / count[:, None]  # (B, T, F)
    return mean, var, np.broadcast_to(count[None, :, None], x.shape)


def normalize(x: ArrayLike, scheme: str, eps: float = 1e-5) -> SeqNorm:
    """y = (x - mu_G) / sqrt(q_G + eps) with the statistic groups G of `scheme`."""
    arr, e = _check(x, scheme, eps)
    if scheme == "causal" and e == 0:
        raise LnvizError("eps", eps, "eps > 0: the first token's causal group has variance 0")
    b, t, f = arr.shape
    if scheme == "causal":
        mean, var, count = _prefix_stats(arr)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (arr - mean) / np.sqrt(var + e)  # (B, T, F)
        return SeqNorm(scheme, e, arr, mean, var, np.array(count), y)
    axes = {"token": (2,), "sequence": (1,), "batch": (0, 1)}[scheme]
    mean = arr.mean(axis=axes, keepdims=True)  # reduced dims kept
    var = ((arr - mean) ** 2).mean(axis=axes, keepdims=True)
    n = int(np.prod([arr.shape[a] for a in axes]))
    if scheme == "token":
        y = layer_norm(arr, f, eps=e)  # (B, T, F)
    elif scheme == "sequence":
        y = instance_norm(arr.transpose(0, 2, 1), eps=e).transpose(0, 2, 1)  # (B, T, F)
    else:
        y = batch_norm(arr.transpose(0, 2, 1), training=True, eps=e)[0].transpose(0, 2, 1)
    full = (b, t, f)
    return SeqNorm(
        scheme,
        e,
        arr,
        np.broadcast_to(mean, full).copy(),
        np.broadcast_to(var, full).copy(),
        np.full(full, n),
        np.ascontiguousarray(y),
    )


def _blocks(n: SeqNorm) -> np.ndarray:
    """Nonzero blocks of dy/dx = (delta - 1/n - v v^T / (n S)) / sqrt(S), laid out by scheme."""
    b, t, f = n.x.shape
    v = n.x - n.mean  # (B, T, F) deviation of each entry from its own group mean
    if n.scheme == "token":
        s = n.var[..., 0] + n.eps  # (B, T)
        eye = np.eye(f) - 1.0 / f  # (F, F)
        j = eye - v[..., :, None] * v[..., None, :] / (f * s[..., None, None])  # (B, T, F, F)
        return j / np.sqrt(s)[..., None, None]
    if n.scheme == "batch":
        s = n.var[0, 0] + n.eps  # (F,)
        vf = v.transpose(2, 0, 1).reshape(f, b * t)  # (F, BT)
        m = b * t
        u = vf / np.sqrt(m * s)[:, None]  # (F, BT): u u^T = v v^T / (m S)
        j = u[:, :, None] * u[:, None, :]  # (F, BT, BT), built in place from here on
        np.subtract(np.eye(m) - 1.0 / m, j, out=j)
        j /= np.sqrt(s)[:, None, None]
        return j.reshape(f, b, t, b, t)  # (F, B, T, B, S)
    xf = n.x.transpose(0, 2, 1)  # (B, F, S)
    mf = n.mean.transpose(0, 2, 1)  # (B, F, T) mean used by output token t
    dev = xf[:, :, None, :] - mf[:, :, :, None]  # (B, F, T, S) x_s - mean_t
    own = np.diagonal(dev, axis1=2, axis2=3)  # (B, F, T) v_t of output t
    s = (n.var + n.eps).transpose(0, 2, 1)  # (B, F, T)
    cnt = n.count.transpose(0, 2, 1).astype(np.float64)  # (B, F, T)
    inner = np.eye(t) - 1.0 / cnt[..., None] - own[..., None] * dev / (cnt * s)[..., None]
    mask = np.tril(np.ones((t, t))) if n.scheme == "causal" else np.ones((t, t))  # (T, S)
    return mask * inner / np.sqrt(s)[..., None]  # (B, F, T, S)


def jacobian_row(n: SeqNorm, entry: tuple[int, int, int]) -> np.ndarray:
    """dy[b, t, f] / dx as a (B, T, F) array, for one output entry (b, t, f)."""
    b, t, f = entry
    if not all(0 <= i < s for i, s in zip(entry, n.x.shape, strict=True)):
        raise LnvizError("entry", entry, f"indices inside the shape {n.x.shape}")
    blocks = _blocks(n)
    row = np.zeros(n.x.shape)  # (B, T, F)
    if n.scheme == "token":
        row[b, t, :] = blocks[b, t, f]
    elif n.scheme == "batch":
        row[:, :, f] = blocks[f, b, t]  # (B', S)
    else:
        row[b, :, f] = blocks[b, f, t]  # (S,)
    return row


@dataclass(frozen=True)
class Dependence:
    """Token-level and example-level dependence of y on an input, from the exact Jacobian."""

    scheme: str
    wrt: str  # "x": the normalized tensor; "returns": the market returns behind it
    token: np.ndarray  # (T, S) max |dy[:, t, :] / d input at time columns[s]|
    example: np.ndarray  # (B, B) max |dy[b] / d input of example b'|
    columns: np.ndarray  # (S,) the time of each input column (token s, or return time tau)

    @property
    def depends(self) -> np.ndarray:
        """(T, S) bool: the Jacobian entry is nonzero (above TOLERANCE of the largest)."""
        return self.token > TOLERANCE * max(float(self.token.max()), 1e-300)

    @property
    def future(self) -> np.ndarray:
        """(T, S) bool: the input column lies after the output token."""
        return self.columns[None, :] > np.arange(self.token.shape[0])[:, None]

    @property
    def future_pairs(self) -> int:
        """Number of (t, s) pairs with s > t on which y_t depends."""
        return int((self.depends & self.future).sum())

    @property
    def future_tokens(self) -> int:
        """Number of output tokens with at least one dependence on a later input."""
        return int((self.depends & self.future).any(axis=1).sum())

    @property
    def cross_examples(self) -> int:
        """Number of ordered pairs of different examples (b, b') with y_b depending on b'."""
        big = self.example > TOLERANCE * max(float(self.example.max()), 1e-300)
        return int(big.sum() - np.diag(big).sum())


def dependence(
    n: SeqNorm, feature_jacobian: np.ndarray | None = None, first: int = 0
) -> Dependence:
    """max |dy/dx| per (output token, input token), or per return time by dy/dr = (dy/dx) g."""
    b, t, f = n.x.shape
    jb = _blocks(n)
    diag = n.scheme in ("sequence", "causal")
    if feature_jacobian is None:
        if n.scheme == "token":
            tok = np.diag(np.abs(jb).max(axis=(0, 2, 3)))  # (T, T)
            ex = np.diag(np.abs(jb).max(axis=(1, 2, 3)))  # (B, B)
        elif diag:
            tok = np.abs(jb).max(axis=(0, 1))  # (T, S)
            ex = np.diag(np.abs(jb).max(axis=(1, 2, 3)))  # (B, B)
        else:
            np.abs(jb, out=jb)  # jb is ours: no second copy of the batch Jacobian
            tok = jb.max(axis=(0, 1, 3))  # (T, S)
            ex = jb.max(axis=(0, 2, 4))  # (B, B')
        return Dependence(n.scheme, "x", tok, ex, np.arange(t))
    g = np.asarray(feature_jacobian, dtype=np.float64)
    if g.ndim != 4 or g.shape[:3] != (b, t, f):
        raise LnvizError("feature_jacobian", g, f"shape ({b}, {t}, {f}, N)")
    nr = g.shape[3]
    if not 0 <= first < nr:
        raise LnvizError("first", first, f"a column index from 0 to {nr - 1}")
    if n.scheme == "token":
        e = np.einsum("btfg,btgn->btfn", jb, g)  # (B, T, F, N)
        tok = np.abs(e).max(axis=(0, 2))  # (T, N)
        ex = np.diag(np.abs(e).max(axis=(1, 2, 3)))  # (B, B)
    elif diag:
        e = jb @ g.transpose(0, 2, 1, 3)  # (B, F, T, N)
        tok = np.abs(e).max(axis=(0, 1))  # (T, N)
        ex = np.diag(np.abs(e).max(axis=(1, 2, 3)))  # (B, B)
    else:
        tok, ex = np.zeros((t, nr)), np.zeros((b, b))
        for k in range(f):  # one feature at a time keeps the temporaries small
            jm = jb[k].transpose(2, 0, 1, 3).reshape(b, b * t, t)  # (B', BT, S)
            e = np.abs(jm @ g[:, :, k, :]).reshape(b, b, t, nr)  # (B', B, T, N)
            np.maximum(tok, e.max(axis=(0, 1)), out=tok)  # (T, N)
            np.maximum(ex, e.max(axis=(2, 3)).T, out=ex)  # (B, B')
    history = nr - t - 1
    return Dependence(n.scheme, "returns", tok[:, first:], ex, np.arange(first, nr) - history)
