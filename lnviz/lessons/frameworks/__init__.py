"""Framework conventions as data, and NumPy emulations of what each framework computes."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

from lnviz.channels import batch_norm, group_norm, instance_norm
from lnviz.errors import LnvizError
from lnviz.functional import default_rms_eps, layer_norm, rms_norm

FRAMEWORKS = ("pytorch", "keras", "flax")
FRAMEWORK_NAMES = {"pytorch": "PyTorch", "keras": "Keras 3", "flax": "Flax linen"}
VERSIONS = {"pytorch": "2.13", "keras": "3.15.1", "flax": "0.12.8"}  # the versions checked
KERAS_BACKENDS = ("jax", "tensorflow", "torch", "numpy")
KERAS_BACKEND_NAMES = {"jax": "JAX", "tensorflow": "TensorFlow", "torch": "torch",
                       "numpy": "NumPy"}  # fmt: skip
DEFAULT_BACKEND = "jax"
SCHEMES = ("layer", "rms", "group", "instance", "batch")
LAYOUTS = ("btf", "nchw", "nhwc")
LAYOUT_AXES = {"btf": ("B", "T", "F"), "nchw": ("N", "C", "H", "W"), "nhwc": ("N", "H", "W", "C")}


def framework_label(framework: str, backend: str = DEFAULT_BACKEND) -> str:
    """A framework's display name; Keras's names the backend its numbers are for."""
    if framework != "keras":
        return FRAMEWORK_NAMES[framework]
    return f"{FRAMEWORK_NAMES[framework]} ({KERAS_BACKEND_NAMES[_backend(backend)]})"


@dataclass(frozen=True)
class Convention:
    """What one framework's layer is and keeps when every argument has its default."""

    framework: str
    scheme: str
    layer: str  # class name as written in code
    eps: float | None  # None: PyTorch RMSNorm's machine epsilon of the compute type
    params: tuple[str, ...]  # parameters created by default, e.g. ("weight", "bias")
    momentum: float | None = None  # batch norm only
    momentum_weights: str = ""  # "new batch" or "old value"
    running_var: str = ""  # "unbiased" or "biased"


@dataclass(frozen=True)
class Arithmetic:
    """How a framework computes one scheme on float32 CPU input (Keras: on one backend)."""

    variance: str  # what the framework's source computes, in words
    fast_variance: bool  # emulated as E[x^2] - E[x]^2; else two-pass (also for Welford)
    clip_variance: bool  # a negative fast variance is raised to 0
    scale_first: bool  # output x * inv + (-mu * inv); else (x - mu) * inv


_CLASSES = {  # scheme: the layer's class in PyTorch, Keras, Flax (FRAMEWORKS order)
    "layer": ("LayerNorm", "LayerNormalization", "LayerNorm"),
    "rms": ("RMSNorm", "RMSNormalization", "RMSNorm"),
    "group": ("GroupNorm", "GroupNormalization", "GroupNorm"),
    "instance": ("InstanceNorm1d/2d", "GroupNormalization(groups=-1)", "InstanceNorm"),
    "batch": ("BatchNorm1d/2d", "BatchNormalization", "BatchNorm"),
}
_USUAL = {  # framework: its usual default eps, the parameters of an affine layer
    "pytorch": (1e-5, ("weight", "bias")),
    "keras": (1e-3, ("gamma", "beta")),
    "flax": (1e-6, ("scale", "bias")),
}
_EXCEPT = {  # (framework, scheme): default eps and parameters where they are not the usual
    ("pytorch", "rms"): (None, ("weight",)),
    ("pytorch", "instance"): (1e-5, ()),
    ("keras", "rms"): (1e-6, ("scale",)),
    ("flax", "rms"): (1e-6, ("scale",)),
    ("flax", "batch"): (1e-5, ("scale", "bias")),
}
_RUNNING = {  # framework: batch norm's momentum, what it weights, its running variance
    "pytorch": (0.1, "new batch", "unbiased"),
    "keras": (0.99, "old value", "biased"),
    "flax": (0.99, "old value", "biased"),
}


def _table() -> dict[tuple[str, str], Convention]:
    """Every (framework, scheme)'s Convention, from the tables above."""
    out: dict[tuple[str, str], Convention] = {}
    for i, f in enumerate(FRAMEWORKS):
        for s in SCHEMES:
            eps, params = _EXCEPT.get((f, s), _USUAL[f])
            running = _RUNNING[f] if s == "batch" else ()
            out[f, s] = Convention(f, s, _CLASSES[s][i], eps, params, *running)
    return out


