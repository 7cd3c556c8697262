"""Layer and RMS norm as torch.nn.functional, with a shortcut for already-valid arguments."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from lnviz._kernel import normalize_rows
from lnviz.errors import as_float_array, check_eps, check_param, check_shape, compute_dtype

_RMS_EPS = {  # default_rms_eps of the float dtypes, looked up instead of np.finfo per call
    np.dtype(np.float16): float(np.finfo(np.float32).eps),
    np.dtype(np.float32): float(np.finfo(np.float32).eps),
    np.dtype(np.float64): float(np.finfo(np.float64).eps),
}


def layer_norm(
    x: ArrayLike,
    normalized_shape: int | Sequence[int],
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    """y = (x - mu) / sqrt(var + eps) * weight + bias over the trailing dimensions."""
    arr = as_float_array(x)
    shape = _trailing_shape(normalized_shape, arr.shape)
    return _normalize_trailing(arr, shape, weight, bias, check_eps(eps), centered=True)


def default_rms_eps(dtype: np.dtype) -> float:
    """PyTorch's eps for rms_norm(eps=None): machine eps of the accumulation type."""
    if isinstance(dtype, np.dtype) and dtype in _RMS_EPS:
        return _RMS_EPS[dtype]
    return float(np.finfo(compute_dtype(np.dtype(dtype))).eps)


def rms_norm(
    x: ArrayLike,
    normalized_shape: int | Sequence[int],
    weight: ArrayLike | None = None,
    eps: float | None = None,
) -> np.ndarray:
    """y = x / sqrt(mean(x^2) + eps) * weight over the trailing dimensions; no centring."""
    arr = as_float_array(x)
    shape = _trailing_shape(normalized_shape, arr.shape)
    e = default_rms_eps(arr.dtype) if eps is None else check_eps(eps)
    return _normalize_trailing(arr, shape, weight, None, e, centered=False)


def _trailing_shape(normalized_shape: object, x_shape: tuple[int, ...]) -> tuple[int, ...]:
    """check_shape, returning at once when normalized_shape is x's trailing tuple of ints."""
    if (
        type(normalized_shape) is tuple
        and normalized_shape
        and x_shape[-len(normalized_shape) :] == normalized_shape
        and all(type(d) is int for d in normalized_shape)
    ):
        return normalized_shape
    return check_shape(normalized_shape, x_shape)


def _params(
    weight: ArrayLike | None, bias: ArrayLike | None, shape: tuple[int, ...], ctype: np.dtype
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """check_param for weight, then bias, with a shortcut when both already fit."""
    if _fits(weight, shape, ctype) and _fits(bias, shape, ctype):
        return weight, bias  # type: ignore[return-value]
    return check_param(weight, shape, "weight", ctype), check_param(bias, shape, "bias", ctype)


def _fits(param: object, shape: tuple[int, ...], ctype: np.dtype) -> bool:
    """True if check_param would pass param unchanged; finiteness by one dot product v . v."""
    return param is None or (
        type(param) is np.ndarray
        and param.dtype == ctype
        and param.shape == shape
        and math.isfinite(np.vdot(param, param))
    )


def _normalize_trailing(
    arr: np.ndarray,
    shape: tuple[int, ...],
    weight: ArrayLike | None,
    bias: ArrayLike | None,
    eps: float,
    *,
    centered: bool,
) -> np.ndarray:
    """Flatten to (rows, prod(shape)), run the row kernel, restore the shape and dtype."""
    ctype = compute_dtype(arr.dtype)
    n = math.prod(shape)
    w, b = _params(weight, bias, shape, ctype)
    x2 = np.ascontiguousarray(arr, dtype=ctype).reshape(-1, n)  # (M, N)
    res = normalize_rows(
        x2,
        eps,
        centered=centered,
        weight=None if w is None else w.reshape(n),
        bias=None if b is None else b.reshape(n),
    )
    return res.y.reshape(arr.shape).astype(arr.dtype, copy=False)
