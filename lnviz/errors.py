"""The one exception type of lnviz, and the argument checks that raise it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


class LnvizError(ValueError):
    """A bad argument: the message names the argument, the value and what is accepted."""

    def __init__(self, name: str, value: object, accepted: str) -> None:
        self.name = name
        self.value = value
        self.accepted = accepted
        super().__init__(f"{name} = {_short(value)} is not accepted: {accepted}.")


def _short(value: object, limit: int = 60) -> str:
    """A one-line, bounded rendering of a bad value for messages."""
    text = repr(value) if not hasattr(value, "shape") else f"array of shape {tuple(value.shape)}"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_FLOATS = (np.float16, np.float32, np.float64)


def as_float_array(x: object, name: str = "x", *, min_ndim: int = 0) -> np.ndarray:
    """x as a non-empty floating array; float16/32/64 kept, anything numeric else -> float64."""
    arr = np.asarray(x)
    if arr.dtype.type not in _FLOATS:
        if arr.dtype.kind not in "biuf":
            raise LnvizError(name, x, "a real numeric array is accepted")
        arr = arr.astype(np.float64)
    if arr.size == 0:
        raise LnvizError(name, arr, "an empty array has no statistics; give at least one value")
    if arr.ndim < min_ndim:
        raise LnvizError(name, arr, f"an array with at least {min_ndim} dimensions is needed")
    return arr


def require_finite(arr: np.ndarray, name: str = "x") -> None:
    """Refuse NaN or infinite entries."""
    if not np.isfinite(arr).all():
        raise LnvizError(name, arr, "every entry must be finite (no NaN or inf)")


def check_eps(eps: object, name: str = "eps") -> float:
    """eps as a float; it must be finite and >= 0 (0 only for illustrations)."""
    try:
        if isinstance(eps, (str, bytes)):  # float("1e-5") would parse: refuse text
            raise TypeError(name)
        value = float(eps)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise LnvizError(name, eps, f"{name} must be a finite number >= 0") from None
    if not math.isfinite(value) or value < 0:
        raise LnvizError(name, eps, f"{name} must be a finite number >= 0")
    return value


def check_finite_number(value: object, name: str) -> float:
    """value as a finite float (text refused)."""
    try:
        if isinstance(value, (str, bytes)):
            raise TypeError(name)
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise LnvizError(name, value, f"{name} must be a finite number") from None
    if not math.isfinite(out):
        raise LnvizError(name, value, f"{name} must be a finite number")
    return out


def check_param(
    param: object | None, shape: tuple[int, ...], name: str, dtype: np.dtype
) -> np.ndarray | None:
    """A gain or bias of exactly `shape` (or None), finite, cast to the compute dtype."""
    if param is None:
        return None
    arr = np.asarray(param)
    if arr.dtype.kind not in "biuf":
        raise LnvizError(name, param, f"a real array of shape {shape} is accepted")
    if arr.shape != shape:
        raise LnvizError(name, arr, f"{name} must have shape {shape}")
    require_finite(arr, name)
    return arr.astype(dtype, copy=False)


def check_shape(normalized_shape: object, x_shape: tuple[int, ...]) -> tuple[int, ...]:
    """normalized_shape as a tuple that equals the trailing dimensions of x."""
    if isinstance(normalized_shape, (int, np.integer)):
        shape: tuple[int, ...] = (int(normalized_shape),)
    elif isinstance(normalized_shape, Sequence) and all(
        isinstance(n, (int, np.integer)) for n in normalized_shape
    ):
        shape = tuple(int(n) for n in normalized_shape)
    else:
        raise LnvizError("normalized_shape", normalized_shape, "an int or a tuple of ints")
    k = len(shape)
    if k == 0 or k > len(x_shape) or x_shape[len(x_shape) - k :] != shape:
        raise LnvizError(
            "normalized_shape",
            normalized_shape,
            f"it must equal the trailing dimensions of x, whose shape is {x_shape}",
        )
    return shape


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """Accumulate float16 in float32 (as PyTorch does on CPU); keep float32 and float64."""
    return np.dtype(np.float32) if dtype == np.float16 else np.dtype(dtype)
