"""The epsilon page's computed notes; plain text writes the core at ε/a² as u_(ε/a²)."""

from __future__ import annotations

from lnviz.content import closed_forms, text
from lnviz.content.closed_forms import form
from lnviz.core import Core, analyze_core
from lnviz.family import Family
from lnviz.jacobian import Spectrum
from lnviz.lessons.epsilon.state import CONSTANT_PRESET
from lnviz.lessons.explorers import WORKED_Z, ScalingCheck


def _variance(core_var: float, shortfall: float) -> str:
    """q/(q+ε), written 1 − ε/(q+ε) when it is too close to 1 for a short form."""
    shown = form(core_var)
    return f"1 − {text.short(shortfall)}" if shown == "1" and shortfall > 0 else shown


def _vec_form(values) -> str:
    """Closed forms with their decimals, e.g. (−1/√2, 0, 1/√2) ≈ (−0.7071, 0, 0.7071)."""
    closed = closed_forms.exact_vec(values)
    decimals = text.vector(values)
    return f"{closed} ≈ {decimals}" if closed else decimals


def core_notes(core: Core) -> tuple[str, ...]:
    """The core's mean, its variance short of 1, the worked example and constant inputs."""
    lo, hi = analyze_core(WORKED_Z, 1 / 3), analyze_core(WORKED_Z, 4 / 3)
    q, e = float(core.q), core.eps
    shortfall = e / (q + e)
    constant = q == 0
    return (
        f"Worked example: z = {text.vector(WORKED_Z)} has q = {form(float(lo.q))}; "
        f"ε = 1/3 gives {_vec_form(lo.core)} and ε = 4/3 gives {_vec_form(hi.core)}: "
        "the same input, a different core.",
        f"The core always has mean 0; its variance q/(q+ε) = "
        f"{_variance(float(core.core_var), shortfall)} falls short of 1 by ε/(q+ε) = "
        f"{form(shortfall)}, for every ε > 0.",
        (
            "This z is constant: v = 0, so its core is 0 for every ε > 0."
            if constant
            else "A constant z has v = 0, so its core is 0 for every ε > 0."
        ),
    )


def family_notes(current: Family) -> tuple[str, ...]:
    """The asymptote ±√(3/2), the peak slope ε^(−1/2), and how ε widens the step."""
    a = current.asymptote
    return (
        f"Far from t = 0 every curve approaches ±{form(a)} ≈ ±{text.number(a, 4)}, whatever ε is.",
        f"The slope at t = 0 is ε^(−1/2) = {text.number(current.peak_slope, 3)}: smaller ε, "
        "steeper jump through a nearly constant input.",
        "Larger ε makes the transition wider and gentler.",
    )


def variance_notes(core: Core) -> tuple[str, ...]:
    """Where this z sits on the curve q/(q+ε), with the general facts about it."""
    q, e = float(core.q), core.eps
    here = (
        "This z is constant (q = 0): its core variance is 0, so it has no point on the log axis."
        if q == 0
        else f"This z has q/ε = {text.short(q / e)}, so its core has variance "
        f"{_variance(float(core.core_var), e / (q + e))} (the green diamond)."
    )
    return (
        "At q = ε the core has variance exactly 1/2.",
        "It approaches 1 only when q is many times ε, and 0 when q is much smaller.",
        here,
        "Gain and bias act after this, so the final output can have any variance.",
    )


def scaling_notes(check: ScalingCheck) -> tuple[str, ...]:
    """What scaling by a did to this z, against the rounding level of the page."""
    s = check.scaling
    if s.a == 1:
        first = "With a = 1 nothing is scaled, so nothing changes; pick another a."
    elif check.constant:
        first = "This z is constant: its core is 0 at every scale, so scaling changes nothing."
    elif check.visible:
        first = (
            f"Here the core moves by up to {text.short(s.change)}, above rounding "
            f"({text.short(check.noise)}): on this z, ε = {text.eps_label(s.eps)} at scale "
            f"a = {text.short(s.a)} acts like ε/a² = {text.eps_label(s.eps / s.a**2)}. For ε > 0 "
            "and a non-constant z the core changes unless a = 1."
        )
    else:
        first = (
            f"Here the change, {text.short(s.change)}, is within rounding "
            f"({text.short(check.noise)}): ε = {text.eps_label(s.eps)} is negligible next "
            f"to q. The change is real for every ε > 0 and a ≠ 1, but to see it take a "
            "larger ε or a z of smaller spread."
        )
    if check.at_zero is None:
        last = "At ε = 0 a constant z has no core (0/0), so there is nothing to compare."
    else:
        last = (
            f"With ε = 0 the change is {text.short(check.at_zero.change)}, rounding only: "
            "exact scale invariance holds only at ε = 0."
        )
    return (
        first,
        f"The identity u_ε(az) = u_(ε/a²)(z) holds to rounding for every a (here to "
        f"{text.short(s.identity_error)}).",
        last,
    )


def bound_message(spec: Spectrum) -> str | None:
    """The success message when the operator norm reaches the bound ε^(−1/2), else None."""
    if not spec.attained:
        return None
    if spec.q == 0:
        return "Constant input: the Jacobian is P/√ε and its norm equals the bound ε^(−1/2)."
    return (
        f"q = {text.short(spec.q)} is negligible next to ε: the Jacobian is P/√ε up to "
        "rounding and its norm reaches the bound ε^(−1/2)."
    )


def jacobian_notes(spec: Spectrum, constant_preset: str = CONSTANT_PRESET) -> tuple[str, ...]:
    """The three eigenspaces as they exist at this z, and whether the bound is reached."""
    labels = {d.label: d for d in spec.directions}
    d = spec.z.size
    radial, tangential = labels.get("radial"), labels.get("tangential")
    if radial is None:
        second = (
            "This z is constant, so v = 0 and there is no radial direction: every direction "
            f"orthogonal to 𝟏 gets (q+ε)^(−1/2) = ε^(−1/2) = {text.short(spec.core_bound)}."
        )
    elif tangential is None:
        second = (
            f"With d = {d} the only direction besides 𝟏 is the radial one, v: its eigenvalue "
            f"ε/(q+ε)^(3/2) = {text.short(radial.value)}."
        )
    else:
        k = tangential.basis.shape[1]
        which = "the direction" if k == 1 else f"the {k} directions"
        second = (
            f"The radial direction v has eigenvalue ε/(q+ε)^(3/2) = {text.short(radial.value)}, "
            f"smaller than the (q+ε)^(−1/2) = {text.short(tangential.value)} of {which} "
            "orthogonal to 𝟏 and v."
        )
    bound = text.short(spec.core_bound)
    if spec.attained:
        third = f"Here the largest eigenvalue reaches the bound ε^(−1/2) = {bound}: " + (
            "at a constant input the Jacobian is P/√ε."
            if spec.q == 0
            else "q is negligible next to ε, so the Jacobian is P/√ε up to rounding."
        )
    else:
        third = (
            f"No eigenvalue exceeds ε^(−1/2) = {bound}; the largest here is "
            f"{text.short(spec.operator_norm)}. A constant input reaches the bound: try the "
            f"'{constant_preset}' preset."
        )
    return (
        "The common offset 𝟏 is always sent to 0: shifting every coordinate changes nothing.",
        second,
        third,
    )
