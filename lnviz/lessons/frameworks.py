"""Framework conventions as data, and NumPy emulations of what each framework computes.

Why: a model ported between PyTorch, Keras 3 and Flax linen can disagree in the third digit
although every layer "is the same"; the causes are defaults (epsilon, momentum), estimators
(unbiased running variance) and arithmetic (variance as E[x^2] - E[x]^2 in float32).

Every default below was checked against the framework's own source (2025 versions):

- PyTorch 2.13, installed here: inspect.signature and docstrings of torch.nn.LayerNorm
  (eps=1e-5, elementwise_affine=True, bias=True), GroupNorm(num_groups, num_channels,
  eps=1e-5, affine=True), RMSNorm(eps=None: "machine epsilon of the computation type",
  float32 for fp16/bf16/fp32 inputs), BatchNorm1d/2d(eps=1e-5, momentum=0.1; running
  variance "via the unbiased estimator"; new = (1 - momentum) * old + momentum * batch),
  InstanceNorm1d/2d(eps=1e-5, affine=False, track_running_stats=False).
- Keras 3, keras-team/keras keras/src/layers/normalization/*.py: LayerNormalization(axis=-1,
  epsilon=1e-3; gamma and beta span the `axis` dims), GroupNormalization(groups=32, axis=-1,
  epsilon=1e-3; gamma (C,); groups=-1 gives instance norm), RMSNormalization(axis=-1,
  epsilon=1e-6; scale only), BatchNormalization(axis=-1, momentum=0.99, epsilon=1e-3;
  moving = moving * momentum + batch * (1 - momentum), batch variance from ops.moments).
  ops.moments in keras/src/backend/{numpy,torch}/nn.py is mean(x^2) - mean(x)^2, unclipped
  (the JAX backend clips it at 0). The TensorFlow backend was NOT checked.
- Flax linen, google/flax flax/linen/normalization.py: LayerNorm(epsilon=1e-6,
  reduction_axes=-1, feature_axes=-1, use_fast_variance=True), RMSNorm(epsilon=1e-6, scale
  only), GroupNorm(num_groups=32, epsilon=1e-6; channels always the last axis),
  InstanceNorm(epsilon=1e-6, feature_axes=-1, scale and bias), BatchNorm(axis=-1,
  momentum=0.99, epsilon=1e-5; running var from the biased batch variance). _compute_stats
  promotes to at least float32 and, with use_fast_variance, takes max(0, E[x^2] - E[x]^2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

from lnviz.channels import batch_norm, group_norm, instance_norm
from lnviz.errors import LnvizError
from lnviz.functional import default_rms_eps, layer_norm, rms_norm

__all__ = [
    "CONVENTIONS",
    "FRAMEWORKS",
    "FRAMEWORK_NAMES",
    "LAYOUTS",
    "LAYOUT_AXES",
    "SCHEMES",
    "Convention",
    "Run",
    "canonical",
    "channel_axis",
    "effective_eps",
    "emulate",
    "torch_reference",
    "uncanonical",
    "values_per_channel",
]

FRAMEWORKS = ("pytorch", "keras", "flax")
FRAMEWORK_NAMES = {"pytorch": "PyTorch", "keras": "Keras 3", "flax": "Flax linen"}
SCHEMES = ("layer", "rms", "group", "instance", "batch")
LAYOUTS = ("btf", "nchw", "nhwc")
LAYOUT_AXES = {"btf": ("B", "T", "F"), "nchw": ("N", "C", "H", "W"), "nhwc": ("N", "H", "W", "C")}


@dataclass(frozen=True)
class Convention:
    """What one framework's layer does when every argument keeps its default."""

    framework: str
    scheme: str
    layer: str  # class name as written in code
    eps: float | None  # None: PyTorch RMSNorm's machine epsilon of the compute type
    params: tuple[str, ...]  # parameters created by default, e.g. ("weight", "bias")
    fast_variance: bool  # variance as E[x^2] - E[x]^2 (irrelevant for RMS)
    clip_variance: bool  # a negative fast variance is clipped to 0
    momentum: float | None = None  # batch norm only
    momentum_weights: str = ""  # "new batch" or "old value"
    running_var: str = ""  # "unbiased" or "biased"


def _table() -> dict[tuple[str, str], Convention]:
    pt = {  # PyTorch: two-pass variance in the kernels lnviz mirrors
        "layer": ("LayerNorm", 1e-5, ("weight", "bias")),
        "rms": ("RMSNorm", None, ("weight",)),
        "group": ("GroupNorm", 1e-5, ("weight", "bias")),
        "instance": ("InstanceNorm1d/2d", 1e-5, ()),
        "batch": ("BatchNorm1d/2d", 1e-5, ("weight", "bias")),
    }
    ks = {
        "layer": ("LayerNormalization", 1e-3, ("gamma", "beta")),
        "rms": ("RMSNormalization", 1e-6, ("scale",)),
        "group": ("GroupNormalization", 1e-3, ("gamma", "beta")),
        "instance": ("GroupNormalization(groups=-1)", 1e-3, ("gamma", "beta")),
        "batch": ("BatchNormalization", 1e-3, ("gamma", "beta")),
    }
    fx = {
        "layer": ("LayerNorm", 1e-6, ("scale", "bias")),
        "rms": ("RMSNorm", 1e-6, ("scale",)),
        "group": ("GroupNorm", 1e-6, ("scale", "bias")),
        "instance": ("InstanceNorm", 1e-6, ("scale", "bias")),
        "batch": ("BatchNorm", 1e-5, ("scale", "bias")),
    }
    out: dict[tuple[str, str], Convention] = {}
    for s in SCHEMES:
        bn = s == "batch"
        out["pytorch", s] = Convention(
            "pytorch", s, *pt[s], False, False, *((0.1, "new batch", "unbiased") if bn else ())
        )
        out["keras", s] = Convention(
            "keras", s, *ks[s], True, False, *((0.99, "old value", "biased") if bn else ())
        )
        out["flax", s] = Convention(
            "flax", s, *fx[s], True, True, *((0.99, "old value", "biased") if bn else ())
        )
    return out


