"""The invariance page's tables and notes: an effect counts only above its rounding level."""

from __future__ import annotations

from dataclasses import dataclass

from lnviz.content import closed_forms, text
from lnviz.lessons.explorers import (
    WORKED_Z,
    Contrast,
    RedundancyCheck,
    ScalingCheck,
    ShiftCheck,
)
from lnviz.lessons.invariance.state import EXACT_SCALING_PRESET
from lnviz.lessons.symmetry import common_shift, unequal_shift

WORKED_EPS = 1 / 3  # ε of the shift examples


def change(x: float, noise: float) -> str:
    """A largest change: a short decimal, marked as rounding when it is within `noise`."""
    if x == 0:
        return "0"
    return f"{text.short(x)} (rounding)" if x <= noise else text.short(x)


def common_shift_notes(check: ShiftCheck) -> tuple[str, ...]:
    """The worked pair, and why the change is 0 whatever c and ε are."""
    ex = common_shift(WORKED_Z, 100.0, WORKED_EPS)
    sym = check.sym
    computed = (
        ""
        if sym.ln_change == 0
        else f" Here the computed change is {text.short(sym.ln_change)}: the rounding of "
        "z + c itself, not an effect."
    )
    return (
        f"Worked example: {text.vector(ex.z)} and {text.vector(ex.moved)} at ε = 1/3 both "
        f"give {text.vector(ex.ln_moved)}.",
        "In exact arithmetic the change is 0 for every c and every ε: the mean absorbs the "
        f"shift and the variance never sees it.{computed}",
    )


def unequal_shift_notes(check: ShiftCheck) -> tuple[str, ...]:
    """The worked (1, 2, 3) -> (1, 2, 4), and what the kept part of this s does."""
    ex = unequal_shift(WORKED_Z, (0.0, 0.0, 1.0), WORKED_EPS)
    first = (
        f"Worked example: moving only the last coordinate, {text.vector(ex.z)} → "
        f"{text.vector(ex.moved)} at ε = 1/3, gives "
        f"{closed_forms.exact_vec(ex.ln_moved) or text.vector(ex.ln_moved)} instead of "
        f"{text.vector(ex.ln)}."
    )
    sym, split = check.sym, check.split
    size = change(sym.ln_change, check.noise)
    if split.common:
        second = (
            f"Here s has equal entries, so the kept part is zero and the change is {size}: "
            "a common shift after all."
        )
    elif check.visible:
        second = (
            f"Here the kept part moves the core by up to {size}. Try s with equal entries "
            "(e.g. 7, 7, 7): the change drops to 0, because then the kept part is zero."
        )
    elif check.parallel and sym.eps == 0:
        second = (
            f"Here the change is {size} although s is unequal: its kept part is a multiple of "
            "z's centred vector, so it only rescales it, and at ε = 0 layer norm cannot see a "
            "rescaling (section 2)."
        )
    else:
        second = (
            f"Here the change is {size}: the kept part of s, "
            f"{text.short_vector(split.rest)}, is too small to show beyond rounding."
        )
    return (first, second)


def scaling_notes(check: ScalingCheck) -> tuple[str, ...]:
    """What scaling by a did at this ε, the identity, and ε = 0."""
    s = check.scaling
    general = "large a shrinks the effective ε towards 0, small a inflates it and flattens "
    if s.a == 1:
        first = "a = 1 scales nothing, so the core cannot move; pick another a."
    elif s.eps == 0:
        first = f"At ε = 0 there is no ε to rescale: the change is {change(s.change, check.noise)}."
    elif check.constant:
        first = "This z is constant: its core is 0 at every scale, so scaling changes nothing."
    elif check.visible:
        first = (
            f"Here the core moves by up to {text.short(s.change)}: ε = {text.eps_label(s.eps)} "
            f"at a = {text.short(s.a)} acts like ε/a² on z itself. In "
            f"general {general}the core."
        )
    else:
        first = (
            f"Here the change, {change(s.change, check.noise)}, is within rounding: "
            f"ε = {text.eps_label(s.eps)} is negligible next to q. In general {general}the core."
        )
    if check.at_zero is None:
        last = "At ε = 0 this constant z has no core (0/0), so there is nothing to compare."
    else:
        last = (
            f"At ε = 0 the change is {change(check.at_zero.change, check.noise)}: "
            "the exact invariance holds only there."
        )
    return (
        first,
        "The identity u_ε(az) = u_(ε/a²)(z) holds to rounding for every a (crosses on the "
        f"orange bars; here to {text.short(s.identity_error)}).",
        last,
    )