CONVENTIONS: dict[tuple[str, str], Convention] = _table()

_MEAN_SQUARE = "mean of x² (no mean subtracted)"
_FAST = "E[x²] − E[x]², not clamped"
_PT_VARIANCE = {  # PyTorch 2.13 CPU kernels
    "layer": "Welford (blocks merged pairwise)",
    "rms": _MEAN_SQUARE,
    "group": "Welford; for channels-last input E[x²] − E[x]², clamped at 0",
    "instance": "two-pass, sums in float64 (the batch-norm kernel)",
    "batch": "two-pass, sums in float64",
}
_KERAS_TWO_PASS = {"jax": "two-pass (jnp.var)", "tensorflow": "two-pass (tf.nn.moments)"}


def _backend(backend: str) -> str:
    if backend not in KERAS_BACKENDS:
        raise LnvizError("backend", backend, "one of " + ", ".join(KERAS_BACKENDS))
    return backend


def arithmetic(framework: str, scheme: str, backend: str = DEFAULT_BACKEND) -> Arithmetic:
    """Variance algorithm and output form of `framework` for `scheme` (Welford run as two-pass)."""
    if (framework, scheme) not in CONVENTIONS:
        raise LnvizError("framework/scheme", (framework, scheme), "a known framework and scheme")
    if framework == "pytorch":
        return Arithmetic(_PT_VARIANCE[scheme], False, False, False)
    if framework == "flax":
        text = _MEAN_SQUARE if scheme == "rms" else "E[x²] − E[x]², clamped at 0"
        return Arithmetic(text, True, True, False)
    b = _backend(backend)
    if scheme == "rms":
        return Arithmetic(_MEAN_SQUARE + (" (F.rms_norm)" if b == "torch" else ""), False, False,
                          False)  # fmt: skip
    if b in _KERAS_TWO_PASS:
        return Arithmetic(_KERAS_TWO_PASS[b], False, False, True)
    if b == "torch" and scheme == "layer":
        return Arithmetic("PyTorch's kernel (F.layer_norm): Welford", False, False, False)
    return Arithmetic(_FAST, True, False, not (b == "torch" and scheme == "batch"))


def effective_eps(conv: Convention, dtype: DTypeLike = np.float32) -> float:
    """The epsilon actually added: the default, or PyTorch RMSNorm's machine epsilon."""
    return default_rms_eps(np.dtype(dtype)) if conv.eps is None else float(conv.eps)


def _check(scheme: str, layout: str, x: np.ndarray, groups: int) -> None:
    if scheme not in SCHEMES:
        raise LnvizError("scheme", scheme, "one of " + ", ".join(SCHEMES))
    if layout not in LAYOUTS:
        raise LnvizError("layout", layout, "one of " + ", ".join(LAYOUTS))
    if x.ndim != len(LAYOUT_AXES[layout]):
        raise LnvizError("x", x, f"an array with axes {LAYOUT_AXES[layout]}")
    c = x.shape[channel_axis(layout)]
    if scheme == "group" and (groups < 1 or c % groups):
        raise LnvizError("groups", groups, f"a positive divisor of the {c} channels")


def channel_axis(layout: str) -> int:
    """Index of the feature/channel axis: 1 for channels-first, else the last one."""
    return 1 if layout == "nchw" else len(LAYOUT_AXES[layout]) - 1


def values_per_channel(shape: tuple[int, ...], layout: str) -> int:
    """How many values batch norm pools for each channel: prod(shape) / C."""
    return math.prod(shape) // shape[channel_axis(layout)]


def canonical(x: np.ndarray, layout: str) -> np.ndarray:
    """x as (examples, positions, channels): the common view every scheme is defined on."""
    if layout == "btf":
        return x  # (B, T, F)
    if layout == "nchw":
        x = x.transpose(0, 2, 3, 1)  # (N, H, W, C)
    return x.reshape(x.shape[0], -1, x.shape[-1])  # (N, H*W, C)


def uncanonical(xc: np.ndarray, layout: str, shape: tuple[int, ...]) -> np.ndarray:
    """Inverse of canonical: back to the layout's own shape."""
    if layout == "btf":
        return xc.reshape(shape)
    if layout == "nhwc":
        return xc.reshape(shape)
    n, c, h, w = shape
    return xc.reshape(n, h, w, c).transpose(0, 3, 1, 2)  # (N, C, H, W)


