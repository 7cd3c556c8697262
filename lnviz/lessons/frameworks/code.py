"""Equivalent PyTorch, Keras 3 and Flax code from one choice, built on the emulations' data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, Unpack

from lnviz.errors import LnvizError
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    DEFAULT_BACKEND,
    FRAMEWORK_NAMES,
    FRAMEWORKS,
    KERAS_BACKEND_NAMES,
    LAYOUT_AXES,
    LAYOUTS,
    SCHEMES,
    VERSIONS,
    arithmetic,
    channel_axis,
    effective_eps,
)

_IMPORTS = {
    "pytorch": "import torch\nfrom torch import nn",
    "keras": 'import os\n\nos.environ["KERAS_BACKEND"] = "{backend}"  # before importing keras\n'
    "import keras\nfrom keras import layers",
    "flax": "import jax\nimport jax.numpy as jnp\nfrom flax import linen as nn",
}
_STAND_IN = {
    "pytorch": "x = torch.randn{shape}",
    "keras": "x = keras.random.normal({shape})",
    "flax": "x = jax.random.normal(jax.random.key(0), {shape})",
}
# Measured here with PyTorch 2.13 on CPU: F.group_norm on a permuted NHWC float32 tensor
# (channels-last strides) with mean 1000 and unit spread is off by about 0.26, the
# contiguous copy by about 1e-4; instance and batch norm showed no such gap. At mean 3000
# the channels-last variances come out as whole numbers, the mark of E[x^2] - E[x]^2 at
# float32 spacing 1. tests/lessons/test_frameworks.py re-measures both.
# pytorch/pytorch#54293 discusses the one-pass statistics of the CPU GroupNorm kernel.
CHANNELS_LAST_NOTE = (
    "PyTorch's CPU GroupNorm computes the statistics of a channels-last float32 tensor (for "
    "example one permuted from NHWC) as E[x²] − E[x]², clamped at 0, instead of its Welford "
    "pass. Measured with PyTorch 2.13: about 0.26 off at mean 1000, against 1e-4 for a "
    "contiguous copy; at mean 3000 the variances come out as whole numbers. So the generated "
    "code calls .contiguous() first."
)
_TO_FIRST = {"btf": ".transpose(1, 2)", "nhwc": ".permute(0, 3, 1, 2)", "nchw": ""}
_FROM_FIRST = {"btf": ".transpose(1, 2)", "nhwc": ".permute(0, 2, 3, 1)", "nchw": ""}


@dataclass(frozen=True)
class Snippet:
    """One framework's code: imports, a stand-in input, and the layer applied to x."""

    framework: str
    imports: str
    stand_in: str  # x = random tensor of the chosen shape (replace with your own)
    body: str  # builds the layer and sets y from x

    @property
    def text(self) -> str:
        return f"{self.imports}\n\n{self.stand_in}\n{self.body}\n"


def _shape_comment(layout: str, shape: tuple[int, ...]) -> str:
    axes = ", ".join(LAYOUT_AXES[layout])
    return f"# x: ({axes}) = {tuple(shape)}"


def _call(target: str, func: str, args: list[str], width: int = 52) -> str:
    """`target = func(args)`, one argument per line when it would be longer than width."""
    one = f"{target} = {func}({', '.join(args)})"
    if len(one) <= width or not args:
        return one
    inner = "".join(f"    {a},\n" for a in args)
    return f"{target} = {func}(\n{inner})"


def _defaults_args(
    framework: str, scheme: str, match: bool, backend: str = DEFAULT_BACKEND
) -> tuple[list[str], str]:
    """(arguments, comment): PyTorch's epsilon (and momentum) when matching, else a note."""
    own = CONVENTIONS[framework, scheme]
    if not match:
        note = f"# epsilon: default {own.eps:g}"
        if scheme == "batch":
            note += f"; momentum: default {own.momentum:g} (weight of the old value)"
        return [], note
    pt = CONVENTIONS["pytorch", scheme]
    args = [f"epsilon={effective_eps(pt)!r}"]
    note = "# PyTorch's epsilon"
    if scheme == "batch":
        args.append(f"momentum={1 - pt.momentum:g}")  # 1 - PyTorch's momentum
        note += "; momentum = 1 - PyTorch's 0.1"
    if framework == "flax" and scheme != "rms":
        args.append("use_fast_variance=False")
        note += "; two-pass variance"
    if framework == "keras" and arithmetic("keras", scheme, backend).fast_variance:
        note += "\n# E[x²] − E[x]² on this backend: no argument changes it"
    return args, note