@dataclass(frozen=True)
class ContrastTable:
    """Layer norm and RMS norm of z, z + c and a·z, as vectors."""

    input: tuple[str, ...]
    layer_norm: tuple[str, ...]
    rms_norm: tuple[str, ...]

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "input": list(self.input),
            "layer norm": list(self.layer_norm),
            "RMS norm": list(self.rms_norm),
        }


def contrast_table(c: Contrast) -> ContrastTable:
    """The table under the contrast chart (undefined entries read 'undefined')."""
    sh, sc = c.shift, c.scaled
    return ContrastTable(
        ("z", "z + c", "a·z"),
        tuple(text.vector(v) for v in (sh.ln, sh.ln_moved, sc.ln_moved)),
        tuple(text.vector(v) for v in (sh.rms, sh.rms_moved, sc.rms_moved)),
    )


def rms_notes(c: Contrast) -> tuple[str, ...]:
    """Common shift and scaling, layer norm against RMS norm, at this state."""
    sh, sc, noise = c.shift, c.scaled, c.noise
    if sh.amount == 0:
        shift = "Common shift: c = 0 shifts nothing, so both bars are 0; pick another c."
    else:
        grows = "grows" if c.m_shifted > c.m else "shrinks" if c.m_shifted < c.m else "stays"
        shift = (
            f"Common shift c = {text.short(sh.amount)}: layer norm changes by "
            f"{change(sh.ln_change, noise)}, RMS norm by {change(sh.rms_change, noise)}. "
            "RMS norm does not centre, so nothing absorbs the shift: its mean square m "
            f"{grows} from {text.short(c.m)} to {text.short(c.m_shifted)}, and for large |c| "
            "every coordinate of rms_ε(z + c) approaches the same value."
        )
    if sc.amount == 1:
        scale = "Scaling: a = 1 scales nothing, so both bars are 0."
    elif sc.eps == 0:
        scale = (
            f"Scaling by a = {text.short(sc.amount)} at ε = 0: layer norm changes by "
            f"{change(sc.ln_change, noise)}, RMS norm by {change(sc.rms_change, noise)} — "
            "both exactly invariant, up to rounding."
        )
    else:
        scale = (
            f"Scaling by a = {text.short(sc.amount)} at ε = {text.eps_label(sc.eps)}: layer "
            f"norm changes by {change(sc.ln_change, noise)}, RMS norm by "
            f"{change(sc.rms_change, noise)}; both turn ε into ε/a², and both are exact at "
            f"ε = 0 (the '{EXACT_SCALING_PRESET}' preset)."
        )
    return (shift, scale)


def ws_line(check: RedundancyCheck) -> str:
    """W Δx split into the common part layer norm removes and the rest it keeps."""
    split = check.split
    ws = text.vector(split.s)
    if split.common:
        return (
            f"W Δx = **{ws}** has equal entries: all of it is a common shift "
            f"({text.number(split.c, 4)} on every coordinate), which layer norm removes."
        )
    return (
        f"W Δx = **{ws}**: its common part {text.number(split.c, 4)} is removed, the rest "
        f"{text.vector(split.rest)} reaches the output."
    )


def redundancy_notes(check: RedundancyCheck) -> tuple[str, ...]:
    """b + c and W + 1rᵀ change nothing; the raw-input shift does, unless W Δx is common."""
    red = check.red
    size = change(red.input_change, check.noise)
    if check.input_visible:
        moved = (
            "Red diamonds leave the diagonal: a raw-input shift is not absorbed, because W Δx "
            f"has unequal entries (largest change {size})."
        )
    elif check.split.common:
        moved = (
            f"Here the red diamonds stay on the diagonal too (largest change {size}): this "
            "W Δx has equal entries, so this raw-input shift is removed as well. A generic Δx "
            "is not."
        )
    else:
        moved = (
            f"Here the red diamonds barely move (largest change {size}): this Δx is too small "
            "to show beyond rounding. A larger Δx moves them off the diagonal."
        )
    return (
        "Green circles and teal crosses sit on the diagonal: b + c and W + 1rᵀ change "
        f"nothing, for all {check.inputs} inputs at once.",
        moved,
        "So a network with layer norm after W x + b cannot learn anything through the "
        "common part of b or of W's rows — those directions are redundant.",
    )
