"""Questions of the epsilon page: the core's variance, the slope at 0, the curve's limit."""

from __future__ import annotations

from numpy.typing import ArrayLike

import lnviz
from lnviz.content.exercises._links import eps_param, vector_param
from lnviz.content.questions import Question, link, number
from lnviz.content.text import eps_label, short, vector, with_exact
from lnviz.content.text import number as num
from lnviz.lessons.explorers import WORKED_Z


def questions(z: ArrayLike = WORKED_Z, eps: float = 1 / 3) -> tuple[Question, ...]:
    """Three questions at the page's ε (and z): the variance of z's core, the slope of
    h_ε at t = 0, and the value h_ε levels off at."""
    core = lnviz.analyze_core(z, eps)
    family = lnviz.epsilon_family(core.eps)
    return (_core_variance(core), _slope(family), _limit(family))


def _core_variance(core: lnviz.Core) -> Question:
    """q / (q + ε) at the page's z and ε."""
    q, e, var = float(core.q), core.eps, float(core.core_var)
    e_text = eps_label(e)
    given = (  # q is given, unless the answer would then stand in the prompt (q + ε = 1)
        f"has variance q = {with_exact(q)}"
        if abs(var - q) > 1e-12
        else "has some population variance q (find it first)"
    )
    return number(
        "core-variance",
        f"At ε = {e_text}, the input z = {vector(core.z)} {given}. "
        "What is the variance of its core u_ε(z)?",
        var,
        link("epsilon", "Show this core", eps=eps_param(e), z=vector_param(core.z)),
        hint="The core divides the centred z by √(q + ε) instead of √q.",
        explanation=f"q/(q + ε) = {num(q)}/({num(q)} + {e_text}) = {with_exact(var)}"
        + (
            ": a constant input has the core 0 whatever ε is."
            if q == 0
            else f", {short(1 - var)} short of 1. ε shrinks the variance most when q is "
            "small next to it."
            + (
                " (Here q + ε = 1, so the answer happens to equal q: a coincidence of these "
                "numbers, not a rule.)"
                if abs(q + e - 1) < 1e-9
                else ""
            )
        ),
    )


def _slope(family: lnviz.Family) -> Question:
    """h'_ε(0) = ε^(−1/2): the steepest slope of the core's coordinate."""
    e_text = eps_label(family.eps)
    return number(
        "slope",
        "For z = (−t, 0, t) the core's last coordinate is h_ε(t) = t/√(2t²/3 + ε). "
        f"At ε = {e_text}, how steep is this curve at t = 0?",
        family.peak_slope,
        link("epsilon", f"Show the curve at ε = {e_text}", eps=eps_param(family.eps)),
        hint="Near t = 0 the term 2t²/3 is negligible next to ε, so h_ε(t) ≈ t/√ε.",
        explanation=f"h′_ε(0) = ε^(−1/2) = {with_exact(family.peak_slope)}. The smaller ε, "
        "the steeper the core near a constant input. No change of z moves the core faster "
        "than ε^(−1/2) times that change: the bound the last section measures.",
    )


def _limit(family: lnviz.Family) -> Question:
    """The asymptote √(3/2) of h_ε, the same for every ε."""
    e_text = eps_label(family.eps)
    return number(
        "limit",
        f"As t grows, h_ε(t) = t/√(2t²/3 + ε) levels off. At ε = {e_text}, at what value?",
        family.asymptote,
        link("epsilon", f"Show the curve at ε = {e_text}", eps=eps_param(family.eps)),
        hint="For large t, ε is negligible next to 2t²/3.",
        explanation=f"t/√(2t²/3) = √(3/2) ≈ {short(family.asymptote)}, whatever ε is: ε only "
        f"decides how soon the curve gets there (at ε = {e_text}, "
        f"h_ε({num(float(family.t[-1]))}) = {short(float(family.h[-1]))}).",
    )
