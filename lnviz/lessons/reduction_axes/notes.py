"""The reduction-axes page's text by scheme; for "rms" none claims a mean, variance or β."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from lnviz.axes import SCHEME_INFO, Reduction
from lnviz.content import text
from lnviz.functional import default_rms_eps
from lnviz.lessons.frameworks import CONVENTIONS, FRAMEWORK_NAMES, FRAMEWORKS

SCHEME_SHORT = {"layer_all": "layer-all", "rms": "RMS"}  # the scheme radio's labels and URL values
_FRAMEWORK_SCHEME = {"layer_all": "layer"}  # the page's scheme -> the frameworks' layer


def _n(count: int, word: str) -> str:
    """'1 feature', '6 features'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _parameters(red: Reduction) -> str:
    axes = red.param_axes
    per = axes[0] if len(axes) == 1 else "(" + ", ".join(axes) + ")"
    if red.centered:
        return f"γ and β have shape {red.param_shape}: one of each per {per}."
    return f"γ has shape {red.param_shape}: one per {per}; there is no β."


def _over(red: Reduction) -> str:
    """The entries pooled into one group, in words."""
    if red.scheme == "group":
        per = red.x.shape[2] // red.num_groups
        return f"the token axis and a block of {_n(per, 'feature')}"
    axes = red.reduce_axes
    return f"the {' and '.join(axes)} {'axis' if len(axes) == 1 else 'axes'}"


def scheme_caption(red: Reduction) -> str:
    """One sentence under the scheme choice: which statistics, pooled over which entries."""
    name = SCHEME_INFO[red.scheme][0]
    if not red.centered:
        return (
            f"**{name}**: each mean square is taken over {_over(red)}, separately for every "
            "other index; no mean is subtracted."
        )
    return (
        f"**{name}**: each mean and variance is taken over {_over(red)}, separately for "
        "every other index."
    )


def scheme_notes(red: Reduction) -> tuple[str, ...]:
    """'What to notice' bullets for the scheme shown, with its own group counts."""
    _, t, f = red.x.shape  # (B, T, F)
    count, size = red.group_count, red.group_size
    scheme = red.scheme
    notes: list[str]
    if scheme == "layer":
        notes = [
            f"Each (batch, token) row is one group: {_n(count, 'group')} of {_n(f, 'feature')}.",
            "Other examples and other tokens never enter a token's statistics.",
        ]
    elif scheme == "layer_all":
        notes = [
            f"Each example is one group: {_n(count, 'group')} of T × F = {_n(size, 'entry')}.",
            "A token's output depends on the other tokens of its example, never on other "
            "examples; the parameters fix the number of tokens T.",
        ]
    elif scheme == "batch":
        notes = [
            "Each feature is one group across every example and token: "
            f"{_n(count, 'group')} of B × T = {_n(size, 'entry')}.",
            "An output depends on the rest of the batch. This is batch norm in training; in "
            "evaluation it uses running statistics, and batch mates no longer matter.",
        ]
    elif scheme == "instance":
        notes = [
            f"Each feature of each example is one group over its {_n(t, 'token')}: "
            f"{_n(count, 'group')} of {_n(size, 'entry')}.",
            "Neither other examples nor other features enter a group's statistics.",
        ]
    elif scheme == "group":
        g = red.num_groups
        notes = [
            f"Each example's {_n(f, 'feature')} are split into G = {g} "
            f"{'block' if g == 1 else 'blocks'} of {f // g}; a block over all {_n(t, 'token')} "
            f"of one example is one group: {_n(count, 'group')} of {_n(size, 'entry')}.",
        ]
        if g == 1:
            notes.append(
                "Here G = 1: the same groups as layer norm over (token, feature), but "
                "parameters per feature."
            )
        elif g == f:
            notes.append("Here G = F: one feature per group, the same groups as instance norm.")
        else:
            notes.append(
                "G = 1 would pool like layer norm over (token, feature); G = F like instance norm."
            )
    else:
        notes = [
            "Each (batch, token) row is one group, as in token-wise layer norm: "
            f"{_n(count, 'group')} of {_n(f, 'feature')}.",
            "No mean is subtracted: each entry is divided by √(mean square + ε) of its row. "
            "RMS norm keeps no mean and no variance.",
        ]
    if red.centered and size == 1:
        notes.append(
            "Each group holds a single entry, so its variance is 0: "
            + (
                "every core value is 0 and the output is β."
                if red.eps > 0
                else "with ε = 0 every core value is 0/0."
            )
        )
    return (*notes, _parameters(red))


def output_name(red: Reduction) -> str:
    """The output as a formula: y = γ·core + β, or y = γ·core for RMS norm (no β)."""
    return "y = γ·core + β" if red.centered else "y = γ·core"


def eps_label_text(scheme: str) -> str:
    """The ε slider's label: added to the variance, or to the mean square for RMS norm."""
    return f"ε (added to the {'mean square' if scheme == 'rms' else 'variance'})"


def eps_help(scheme: str) -> str:
    """What ε is added to, and each framework's default for the layer shown."""
    which = "mean square" if scheme == "rms" else "variance"
    layer = _FRAMEWORK_SCHEME.get(scheme, scheme)
    parts = []
    for fw in FRAMEWORKS:
        eps = CONVENTIONS[fw, layer].eps
        if eps is None:
            machine = text.short(default_rms_eps(np.dtype(np.float32)), 2)
            value = f"the machine epsilon of the input's dtype ({machine} for float32)"
        else:
            value = text.eps_label(eps)
        parts.append(f"{FRAMEWORK_NAMES[fw]} {value}")
    return f"Added to each group's {which}. Defaults for this layer: {', '.join(parts)}."


def nonfinite_warning(red: Reduction) -> str:
    """Why the output is not finite: a group with zero variance (mean square) at ε = 0."""
    if red.centered:
        return "Some group has variance 0 and ε = 0: its entries are 0/0, so the output is NaN."
    return (
        "Some group has only zeros, so its mean square is 0, and ε = 0: its entries are 0/0, "
        "so the output is NaN."
    )


def display_columns(columns: Mapping[str, Sequence[object]]) -> dict[str, list[object]]:
    """A table's columns for st.dataframe, every float in the one number style."""
    return {
        name: [text.number(v) if isinstance(v, float) else v for v in col]
        for name, col in columns.items()
    }