def _rows(xc: np.ndarray, scheme: str, layout: str, g: int) -> tuple[np.ndarray, tuple]:
    """One statistic group per row; returns rows and what _unrows needs to undo it."""
    n, p, c = xc.shape
    if scheme in ("layer", "rms"):
        k = c if layout == "btf" else p * c  # token-wise, or per example for images
        return xc.reshape(-1, k), ("flat",)
    if scheme == "group":
        r = xc.reshape(n, p, g, c // g).transpose(0, 2, 1, 3)  # (N, G, P, C/G)
        return r.reshape(n * g, -1), ("perm", r.shape, (0, 2, 1, 3))
    if scheme == "instance":
        r = xc.transpose(0, 2, 1)  # (N, C, P)
        return r.reshape(n * c, p), ("perm", r.shape, (0, 2, 1))
    r = xc.transpose(2, 0, 1)  # (C, N, P) batch
    return r.reshape(c, n * p), ("perm", r.shape, (2, 0, 1))


def _unrows(rows: np.ndarray, how: tuple, shape: tuple[int, int, int]) -> np.ndarray:
    if how[0] == "flat":
        return rows.reshape(shape)
    return rows.reshape(how[1]).transpose(np.argsort(how[2]))  # (N, P, C)


@dataclass(frozen=True)
class Run:
    """One framework's layer at initialization (gain 1, bias 0) applied to x."""

    framework: str
    eps: float
    fast_variance: bool
    mean: np.ndarray  # (M,) per statistic group; zeros for RMS
    var: np.ndarray  # (M,) the variance (or mean square) the framework divides by
    output: np.ndarray  # layout shape, compute dtype

    @property
    def nan_count(self) -> int:
        return int(np.isnan(self.output).sum())


def emulate(
    x: np.ndarray,
    scheme: str,
    layout: str,
    framework: str,
    *,
    groups: int = 1,
    eps: float | None = None,
    fast_variance: bool | None = None,
    backend: str = DEFAULT_BACKEND,
) -> Run:
    """What `framework`'s layer computes on x in x's dtype: var two-pass or E[x^2] - mu^2 (fast)."""
    if framework not in FRAMEWORKS:
        raise LnvizError("framework", framework, "one of " + ", ".join(FRAMEWORKS))
    _check(scheme, layout, x, groups)
    conv, how_ = CONVENTIONS[framework, scheme], arithmetic(framework, scheme, backend)
    e = effective_eps(conv, x.dtype) if eps is None else float(eps)
    fast = how_.fast_variance if fast_variance is None else bool(fast_variance)
    xc = canonical(x, layout)  # (N, P, C)
    rows, how = _rows(xc, scheme, layout, groups)  # (M, K)
    rows = np.ascontiguousarray(rows)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if scheme == "rms":
            mu = np.zeros(rows.shape[0], dtype=rows.dtype)  # (M,)
            var = np.mean(rows * rows, axis=1)  # (M,) mean square
        else:
            mu = np.mean(rows, axis=1)  # (M,)
            if fast:
                var = np.mean(rows * rows, axis=1) - mu * mu  # (M,) cancels when |mu| >> sd
                if how_.clip_variance:
                    var = np.maximum(var, 0)
            else:
                d = rows - mu[:, None]  # (M, K)
                var = np.mean(d * d, axis=1)  # (M,)
        inv = (1 / np.sqrt(var + rows.dtype.type(e))).astype(rows.dtype)  # (M,)
        if how_.scale_first:
            y = rows * inv[:, None] + (-mu * inv)[:, None]  # (M, K)
        else:
            y = (rows - mu[:, None]) * inv[:, None]  # (M, K)
    out = uncanonical(_unrows(y, how, xc.shape), layout, x.shape)
    return Run(framework, e, fast, mu, var, np.ascontiguousarray(out))


def torch_reference(x: np.ndarray, scheme: str, layout: str, *, groups: int = 1) -> np.ndarray:
    """PyTorch's default layer on x, via lnviz's torch-semantics kernels (training mode)."""
    _check(scheme, layout, x, groups)
    if scheme in ("layer", "rms"):
        shape = x.shape[-1:] if layout == "btf" else x.shape[1:]
        if scheme == "layer":
            return layer_norm(x, shape)
        return rms_norm(x, shape)
    to_first = {"btf": (0, 2, 1), "nchw": (0, 1, 2, 3), "nhwc": (0, 3, 1, 2)}[layout]
    xf = np.ascontiguousarray(x.transpose(to_first))  # (N, C, *)
    if scheme == "group":
        yf = group_norm(xf, groups)
    elif scheme == "instance":
        yf = instance_norm(xf)
    else:
        yf = batch_norm(xf, training=True)[0]
    return np.ascontiguousarray(yf.transpose(np.argsort(to_first)))