def _pytorch(scheme: str, layout: str, shape: tuple[int, ...], groups: int) -> str:
    c = shape[1] if layout == "nchw" else shape[-1]
    dims = 1 if layout == "btf" else 2
    if scheme in ("layer", "rms"):
        norm_shape = shape[-1] if layout == "btf" else tuple(shape[1:])
        cls = "LayerNorm" if scheme == "layer" else "RMSNorm"
        note = "# eps=None: machine epsilon of float32\n" if scheme == "rms" else ""
        return (
            f"{note}{_call('norm', 'nn.' + cls, [f'normalized_shape={norm_shape}'])}\ny = norm(x)"
        )
    if scheme == "group":
        head = _call("norm", "nn.GroupNorm", [f"num_groups={groups}", f"num_channels={c}"])
    elif scheme == "instance":
        head = f"# affine=False by default: no gain, no bias\nnorm = nn.InstanceNorm{dims}d({c})"
    else:
        head = (
            f"# a new module is in training mode: batch statistics\nnorm = nn.BatchNorm{dims}d({c})"
        )
    if layout == "nchw":
        return f"{head}\ny = norm(x)"
    if scheme == "group" and layout == "nhwc":  # see CHANNELS_LAST_NOTE
        return (
            f"{head}\n# channels must be dim 1; .contiguous() avoids the\n"
            "# channels-last CPU kernel, which loses digits far from zero\n"
            f"y = norm(x{_TO_FIRST[layout]}.contiguous()){_FROM_FIRST[layout]}"
        )
    return f"{head}\n# channels must be dim 1\ny = norm(x{_TO_FIRST[layout]}){_FROM_FIRST[layout]}"


def _keras(scheme: str, layout: str, groups: int, match: bool, backend: str) -> str:
    image = layout != "btf"
    if scheme in ("layer", "rms"):
        axis = "[1, 2, 3]" if image else "-1"
        cls = "LayerNormalization" if scheme == "layer" else "RMSNormalization"
    elif scheme in ("group", "instance"):
        axis = "1" if layout == "nchw" else "-1"
        cls = "GroupNormalization"
    else:
        axis = "1" if layout == "nchw" else "-1"
        cls = "BatchNormalization"
    args = [f"axis={axis}"]
    if scheme == "group":
        args.insert(0, f"groups={groups}")
    elif scheme == "instance":
        args.insert(0, "groups=-1")  # one group per channel
    extra, note = _defaults_args("keras", scheme, match, backend)
    call = "norm(x, training=True)" if scheme == "batch" else "norm(x)"
    return f"{note}\n{_call('norm', 'layers.' + cls, args + extra)}\ny = {call}"


def _flax(scheme: str, layout: str, groups: int, match: bool) -> str:
    image = layout != "btf"
    args: list[str] = []
    if scheme in ("layer", "rms"):
        ax = "(1, 2, 3)" if image else "-1"
        args = [f"reduction_axes={ax}", f"feature_axes={ax}"]
        cls = "LayerNorm" if scheme == "layer" else "RMSNorm"
    elif scheme == "group":
        args, cls = [f"num_groups={groups}"], "GroupNorm"
    elif scheme == "instance":
        args, cls = [f"feature_axes={1 if layout == 'nchw' else -1}"], "InstanceNorm"
    else:
        args = ["use_running_average=False", f"axis={1 if layout == 'nchw' else -1}"]
        cls = "BatchNorm"
    extra, note = _defaults_args("flax", scheme, match)
    lines = [note, _call("norm", "nn." + cls, args + extra)]
    xin = "x"
    if scheme == "group" and layout == "nchw":
        lines[:0] = [
            "# GroupNorm's channels are always the last axis",
            "xl = jnp.transpose(x, (0, 2, 3, 1))",
        ]
        xin = "xl"
    lines.append(f"variables = norm.init(jax.random.key(1), {xin})")
    if scheme == "batch":
        lines.append(f'y, updates = norm.apply(\n    variables, {xin}, mutable=["batch_stats"]\n)')
    else:
        lines.append(f"y = norm.apply(variables, {xin})")
    if xin == "xl":
        lines.append("y = jnp.transpose(y, (0, 3, 1, 2))")
    return "\n".join(lines)


class SnippetOptions(TypedDict, total=False):
    """snippet()'s keyword options, which snippets() passes on (defaults in snippet())."""

    groups: int  # 1: GroupNorm's number of groups
    match: bool  # False: True writes PyTorch's epsilon (and Flax's two-pass variance)
    backend: str  # DEFAULT_BACKEND: the Keras backend