CONVENTIONS: dict[tuple[str, str], Convention] = _table()


def effective_eps(conv: Convention, dtype: DTypeLike = np.float32) -> float:
    """The epsilon actually added: the default, or PyTorch RMSNorm's machine epsilon.

    >>> effective_eps(CONVENTIONS["pytorch", "rms"]) == float(np.finfo(np.float32).eps)
    True
    >>> effective_eps(CONVENTIONS["keras", "layer"])
    0.001
    """
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
    """Index of the feature/channel axis: 1 for channels-first, else the last one.

    >>> channel_axis("nchw"), channel_axis("nhwc"), channel_axis("btf")
    (1, 3, 2)
    """
    return 1 if layout == "nchw" else len(LAYOUT_AXES[layout]) - 1


def values_per_channel(shape: tuple[int, ...], layout: str) -> int:
    """How many values batch norm pools for each channel: prod(shape) / C.

    >>> values_per_channel((2, 8, 3, 3), "nchw")
    18
    """
    return math.prod(shape) // shape[channel_axis(layout)]


def canonical(x: np.ndarray, layout: str) -> np.ndarray:
    """x as (examples, positions, channels): the common view every scheme is defined on.

    >>> canonical(np.zeros((2, 3, 4, 5)), "nchw").shape
    (2, 20, 3)
    """
    if layout == "btf":
        return x  # (B, T, F)
    if layout == "nchw":
        x = x.transpose(0, 2, 3, 1)  # (N, H, W, C)
    return x.reshape(x.shape[0], -1, x.shape[-1])  # (N, H*W, C)


def uncanonical(xc: np.ndarray, layout: str, shape: tuple[int, ...]) -> np.ndarray:
    """Inverse of canonical: back to the layout's own shape.

    >>> x = np.arange(24.0).reshape(1, 2, 3, 4)
    >>> bool((uncanonical(canonical(x, "nchw"), "nchw", x.shape) == x).all())
    True
    """
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
) -> Run:
    """What `framework`'s layer computes on x, in x's dtype (float32 as deployed).

    mu = E[x]; var = E[(x - mu)^2] (two-pass) or E[x^2] - mu^2 (fast; Flax clips it at 0);
    y = (x - mu) / sqrt(var + eps). Keras evaluates y = x * inv + (-mu * inv) with
    inv = 1 / sqrt(var + eps), as its layers do. eps and fast_variance default to the
    framework's own conventions; pass them to see a matched port.

    >>> x = np.array([[[1.0, 2.0, 3.0]]], dtype=np.float32)
    >>> emulate(x, "layer", "btf", "keras").eps
    0.001
    >>> [round(float(v), 4) for v in emulate(x, "layer", "btf", "flax").output.ravel()]
    [-1.2247, 0.0, 1.2247]
    """
    if framework not in FRAMEWORKS:
        raise LnvizError("framework", framework, "one of " + ", ".join(FRAMEWORKS))
    _check(scheme, layout, x, groups)
    conv = CONVENTIONS[framework, scheme]
    e = effective_eps(conv, x.dtype) if eps is None else float(eps)
    fast = conv.fast_variance if fast_variance is None else bool(fast_variance)
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
                if conv.clip_variance:
                    var = np.maximum(var, 0)
            else:
                d = rows - mu[:, None]  # (M, K)
                var = np.mean(d * d, axis=1)  # (M,)
        inv = (1 / np.sqrt(var + rows.dtype.type(e))).astype(rows.dtype)  # (M,)
        if framework == "keras":
            y = rows * inv[:, None] + (-mu * inv)[:, None]  # (M, K)
        else:
            y = (rows - mu[:, None]) * inv[:, None]  # (M, K)
    out = uncanonical(_unrows(y, how, xc.shape), layout, x.shape)
    return Run(framework, e, fast, mu, var, np.ascontiguousarray(out))


def torch_reference(x: np.ndarray, scheme: str, layout: str, *, groups: int = 1) -> np.ndarray:
    """PyTorch's default layer on x, via lnviz's torch-semantics kernels (training mode).

    The permutes are those of the generated PyTorch code: channels to dim 1.

    >>> x = np.arange(6, dtype=np.float64).reshape(1, 2, 3)
    >>> torch_reference(x, "layer", "btf").round(4).tolist()
    [[[-1.2247, 0.0, 1.2247], [-1.2247, 0.0, 1.2247]]]
    """
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
