"""Questions of the epsilon page, each on a new case beside the one the page works out."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

import lnviz
from lnviz.content.exercises._links import eps_param, vector_param
from lnviz.content.questions import Question, link, number
from lnviz.content.text import eps_label, short, vector, with_exact
from lnviz.content.text import number as num
from lnviz.lessons.explorers import WORKED_Z


def questions(z: ArrayLike = WORKED_Z, eps: float = 1 / 3) -> tuple[Question, ...]:
    """New cases beside the page's: the core variance of 2z, h_ε′(0) at another ε, d = 4's limit."""
    z = np.asarray(z, dtype=np.float64)
    core = lnviz.analyze_core(z * (2.0 if np.abs(z).max() <= 500 else 0.5), eps)
    steeper = lnviz.epsilon_family(0.01 if eps != 0.01 else 1e-4)
    return (_core_variance(core), _slope(steeper), _limit(core.eps))


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
        f"Your turn on a new input, z = {vector(core.z)}, at ε = {e_text}: it {given}. "
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


def _limit(eps: float) -> Question:
    """The asymptote √(d/2) of the last core coordinate of (−t, 0, …, 0, t), at d = 4."""
    e_text, far = eps_label(eps), (-100.0, 0.0, 0.0, 100.0)
    reached = float(lnviz.analyze_core(far, eps).core[-1])
    return number(
        "limit",
        "The page's curve is for z = (−t, 0, t). Your turn with four entries, "
        "z = (−t, 0, 0, t): the core's last coordinate is t/√(t²/2 + ε). At "
        f"ε = {e_text}, at what value does it level off as t grows?",
        math.sqrt(2),
        link("epsilon", "Show z = (−100, 0, 0, 100)", eps=eps_param(eps), z=vector_param(far)),
        hint="For large t, ε is negligible next to t²/2.",
        explanation=f"t/√(t²/2) = √2 ≈ {short(math.sqrt(2))}, whatever ε is. For "
        "z = (−t, 0, …, 0, t) with d entries, q = 2t²/d and the curve levels off at √(d/2): "
        f"√(3/2) for the page's three. At z = {vector(far)} the core's last coordinate is "
        f"already {short(reached)}.",
    )
