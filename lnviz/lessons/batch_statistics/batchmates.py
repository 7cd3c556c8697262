"""Batch norm's output for an example depends on its batchmates; layer norm's never does."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.channels import batch_norm
from lnviz.errors import LnvizError, as_float_array, check_eps, require_finite
from lnviz.functional import layer_norm
from lnviz.lessons.batch_statistics.running import MAX_BATCH, Stream, _size


@dataclass(frozen=True)
class BatchSizes:
    """Example 0 of a pool, normalized inside the batches pool[:1], pool[:2], ..., pool[:N]."""

    pool: np.ndarray  # (N, F) examples; row 0 is the one followed
    eps: float
    sizes: np.ndarray  # (N,) batch sizes 1..N
    bn: np.ndarray  # (N, F) batch norm (training) output of example 0; NaN row for size 1
    ln: np.ndarray  # (N, F) layer norm output of example 0 (the same row for every size)
    refused: str  # why batch norm refuses the batch of one (lnviz's own message)
    pair: np.ndarray  # (2, F) batch norm output of the batch pool[:2]
    pair_ln: np.ndarray  # (2, F) layer norm output of the same two examples
    population: np.ndarray | None  # (F,) example 0 standardized with the true mean and variance


def _pool(x: object, name: str = "pool") -> np.ndarray:
    arr = as_float_array(x, name, min_ndim=2).astype(np.float64)  # (N, F)
    if arr.ndim != 2:
        raise LnvizError(name, arr, "a (batch, features) array")
    require_finite(arr, name)
    return arr


def batch_size_effect(
    pool: object, eps: float = 1e-5, mean: object = None, var: object = None
) -> BatchSizes:
    """bn[B - 1] = BN_train(pool[:B])[0], ln[B - 1] = LN(pool[:B])[0] for B = 1..N."""
    arr = _pool(pool)  # (N, F)
    e = check_eps(eps)
    n, f = arr.shape
    if n < 2:
        raise LnvizError("pool", arr, "at least 2 examples, to compare batch sizes")
    bn = np.full((n, f), np.nan)  # (N, F)
    ln = np.empty((n, f))  # (N, F)
    refused = ""
    for b in range(1, n + 1):
        try:
            bn[b - 1] = batch_norm(arr[:b], training=True, eps=e)[0][0]
        except LnvizError as err:
            refused = err.accepted
        ln[b - 1] = layer_norm(arr[:b], f, eps=e)[0]
    pair = batch_norm(arr[:2], training=True, eps=e)[0]  # (2, F)
    pair_ln = layer_norm(arr[:2], f, eps=e)  # (2, F)
    population = None
    if mean is not None and var is not None:
        mu, v = _pool([mean, var], "mean/var")  # (F,) each
        if mu.size != f or (v < 0).any():
            raise LnvizError("mean/var", (mean, var), f"{f} means and {f} variances >= 0")
        population = (arr[0] - mu) / np.sqrt(v + e)  # (F,)
    sizes = np.arange(1, n + 1)  # (N,)
    return BatchSizes(arr, e, sizes, bn, ln, refused, pair, pair_ln, population)


@dataclass(frozen=True)
class Spread:
    """Batch statistics of standard-normal batches: how far one batch is from the truth."""

    sizes: np.ndarray  # (K,) batch sizes
    mean: np.ndarray  # (K, R) batch means (true mean 0)
    biased: np.ndarray  # (K, R) biased batch variances (true variance 1)
    unbiased: np.ndarray  # (K, R) unbiased batch variances, biased * B / (B - 1)
    expected_biased: np.ndarray  # (K,) E[biased] = (B - 1) / B


def estimator_spread(sizes: tuple[int, ...], repeats: int = 200, seed: int = 0) -> Spread:
    """R batches of each size B from N(0, 1): mean, sum((x - m)^2) / B and / (B - 1)."""
    ks = [_size(b, "size", 2, MAX_BATCH) for b in sizes]
    r = _size(repeats, "repeats", 1, 5000)
    rng = np.random.default_rng(_size(seed, "seed", 0, 2**32 - 1))
    means, biased = np.empty((len(ks), r)), np.empty((len(ks), r))
    for i, b in enumerate(ks):
        z = rng.standard_normal((r, b))  # (R, B)
        means[i] = z.mean(axis=1)  # (R,)
        biased[i] = ((z - means[i][:, None]) ** 2).mean(axis=1)  # (R,) divisor B
    sz = np.array(ks)  # (K,)
    unbiased = biased * (sz / (sz - 1))[:, None]  # (K, R)
    return Spread(sz, means, biased, unbiased, (sz - 1) / sz)


@dataclass(frozen=True)
class Companions:
    """One example placed into several batches of the stream in place of their first row."""

    example: np.ndarray  # (F,) the example followed
    steps: np.ndarray  # (R,) stream steps whose other B - 1 rows are the companions
    batches: np.ndarray  # (R, B, F) row 0 is the example
    batch_mean: np.ndarray  # (R, F)
    batch_var: np.ndarray  # (R, F) biased
    bn: np.ndarray  # (R, F) batch norm (training) output of the example
    ln: np.ndarray  # (R, F) layer norm output of the example
    bn_range: np.ndarray  # (F,) max - min of bn over the batches
    ln_range: np.ndarray  # (F,) max - min of ln over the batches (0 up to rounding)


def companions(stream: Stream, sets: int = 5, eps: float = 1e-5) -> Companions:
    """x[0, 0] with the companions x[t, 1:] of `sets` steps t: BN_train moves with them, LN not."""
    x = stream.x  # (S, B, F)
    s, b, f = x.shape
    if b < 2:
        raise LnvizError("batch", b, "at least 2, so the example has companions")
    n = _size(sets, "sets", 1, s)
    e = check_eps(eps)
    steps = np.unique(np.linspace(0, s - 1, n).round().astype(int))  # (R,)
    batches = x[steps].copy()  # (R, B, F)
    batches[:, 0, :] = x[0, 0]
    bn = np.stack([batch_norm(bt, training=True, eps=e)[0][0] for bt in batches])  # (R, F)
    ln = np.stack([layer_norm(bt, f, eps=e)[0] for bt in batches])  # (R, F)
    mean = batches.mean(axis=1)  # (R, F)
    var = ((batches - mean[:, None, :]) ** 2).mean(axis=1)  # (R, F)
    return Companions(
        x[0, 0].copy(), steps, batches, mean, var, bn, ln, np.ptp(bn, axis=0), np.ptp(ln, axis=0)
    )
