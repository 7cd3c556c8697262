"""Equivalent layer code for PyTorch, Keras 3 and Flax linen, generated from one choice.

Why: porting a normalization means getting three things right at once (which axes are
pooled, which axes carry the gain and bias, and the defaults), and each framework spells
them differently. The snippets here are built from the same data as the emulations in
lnviz.lessons.frameworks, so a test can run the PyTorch ones and check the others' arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from lnviz.errors import LnvizError
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    FRAMEWORK_NAMES,
    FRAMEWORKS,
    LAYOUT_AXES,
    LAYOUTS,
    SCHEMES,
    channel_axis,
    effective_eps,
)

__all__ = [
    "CHANNELS_LAST_NOTE",
    "Snippet",
    "defaults_rows",
    "param_shape",
    "reduced_axes",
    "snippet",
    "snippets",
]

_IMPORTS = {
    "pytorch": "import torch\nfrom torch import nn",
    "keras": "import keras\nfrom keras import layers",
    "flax": "import jax\nimport jax.numpy as jnp\nfrom flax import linen as nn",
}
_STAND_IN = {
    "pytorch": "x = torch.randn{shape}",
    "keras": "x = keras.random.normal({shape})",
    "flax": "x = jax.random.normal(jax.random.key(0), {shape})",
}
# Measured here with PyTorch 2.13 on CPU: F.group_norm on a permuted NHWC float32 tensor
# (channels-last strides) with mean 1000 and unit spread is off by about 0.26, the
# contiguous copy by about 1e-4; instance and batch norm showed no such gap.
# tests/test_frameworks.py re-measures it. pytorch/pytorch#54293 discusses the one-pass
# mean/variance of the CPU GroupNorm kernel.
CHANNELS_LAST_NOTE = (
    "PyTorch's CPU GroupNorm on a channels-last float32 tensor (for example one permuted from "
    "NHWC) computed its statistics with a large error far from zero in our measurement with "
    "PyTorch 2.13 (about 0.26 at mean 1000, against 1e-4 for a contiguous copy), so the "
    "generated code calls .contiguous() first."
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


def _defaults_args(framework: str, scheme: str, match: bool) -> tuple[list[str], str]:
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


def _keras(scheme: str, layout: str, groups: int, match: bool) -> str:
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
    extra, note = _defaults_args("keras", scheme, match)
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


def snippet(
    framework: str,
    scheme: str,
    layout: str,
    shape: tuple[int, ...],
    *,
    groups: int = 1,
    match: bool = False,
) -> Snippet:
    """The code that applies `scheme` to a `layout` tensor of `shape` in `framework`.

    match=True writes PyTorch's epsilon (and, for Flax, the two-pass variance) explicitly,
    which is how a port reproduces PyTorch's numbers.

    >>> print(snippet("pytorch", "layer", "btf", (2, 4, 8)).body)
    norm = nn.LayerNorm(normalized_shape=8)
    y = norm(x)
    >>> print(snippet("keras", "group", "nchw", (2, 8, 3, 3), groups=4).body)
    # epsilon: default 0.001
    norm = layers.GroupNormalization(groups=4, axis=1)
    y = norm(x)
    """
    if framework not in FRAMEWORKS:
        raise LnvizError("framework", framework, "one of " + ", ".join(FRAMEWORKS))
    if scheme not in SCHEMES or layout not in LAYOUTS:
        raise LnvizError("scheme/layout", (scheme, layout), "a known scheme and layout")
    if len(shape) != len(LAYOUT_AXES[layout]):
        raise LnvizError("shape", shape, f"{len(LAYOUT_AXES[layout])} sizes for {layout}")
    if framework == "pytorch":
        body = _pytorch(scheme, layout, tuple(shape), groups)
    elif framework == "keras":
        body = _keras(scheme, layout, groups, match)
    else:
        body = _flax(scheme, layout, groups, match)
    stand_in = f"{_shape_comment(layout, shape)}: use your own\n"
    stand_in += _STAND_IN[framework].format(shape=tuple(shape))
    header = f"# {FRAMEWORK_NAMES[framework]}"
    return Snippet(framework, f"{header}\n{_IMPORTS[framework]}", stand_in, body)


def snippets(
    scheme: str, layout: str, shape: tuple[int, ...], *, groups: int = 1, match: bool = False
) -> dict[str, Snippet]:
    """snippet() for every framework, keyed like FRAMEWORKS.

    >>> list(snippets("rms", "nhwc", (1, 2, 2, 3)))
    ['pytorch', 'keras', 'flax']
    """
    return {f: snippet(f, scheme, layout, shape, groups=groups, match=match) for f in FRAMEWORKS}


def defaults_rows(scheme: str) -> dict[str, list[str]]:
    """The defaults table of a scheme, as columns of display text (one entry per framework).

    >>> defaults_rows("layer")["ε"]
    ['1e-05', '0.001', '1e-06']
    """
    eps, var, mom, rvar = [], [], [], []
    for f in FRAMEWORKS:
        conv, bn = CONVENTIONS[f, scheme], CONVENTIONS[f, "batch"]
        e = f"{effective_eps(conv):.9g}"
        eps.append(e + " (float32's machine ε)" if conv.eps is None else e)
        if scheme == "rms":
            var.append("mean of x² (no centring)")
        elif conv.fast_variance:
            var.append("E[x²] − E[x]²" + (", clipped at 0" if conv.clip_variance else ""))
        else:
            var.append("two-pass E[(x − μ)²]")
        mom.append(f"{bn.momentum:g}, the weight of the {bn.momentum_weights}")
        rvar.append(bn.running_var)
    return {
        "framework": [FRAMEWORK_NAMES[f] for f in FRAMEWORKS],
        "ε": eps,
        "variance": var,
        "batch norm momentum": mom,
        "running variance": rvar,
    }


def reduced_axes(scheme: str, layout: str) -> str:
    """The axes one statistic is pooled over, in the layout's letters.

    >>> reduced_axes("group", "nhwc")
    'H, W and C/G'
    """
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
    """Shape of the gain (and bias, if any) the generated layer creates; () when none.

    Layer and RMS norm on images span every non-batch axis in all three frameworks (as
    the generated code asks); the channel-wise schemes hold one value per channel, except
    PyTorch's InstanceNorm, which creates none by default.

    >>> param_shape("pytorch", "instance", "nchw", (2, 3, 4, 4))
    ()
    >>> param_shape("keras", "layer", "nchw", (2, 3, 4, 4))
    (3, 4, 4)
    """
    if not CONVENTIONS[framework, scheme].params:
        return ()
    if scheme in ("layer", "rms"):
        return tuple(shape[-1:] if layout == "btf" else shape[1:])
    return (shape[channel_axis(layout)],)
