"""Group, instance and batch normalization of (N, C, *) arrays, as torch.nn.functional."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from lnviz._kernel import normalize_rows
from lnviz.errors import (
    LnvizError,
    as_float_array,
    check_eps,
    check_param,
    compute_dtype,
    require_finite,
)


def group_norm(
    x: ArrayLike,
    num_groups: int,
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    """y[n, c] = (x[n, c] - mu[n, g]) / sqrt(var[n, g] + eps) * w[c] + b[c], g = c // (C/G)."""
    arr = as_float_array(x, min_ndim=2)
    n, c = arr.shape[:2]
    if isinstance(num_groups, bool) or not isinstance(num_groups, (int, np.integer)):
        raise LnvizError("num_groups", num_groups, "a positive int that divides the channels")
    if num_groups < 1 or c % num_groups:
        raise LnvizError(
            "num_groups", num_groups, f"a positive divisor of the {c} channels (x.shape[1])"
        )
    x2 = _contiguous(arr).reshape(n * int(num_groups), -1)  # (N*G, C/G * S)
    y2 = normalize_rows(x2, check_eps(eps)).y
    return _per_channel_affine(y2.reshape(arr.shape), weight, bias, arr.dtype)


def instance_norm(
    x: ArrayLike,
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    """Statistics per channel over positions; var = 0 at eps = 0 gives 0, as torch does, not 0/0."""
    arr = as_float_array(x)
    if arr.ndim < 3:
        raise LnvizError("x", arr, "instance_norm needs shape (N, C, L, ...) with position axes")
    n, c = arr.shape[:2]
    e = check_eps(eps)
    res = normalize_rows(_contiguous(arr).reshape(n * c, -1), e)  # rows (N*C, S)
    y2 = res.y
    if e == 0:
        y2[res.second == 0] = 0.0  # torch: 1/sqrt(var + eps) := 0 when var = eps = 0
    return _per_channel_affine(y2.reshape(arr.shape), weight, bias, arr.dtype)


def batch_norm(
    x: ArrayLike,
    running_mean: ArrayLike | None = None,
    running_var: ArrayLike | None = None,
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Per-channel batch norm; deliberate difference from torch: eps = 0 allowed in training."""
    arr = as_float_array(x, min_ndim=2)
    c = arr.shape[1]
    e = check_eps(eps)
    ctype = compute_dtype(arr.dtype)
    rm = check_param(running_mean, (c,), "running_mean", ctype)
    rv = check_param(running_var, (c,), "running_var", ctype)
    xc = np.moveaxis(arr, 1, 0).astype(ctype).reshape(c, -1)  # (C, N*S) copy
    m = xc.shape[1]
    if not training:
        if rm is None or rv is None:
            raise LnvizError(
                "running_mean/running_var",
                None,
                "evaluation mode (training=False) needs both running statistics",
            )
        if (rv < 0).any():
            raise LnvizError("running_var", running_var, "variances must be >= 0")
        require_finite(arr, "x")  # training checks x in the kernel; evaluation must too
        with np.errstate(divide="ignore", invalid="ignore"):
            y2 = (xc - rm[:, None]) / np.sqrt(rv[:, None] + e)  # (C, N*S)
        new_rm, new_rv = rm.copy(), rv.copy()  # never hand back the caller's own arrays
    else:
        if m < 2:
            raise LnvizError("x", arr, "training batch norm needs more than one value per channel")
        mom = _check_momentum(momentum)
        res = normalize_rows(xc, e)
        y2 = res.y
        new_rm = None if rm is None else (1 - mom) * rm + mom * res.mean
        new_rv = None if rv is None else (1 - mom) * rv + mom * res.second * (m / (m - 1))
    y = np.moveaxis(y2.reshape((c, arr.shape[0], *arr.shape[2:])), 0, 1)
    y = _per_channel_affine(y, weight, bias, arr.dtype)

    def cast(s):
        return None if s is None else s.astype(arr.dtype, copy=False)

    return y, cast(new_rm), cast(new_rv)


def _check_momentum(momentum: object) -> float:
    try:
        if isinstance(momentum, (str, bytes)):  # float("0.1") would parse: refuse text
            raise TypeError("momentum")
        mom = float(momentum)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise LnvizError("momentum", momentum, "a number in [0, 1]") from None
    if not 0.0 <= mom <= 1.0:
        raise LnvizError("momentum", momentum, "a number in [0, 1]")
    return mom


def _contiguous(arr: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(arr, dtype=compute_dtype(arr.dtype))


def _per_channel_affine(
    y: np.ndarray, weight: ArrayLike | None, bias: ArrayLike | None, dtype: np.dtype
) -> np.ndarray:
    """y * weight[c] + bias[c] with (C,) parameters broadcast over the position axes."""
    c = y.shape[1]
    w = check_param(weight, (c,), "weight", y.dtype)
    b = check_param(bias, (c,), "bias", y.dtype)
    expand = (c,) + (1,) * (y.ndim - 2)  # (C, 1, ..., 1)
    if w is not None:
        y = y * w.reshape(expand)
    if b is not None:
        y = y + b.reshape(expand)
    return np.ascontiguousarray(y).astype(dtype, copy=False)
