"""Layer and RMS normalization with the semantics of torch.nn.functional.

Both normalize over the trailing `normalized_shape` dimensions with the population variance
(divisor d), add eps to the variance inside the square root, and take per-element weight
and bias of shape `normalized_shape`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from lnviz._checks import as_float_array, check_eps, check_param, check_shape, compute_dtype
from lnviz._kernel import normalize_rows

__all__ = ["default_rms_eps", "layer_norm", "rms_norm"]


def layer_norm(
    x: ArrayLike,
    normalized_shape: int | Sequence[int],
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    """y = (x - mu) / sqrt(var + eps) * weight + bias over the trailing dimensions.

    mu and var = mean((x - mu)^2) are taken over the last len(normalized_shape) axes;
    weight and bias have shape normalized_shape. The seed's toy, z = (1, 2, 3) with
    eps = 1/3, gives the core (-1, 0, 1):

    >>> layer_norm([1.0, 2.0, 3.0], 3, eps=1 / 3).round(12).tolist()
    [-1.0, 0.0, 1.0]
    >>> layer_norm([[1.0, 2.0, 3.0]], (3,), [1, 2, 1], [0, 1, 0], eps=0.0).round(6).tolist()
    [[-1.224745, 1.0, 1.224745]]
    """
    arr = as_float_array(x)
    shape = check_shape(normalized_shape, arr.shape)
    return _normalize_trailing(arr, shape, weight, bias, check_eps(eps), centered=True)


def default_rms_eps(dtype: np.dtype) -> float:
    """PyTorch's eps for rms_norm(eps=None): machine eps of the accumulation type.

    float16 and float32 accumulate in float32, so both use float32's eps; float64 its own.

    >>> default_rms_eps(np.dtype(np.float16)) == float(np.finfo(np.float32).eps)
    True
    """
    return float(np.finfo(compute_dtype(np.dtype(dtype))).eps)


def rms_norm(
    x: ArrayLike,
    normalized_shape: int | Sequence[int],
    weight: ArrayLike | None = None,
    eps: float | None = None,
) -> np.ndarray:
    """y = x / sqrt(mean(x^2) + eps) * weight over the trailing dimensions; no centring.

    >>> rms_norm([3.0, 4.0], 2, eps=0.0).round(6).tolist()  # mean square 12.5
    [0.848528, 1.131371]
    """
    arr = as_float_array(x)
    shape = check_shape(normalized_shape, arr.shape)
    e = default_rms_eps(arr.dtype) if eps is None else check_eps(eps)
    return _normalize_trailing(arr, shape, weight, None, e, centered=False)


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
    w = check_param(weight, shape, "weight", ctype)
    b = check_param(bias, shape, "bias", ctype)
    x2 = np.ascontiguousarray(arr, dtype=ctype).reshape(-1, n)  # (M, N)
    res = normalize_rows(
        x2,
        eps,
        centered=centered,
        weight=None if w is None else w.reshape(n),
        bias=None if b is None else b.reshape(n),
    )
    return res.y.reshape(arr.shape).astype(arr.dtype, copy=False)
