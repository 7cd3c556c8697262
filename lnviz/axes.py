"""Which entries of a (batch, token, feature) tensor share one mean and variance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from lnviz._kernel import normalize_rows
from lnviz.errors import LnvizError, as_float_array, check_eps, check_param, require_finite

Scheme = Literal["batch", "layer", "layer_all", "instance", "group", "rms"]
SCHEMES: tuple[Scheme, ...] = ("batch", "layer", "layer_all", "instance", "group", "rms")

# scheme -> (display name, axes reduced for one statistic, parameter axes)
SCHEME_INFO: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "batch": ("Batch norm (training)", ("batch", "token"), ("feature",)),
    "layer": ("Layer norm, token-wise", ("feature",), ("feature",)),
    "layer_all": ("Layer norm over token and feature", ("token", "feature"), ("token", "feature")),
    "instance": ("Instance norm", ("token",), ("feature",)),
    "group": ("Group norm", ("token", "feature group"), ("feature",)),
    "rms": ("RMS norm, token-wise", ("feature",), ("feature",)),
}


@dataclass(frozen=True)
class Reduction:
    """One scheme applied to x (B, T, F), with everything a page draws."""

    scheme: str
    x: np.ndarray  # (B, T, F) input
    eps: float
    num_groups: int  # feature groups (group norm); 1 otherwise
    labels: np.ndarray  # (B, T, F) int: statistic group of each entry
    mean: np.ndarray  # (G,) group means (zeros for RMS)
    second: np.ndarray  # (G,) population variance, or mean square for RMS
    core: np.ndarray  # (B, T, F) before gain and bias
    output: np.ndarray  # (B, T, F) core * gamma + beta
    gamma: np.ndarray  # param_shape
    beta: np.ndarray  # param_shape
    reduce_axes: tuple[str, ...]
    param_axes: tuple[str, ...]
    centered: bool

    @property
    def group_count(self) -> int:
        return int(self.mean.shape[0])

    @property
    def group_size(self) -> int:
        return int(self.x.size // self.group_count)

    @property
    def param_shape(self) -> tuple[int, ...]:
        return tuple(self.gamma.shape)

    @property
    def finite(self) -> bool:
        return bool(np.isfinite(self.output).all())

    @property
    def anchors(self) -> np.ndarray:
        """(G, 3) index (b, t, f) of the first entry of each group, in C order."""
        flat = self.labels.ravel()  # (B*T*F,)
        first = np.full(self.group_count, flat.size, dtype=np.int64)  # (G,)
        np.minimum.at(first, flat, np.arange(flat.size))
        return np.column_stack(np.unravel_index(first, self.labels.shape))  # (G, 3)

    def members(self, b: int, t: int, f: int) -> np.ndarray:
        """(B, T, F) bool mask of the entries sharing statistics with entry (b, t, f)."""
        return self.labels == self.labels[b, t, f]


def sample_tensor(
    shape: tuple[int, int, int], seed: int, loc: float = 0.0, scale: float = 1.0
) -> np.ndarray:
    """A reproducible standard-normal (B, T, F) tensor, rounded to 2 decimals for display."""
    rng = np.random.default_rng(int(seed))
    return np.round(loc + scale * rng.standard_normal(shape), 2)  # (B, T, F)


def _rows(
    x: np.ndarray, scheme: str, g: int
) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    """Permute x so each statistic group is one row; return rows, permuted shape, axes order."""
    b, t, f = x.shape
    if scheme in ("layer", "rms"):
        return x.reshape(b * t, f), (b, t, f), (0, 1, 2)
    if scheme == "layer_all":
        return x.reshape(b, t * f), (b, t, f), (0, 1, 2)
    if scheme == "instance":
        xp = x.transpose(0, 2, 1)  # (B, F, T)
        return xp.reshape(b * f, t), xp.shape, (0, 2, 1)
    if scheme == "batch":
        xp = x.transpose(2, 0, 1)  # (F, B, T)
        return xp.reshape(f, b * t), xp.shape, (2, 0, 1)
    xp = x.reshape(b, t, g, f // g).transpose(0, 2, 1, 3)  # (B, G, T, F/G)
    return xp.reshape(b * g, t * (f // g)), xp.shape, (0, 2, 1, 3)


def _unrows(
    rows: np.ndarray, shape: tuple[int, ...], order: tuple[int, ...], x_shape: tuple[int, int, int]
) -> np.ndarray:
    """Inverse of _rows: back to (B, T, F)."""
    back = rows.reshape(shape).transpose(np.argsort(order))
    return back.reshape(x_shape)


def reduce_tensor(
    x: ArrayLike,
    scheme: str,
    *,
    num_groups: int = 1,
    eps: float = 1e-5,
    gamma: ArrayLike | None = None,
    beta: ArrayLike | None = None,
) -> Reduction:
    """Normalize x (B, T, F) under one scheme and label each entry by its statistic group."""
    arr = as_float_array(x).astype(np.float64)
    if arr.ndim != 3:
        raise LnvizError("x", arr, "a 3-D (batch, token, feature) tensor")
    require_finite(arr)
    if scheme not in SCHEMES:
        raise LnvizError("scheme", scheme, f"one of {', '.join(SCHEMES)}")
    b, t, f = arr.shape
    g = int(num_groups) if scheme == "group" else 1
    if scheme == "group" and (g < 1 or f % g):
        raise LnvizError("num_groups", num_groups, f"a positive divisor of the {f} features")
    if scheme == "batch" and b * t < 2:
        raise LnvizError("x", arr, "batch statistics need more than one entry per feature")
    e = check_eps(eps)
    _name, reduce_axes, param_axes = SCHEME_INFO[scheme]
    pshape = (t, f) if scheme == "layer_all" else (f,)
    gam = check_param(np.ones(pshape) if gamma is None else gamma, pshape, "gamma", arr.dtype)
    bet = check_param(np.zeros(pshape) if beta is None else beta, pshape, "beta", arr.dtype)
    assert gam is not None and bet is not None
    centered = scheme != "rms"
    rows, pshape_rows, order = _rows(arr, scheme, g)
    res = normalize_rows(np.ascontiguousarray(rows), e, centered=centered)
    row_ids = np.broadcast_to(np.arange(rows.shape[0])[:, None], rows.shape)
    labels = _unrows(row_ids, pshape_rows, order, arr.shape).astype(np.int64)  # (B, T, F)
    core = _unrows(res.y, pshape_rows, order, arr.shape)  # (B, T, F)
    output = core * gam + bet  # (B, T, F); gamma broadcasts over leading axes
    return Reduction(
        scheme,
        arr,
        e,
        g,
        np.ascontiguousarray(labels),
        res.mean,
        res.second,
        np.ascontiguousarray(core),
        output,
        gam,
        bet,
        reduce_axes,
        param_axes,
        centered,
    )


def has_statistics(scheme: str, shape: tuple[int, int, int]) -> bool:
    """Whether a scheme has statistics on a (B, T, F) tensor: batch norm needs B * T >= 2."""
    return not (scheme == "batch" and shape[0] * shape[1] < 2)


def compare_schemes(
    x: ArrayLike, *, num_groups: int = 1, eps: float = 1e-5
) -> dict[str, Reduction]:
    """Every scheme on one tensor, keyed by scheme; batch norm is left out when B * T = 1."""
    arr = np.asarray(x)
    keep = [s for s in SCHEMES if arr.ndim != 3 or has_statistics(s, arr.shape)]
    return {s: reduce_tensor(arr, s, num_groups=num_groups, eps=eps) for s in keep}


@dataclass(frozen=True)
class StatsAgreement:
    """Whether two reductions use the same statistic groups and the same statistics."""

    same_groups: bool  # identical partition of the entries (up to renumbering)
    max_mean_gap: float  # max |mean_a - mean_b| over entries
    max_second_gap: float  # max |second_a - second_b| over entries
    same_param_shape: bool


def statistics_agree(a: Reduction, b: Reduction) -> StatsAgreement:
    """Compare two reductions entry by entry (each entry reads its group's statistics)."""
    if a.x.shape != b.x.shape:
        raise LnvizError("b", b.x.shape, f"a reduction of a tensor of shape {a.x.shape}")
    pairs = np.unique(np.stack([a.labels.ravel(), b.labels.ravel()]), axis=1)  # (2, k)
    same = pairs.shape[1] == a.group_count == b.group_count
    return StatsAgreement(
        same_groups=bool(same),
        max_mean_gap=float(np.abs(a.mean[a.labels] - b.mean[b.labels]).max()),
        max_second_gap=float(np.abs(a.second[a.labels] - b.second[b.labels]).max()),
        same_param_shape=a.param_shape == b.param_shape,
    )


def with_entries(x: ArrayLike, entries: tuple[tuple[int, int, int, float], ...]) -> np.ndarray:
    """A copy of x (B, T, F) with x[b, t, f] = value for each (b, t, f, value)."""
    out = as_float_array(x).astype(np.float64, copy=True)  # (B, T, F)
    for b, t, f, value in entries:
        if not (0 <= b < out.shape[0] and 0 <= t < out.shape[1] and 0 <= f < out.shape[2]):
            raise LnvizError("entries", (b, t, f), f"indices inside the shape {out.shape}")
        out[b, t, f] = value
    return out


def divisors(n: int) -> list[int]:
    """Positive divisors of n: the group counts group norm accepts for n features."""
    return [k for k in range(1, int(n) + 1) if n % k == 0]
