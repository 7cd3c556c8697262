"""QK-norm caps logits at tau sqrt(d); layer norm (eps = 0) makes every distinct key selectable."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz import analyze_core
from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk
from lnviz.lessons.transformer.sphere import plane_basis

QK_NORMS = ("none", "layer", "rms")
SCALE_MAX, TAU_MAX, KEYS_MAX, D_MAX, SCALES_MAX = 1e3, 100.0, 16, 16, 512


@dataclass(frozen=True)
class AttentionScan:
    """Softmax attention of one query over n keys for each logit scale s."""

    query: np.ndarray  # (d,)
    keys: np.ndarray  # (n, d)
    scales: np.ndarray  # (S,) s
    qk_norm: str  # "none", "layer" or "rms"
    tau: float  # learned logit scale (used with QK-norm)
    eps: float
    query_used: np.ndarray  # (S, d) sqrt(s) q, normalized with QK-norm
    keys_used: np.ndarray  # (S, n, d) sqrt(s) k_j, normalized with QK-norm
    logits: np.ndarray  # (S, n)
    weights: np.ndarray  # (S, n) softmax of the logits; each row sums to 1
    entropy: np.ndarray  # (S,) -sum w log w, in nats
    max_entropy: float  # log n: uniform attention
    logit_bound: float  # tau sqrt(d) with QK-norm, inf without
    max_abs_logit: np.ndarray  # (S,)


def _check_qk(query: ArrayLike, keys: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    ks = chk.matrix(keys, "keys", rows=(1, KEYS_MAX), cols=(2, D_MAX))
    d = ks.shape[1]
    try:
        q = np.asarray(query, dtype=np.float64)
    except (TypeError, ValueError):
        q = np.full(0, np.nan)
    if q.shape != (d,) or not np.isfinite(q).all():
        raise LnvizError("query", query, f"a finite vector of the keys' dimension, {d}")
    return q, ks


def _normalize(x: np.ndarray, how: str, eps: float) -> np.ndarray:
    """N(x) over the last axis: layer norm or RMS norm without gain, or x itself."""
    if how == "none":
        return x
    if how == "layer":
        x = x - x.mean(axis=-1, keepdims=True)
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)


def attention_scan(
    query: ArrayLike,
    keys: ArrayLike,
    scales: ArrayLike = (0.25, 1.0, 4.0, 16.0, 64.0),
    *,
    qk_norm: str = "none",
    tau: float = 1.0,
    eps: float = 1e-5,
) -> AttentionScan:
    """Logits, softmax weights and entropy for each scale s (0 < s <= 1000, up to 512 of them)."""
    q, ks = _check_qk(query, keys)
    d = q.shape[0]
    how = chk.choice(qk_norm, "qk_norm", QK_NORMS)
    t = chk.number(tau, "tau", 0.0, TAU_MAX, open_low=True)
    e = chk.number(eps, "eps", 0.0, 1.0)
    s_arr = np.asarray(scales, dtype=np.float64).ravel() if _numeric(scales) else None
    if s_arr is None or not 1 <= s_arr.size <= SCALES_MAX:
        raise LnvizError("scales", scales, f"1 to {SCALES_MAX} numbers > 0 and <= {SCALE_MAX:g}")
    for s in s_arr:
        chk.number(s, "scales", 0.0, SCALE_MAX, open_low=True)
    root = np.sqrt(s_arr)[:, None]  # (S, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        q_used = _normalize(root * q, how, e)  # (S, d)
        k_used = _normalize(root[:, :, None] * ks, how, e)  # (S, n, d)
    if not (np.isfinite(q_used).all() and np.isfinite(k_used).all()):
        raise LnvizError("eps", e, "eps > 0 when the query or a key is constant (0 / 0)")
    factor = t if how != "none" else 1.0
    logits = factor * np.einsum("sd,snd->sn", q_used, k_used) / np.sqrt(d)  # (S, n)
    shifted = logits - logits.max(axis=1, keepdims=True)  # (S, n)
    w = np.exp(shifted)
    w /= w.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(w > 0, w * np.log(w), 0.0)
    return AttentionScan(
        query=q,
        keys=ks,
        scales=s_arr,
        qk_norm=how,
        tau=t,
        eps=e,
        query_used=q_used,
        keys_used=k_used,
        logits=logits,
        weights=w,
        entropy=-plogp.sum(axis=1),
        max_entropy=float(np.log(ks.shape[0])),
        logit_bound=t * float(np.sqrt(d)) if how != "none" else float("inf"),
        max_abs_logit=np.abs(logits).max(axis=1),
    )


def _numeric(value: object) -> bool:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.dtype.kind in "biuf" and not isinstance(value, (str, bytes))


@dataclass(frozen=True)
class Selectability:
    """Which keys some query makes the strict argmax of q . k (a hull vertex of the keys)."""

    keys: np.ndarray  # (n, d) as given
    layer_norm: bool  # the keys went through layer norm (no gain) first
    eps: float
    points: np.ndarray  # (n, d) what the query is compared with: keys or LN(keys)
    selectable: np.ndarray  # (n,) bool
    witness: np.ndarray  # (n, d) a unit query selecting key j; NaN where none exists
    share: np.ndarray  # (n,) fraction of query directions (angle / 2 pi) that select key j
    coordinates: np.ndarray  # (n, 2) the 2-D points the hull was taken of


def _hull_vertices(p: np.ndarray, tol: float) -> list[int]:
    """Strict convex-hull vertices of p (n, 2), counter-clockwise (Andrew's monotone chain)."""
    order = sorted(range(len(p)), key=lambda i: (p[i, 0], p[i, 1]))

    def cross(o: int, a: int, b: int) -> float:
        return float(
            (p[a, 0] - p[o, 0]) * (p[b, 1] - p[o, 1]) - (p[a, 1] - p[o, 1]) * (p[b, 0] - p[o, 0])
        )

    def chain(idx: list[int]) -> list[int]:
        out: list[int] = []
        for i in idx:
            while len(out) >= 2 and cross(out[-2], out[-1], i) <= tol:
                out.pop()
            if out and np.abs(p[out[-1]] - p[i]).max() <= tol:
                continue  # a repeat of the last point
            out.append(i)
        return out

    lower, upper = chain(order), chain(order[::-1])
    hull = lower[:-1] + upper[:-1]
    return hull if len(hull) >= 1 else lower[:1]


def selectable_keys(
    keys: ArrayLike, *, layer_norm: bool = False, eps: float = 0.0
) -> Selectability:
    """Keys some q makes the strict argmax of q . k: the 2-D hull's vertices (1^perp after LN)."""
    ks = chk.matrix(keys, "keys", rows=(1, KEYS_MAX), cols=(2, 3))
    n, d = ks.shape
    e = chk.number(eps, "eps", 0.0, 1.0)
    if layer_norm:
        if d != 3:
            raise LnvizError("keys", ks, "keys of dimension 3 with layer_norm=True (a 2-D plane)")
        core = analyze_core(ks, e)
        if not np.isfinite(core.core).all():
            raise LnvizError("eps", e, "eps > 0 when a key is constant (0 / 0)")
        points, basis = core.core, plane_basis(3)  # (n, 3), (3, 2)
        coords = points @ basis  # (n, 2)
    else:
        if d != 2:
            raise LnvizError("keys", ks, "keys of dimension 2 without layer norm")
        points, basis, coords = ks, np.eye(2), ks
    tol = 1e-12 * max(1.0, float(np.abs(coords).max())) ** 2
    hull = _hull_vertices(coords, tol)
    selectable = np.zeros(n, bool)
    witness = np.full((n, d), np.nan)
    share = np.zeros(n)
    m = len(hull)
    repeated = [j for j in hull if (np.abs(coords - coords[j]).max(axis=1) <= tol).sum() > 1]
    for pos, j in enumerate(hull):
        if j in repeated:
            continue  # a tie with an identical key: never the strict argmax
        if m == 1:
            direction, angle = np.array([1.0, 0.0]), 2 * np.pi
        elif m == 2:
            direction, angle = coords[j] - coords[hull[1 - pos]], np.pi
        else:
            prev, nxt = coords[hull[pos - 1]], coords[hull[(pos + 1) % m]]
            n1 = _outward(coords[j] - prev)  # normal of edge prev -> j
            n2 = _outward(nxt - coords[j])  # normal of edge j -> next
            direction = n1 + n2
            angle = float(np.arccos(np.clip(n1 @ n2, -1.0, 1.0)))  # exterior angle
        direction = direction / np.linalg.norm(direction)
        selectable[j] = True
        witness[j] = basis @ direction
        share[j] = angle / (2 * np.pi)
    return Selectability(ks, bool(layer_norm), e, points, selectable, witness, share, coords)


def _outward(edge: np.ndarray) -> np.ndarray:
    """Unit outward normal of a counter-clockwise hull edge."""
    normal = np.array([edge[1], -edge[0]])
    return normal / np.linalg.norm(normal)


def hidden_key_example() -> tuple[np.ndarray, np.ndarray]:
    """A query, 4 keys in R^3: the last, a convex mix of the rest, is selectable only after LN."""
    keys = np.array([[-2.0, 3.0, 3.0], [1.0, 0.0, 1.0], [3.0, 1.0, -1.0], [0.0, 0.0, 0.0]])
    keys[3] = 0.3 * keys[0] + 0.3 * keys[1] + 0.4 * keys[2]  # (0.9, 1.3, 0.8)
    witness = selectable_keys(keys, layer_norm=True).witness[3]
    return witness * np.sqrt(3), keys
