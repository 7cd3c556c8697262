"""Questions of the gain-and-bias page: the output's mean and variance, and a zero gain."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import lnviz
from lnviz.content.exercises._links import eps_param, vector_param
from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import eps_label, vector, vector_with_exact, with_exact
from lnviz.lessons.explorers import WORKED_BETA, WORKED_GAMMA, WORKED_Z, affine_check

ZERO_AT = 1  # the coordinate (from 0) whose gain the third question sets to 0


def questions(
    z: ArrayLike = WORKED_Z,
    gamma: ArrayLike | None = WORKED_GAMMA,
    beta: ArrayLike | None = WORKED_BETA,
    eps: float = 0.0,
) -> tuple[Question, ...]:
    """New gains and biases at the page's z and ε, a zero gain; the worked example if no core."""
    res = lnviz.affine_stages(z, gamma, beta, eps)
    if not res.defined:
        res = lnviz.affine_stages(WORKED_Z, WORKED_GAMMA, WORKED_BETA, 0.0)
    new = new_case(res)
    return (_moment(new, "mean"), _moment(new, "variance"), _zero_gain(res))


def new_case(res: lnviz.AffineStages) -> lnviz.AffineStages:
    """Same z and ε, gains doubled and biases + 1 (halved or − 1 where ±100 would be left)."""
    gamma = res.gamma * (2.0 if np.abs(res.gamma).max() <= 50 else 0.5)
    beta = res.beta + (1.0 if res.beta.max() <= 99 else -1.0)
    return lnviz.affine_stages(res.input.values, gamma, beta, res.eps)


def _state(res: lnviz.AffineStages) -> str:
    return (
        f"z = {vector(res.input.values)}, γ = {vector(res.gamma)}, β = {vector(res.beta)} "
        f"and ε = {eps_label(res.eps)}"
    )


def _show(res: lnviz.AffineStages, label: str, gamma: np.ndarray | None = None):
    return link(
        "gain-and-bias",
        label,
        z=vector_param(res.input.values),
        gamma=vector_param(res.gamma if gamma is None else gamma),
        beta=vector_param(res.beta),
        eps=eps_param(res.eps),
    )


def _moment(res: lnviz.AffineStages, which: str) -> Question:
    """The output's mean or population variance, with what the core had."""
    check = affine_check(res)
    y = res.output
    value = y.mean if which == "mean" else y.var
    if check.centred if which == "mean" else check.unit_variance:  # up to rounding
        value = 0.0 if which == "mean" else 1.0
    core_said = "0" if which == "mean" else with_exact(check.core_var)
    if which == "mean":
        verdict = "so the output is centred after all" if check.centred else "not 0"
    else:
        verdict = "so the spread is 1 after all" if check.unit_variance else "not 1"
    return number(
        which,
        f"Your turn, with new gains and biases: {_state(res)}. What is the **{which}** of the "
        "output y = γ ⊙ u + β? "
        f"(The core u has {which} {core_said}.)",
        value,
        _show(res, "Show this state"),
        hint="Compute the core u = (z − μ)/√(q + ε) first, then y = γ ⊙ u + β entry by "
        f"entry, then the {which} of y's entries"
        + (" (population variance: divide by d)." if which == "variance" else "."),
        explanation=f"The core is {vector_with_exact(res.core.values)} and "
        f"y = {vector_with_exact(y.values)}, whose {which} is {with_exact(value)}: {verdict}. "
        + _why(res, check.plain),
    )


def _why(res: lnviz.AffineStages, plain: bool) -> str:
    if res.constant_input:
        return "A constant input has the core 0, so y is β itself."
    if plain:
        return "With γ = 1 and β = 0 the output is the core itself."
    return "The gains stretch the coordinates unequally and β moves them."


def _zero_gain(res: lnviz.AffineStages) -> Question:
    """γ_k = 0: y_k = β_k whatever z is; the rest still follows z, unless every gain is 0."""
    k = ZERO_AT
    g0 = res.gamma.copy()
    g0[k] = 0.0
    z = res.input.values
    other = z[::-1] * 2.0 + np.arange(z.size)  # a second, different input
    if np.ptp(other) == 0:  # pragma: no cover - z reversed, doubled and tilted is never flat
        other = other + np.arange(z.size)
    outs = [lnviz.affine_stages(x, g0, res.beta, res.eps).output.values for x in (z, other)]
    pinned = all(np.isclose(y[k], res.beta[k], rtol=0, atol=1e-12) for y in outs)
    all_beta = all(np.allclose(y, res.beta, rtol=0, atol=1e-12) for y in outs)
    right = 2 if all_beta else 0 if pinned else 1
    n = k + 1
    sub = "₀₁₂₃₄₅₆₇₈₉"[n]
    return choice(
        "zero-gain",
        f"Set the gain of coordinate {n} to 0 (γ{sub} = 0), keeping β = {vector(res.beta)}. "
        "What does the output do?",
        (
            f"y{sub} = β{sub} for every input z; the other coordinates still follow z",
            f"y{sub} keeps the core's value u{sub}, as if there were no gain",
            "the whole output y equals β, whatever z is",
        ),
        right,
        _show(res, f"Show γ{sub} = 0", gamma=g0),
        hint=f"Write out y{sub} = γ{sub} u{sub} + β{sub} with γ{sub} = 0.",
        explanation=f"y{sub} = 0 · u{sub} + β{sub} = {with_exact(float(res.beta[k]))} for "
        f"every z: coordinate {n} no longer carries any information about the input"
        + (
            "; and here every other gain is 0 as well, so all of y is β."
            if all_beta
            else ". A gain of 0 switches that feature off."
        ),
    )