def snippet(
    framework: str,
    scheme: str,
    layout: str,
    shape: tuple[int, ...],
    *,
    groups: int = 1,
    match: bool = False,
    backend: str = DEFAULT_BACKEND,
) -> Snippet:
    """`framework` code for `scheme` on a `layout` tensor of `shape`; match: PyTorch's numbers."""
    if framework not in FRAMEWORKS:
        raise LnvizError("framework", framework, "one of " + ", ".join(FRAMEWORKS))
    if scheme not in SCHEMES or layout not in LAYOUTS:
        raise LnvizError("scheme/layout", (scheme, layout), "a known scheme and layout")
    if len(shape) != len(LAYOUT_AXES[layout]):
        raise LnvizError("shape", shape, f"{len(LAYOUT_AXES[layout])} sizes for {layout}")
    if framework == "pytorch":
        body = _pytorch(scheme, layout, tuple(shape), groups)
    elif framework == "keras":
        arithmetic("keras", scheme, backend)  # checks the backend
        body = _keras(scheme, layout, groups, match, backend)
    else:
        body = _flax(scheme, layout, groups, match)
    stand_in = f"{_shape_comment(layout, shape)}: use your own\n"
    stand_in += _STAND_IN[framework].format(shape=tuple(shape))
    header = f"# {versioned_name(framework, backend)}"
    imports = _IMPORTS[framework].replace("{backend}", backend)
    return Snippet(framework, f"{header}\n{imports}", stand_in, body)


def snippets(
    scheme: str, layout: str, shape: tuple[int, ...], **options: Unpack[SnippetOptions]
) -> dict[str, Snippet]:
    """snippet() for every framework, keyed like FRAMEWORKS."""
    return {f: snippet(f, scheme, layout, shape, **options) for f in FRAMEWORKS}


def versioned_name(framework: str, backend: str = DEFAULT_BACKEND) -> str:
    """The framework, the version checked and, for Keras, the backend."""
    if framework == "keras":
        return f"Keras {VERSIONS['keras']}, {KERAS_BACKEND_NAMES[backend]} backend"
    return f"{FRAMEWORK_NAMES[framework]} {VERSIONS[framework]}"


@dataclass(frozen=True)
class DefaultsTable:
    """What each framework's layer for one scheme creates and keeps by default (column tuples)."""

    scheme: str
    framework: tuple[str, ...]  # name, version checked, Keras backend
    layer: tuple[str, ...]  # class name
    parameters: tuple[str, ...]  # e.g. "weight (8,)"; "none"
    eps: tuple[float, ...]  # the epsilon added for float32 input
    eps_machine: tuple[bool, ...]  # eps is float32's machine epsilon (PyTorch RMSNorm)
    statistic: tuple[str, ...]  # the variance algorithm, or RMS norm's mean of x²
    momentum: tuple[float, ...] = ()  # batch norm only
    momentum_weights: tuple[str, ...] = ()  # "new batch" or "old value"
    running_variance: tuple[str, ...] = ()  # "unbiased" or "biased"


def params_text(framework: str, scheme: str, layout: str, shape: tuple[int, ...]) -> str:
    """The parameters the generated layer creates, with their shape."""
    ps = param_shape(framework, scheme, layout, shape)
    names = CONVENTIONS[framework, scheme].params
    return ", ".join(f"{p} {ps}" for p in names) if ps else "none"


def defaults_table(
    scheme: str, layout: str, shape: tuple[int, ...], backend: str = DEFAULT_BACKEND
) -> DefaultsTable:
    """The defaults table of a scheme on a `layout` tensor of `shape` (Keras on `backend`)."""
    convs = [CONVENTIONS[f, scheme] for f in FRAMEWORKS]
    batch = scheme == "batch"
    return DefaultsTable(
        scheme,
        tuple(versioned_name(f, backend) for f in FRAMEWORKS),
        tuple(c.layer for c in convs),
        tuple(params_text(f, scheme, layout, shape) for f in FRAMEWORKS),
        tuple(effective_eps(c) for c in convs),
        tuple(c.eps is None for c in convs),
        tuple(arithmetic(f, scheme, backend).variance for f in FRAMEWORKS),
        tuple(float(c.momentum or 0) for c in convs) if batch else (),
        tuple(c.momentum_weights for c in convs) if batch else (),
        tuple(c.running_var for c in convs) if batch else (),
    )


def reduced_axes(scheme: str, layout: str) -> str:
    """The axes one statistic is pooled over, in the layout's letters."""
    names = LAYOUT_AXES[layout]
    ch = names[channel_axis(layout)]
    pos = [a for a in names[1:] if a != ch]
    if scheme in ("layer", "rms"):
        axes = [ch] if layout == "btf" else list(names[1:])
    elif scheme == "group":
        axes = [*pos, f"{ch}/G"]
    elif scheme == "instance":
        axes = pos
    else:
        axes = [names[0], *pos]
    return axes[0] if len(axes) == 1 else ", ".join(axes[:-1]) + " and " + axes[-1]


def param_shape(framework: str, scheme: str, layout: str, shape: tuple[int, ...]) -> tuple:
    """Shape of the gain (and bias) the generated layer makes; () if none (PyTorch InstanceNorm)."""
    if not CONVENTIONS[framework, scheme].params:
        return ()
    if scheme in ("layer", "rms"):
        return tuple(shape[-1:] if layout == "btf" else shape[1:])
    return (shape[channel_axis(layout)],)
