"""The gain-and-bias page's tables and notes: numbers computed, closed forms only when certain."""

from __future__ import annotations

from dataclasses import dataclass

from lnviz.content import closed_forms, text
from lnviz.content.closed_forms import form
from lnviz.core import AffineStages, affine_stages
from lnviz.lessons.explorers import WORKED_BETA, WORKED_GAMMA, WORKED_Z, AffineCheck
from lnviz.lessons.gain_and_bias.state import PLAIN_PRESET, WORKED_EPS_PRESET


def exact_help(x: float) -> str | None:
    """A metric's tooltip: its closed form when one is certain, else None."""
    form = closed_forms.exact(x)
    return f"exactly {form}" if form else None


@dataclass(frozen=True)
class StageTable:
    """Mean and variance of each stage, as decimals with their closed forms."""

    stage: tuple[str, ...]
    mean: tuple[str, ...]
    variance: tuple[str, ...]


def stage_table(res: AffineStages) -> StageTable:
    """The table under the three stage charts (`res` must be defined)."""
    return StageTable(
        tuple(s.name for s in res.stages),
        tuple(closed_forms.with_exact(s.mean) for s in res.stages),
        tuple(closed_forms.with_exact(s.var) for s in res.stages),
    )


def stage_lines(res: AffineStages) -> str:
    """The three stage vectors as a markdown list."""
    return "\n".join(
        f"- **{s.name}** = {closed_forms.vector_with_exact(s.values)}" for s in res.stages
    )


def _worked(eps: float) -> AffineStages:
    return affine_stages(WORKED_Z, WORKED_GAMMA, WORKED_BETA, eps)


def stage_notes(res: AffineStages, check: AffineCheck) -> tuple[str, ...]:
    """What the gain and bias did to this core, coordinate by coordinate."""
    notes: list[str] = []
    if res.defined and not res.constant_input:
        u = closed_forms.vector_with_exact(res.core.values)
        if check.zero_entries:
            i = check.zero_entries[0]
            g, b = text.number(float(res.gamma[i])), text.number(float(res.beta[i]))
            notes.append(
                f"Here the core is {u}. Its entry {i + 1} is 0, so the gain {g} there has "
                f"nothing to multiply; the bias {b} sets the output to {b}."
            )
        else:
            notes.append(
                f"Here the core is {u}; no entry is 0, so every gain has something to stretch."
            )
    mean = f": here its mean is {closed_forms.with_exact(res.output.mean)}" if res.defined else ""
    notes.append(
        "The gain stretches each coordinate by its own factor and the bias moves it by its "
        f"own amount, so the output need not be centred on 0{mean}."
    )
    notes.append(
        "This z is constant: it has no direction left after centring, so with ε > 0 the "
        "output is β itself."
        if res.constant_input
        else "A constant z has no direction left after centring: with ε > 0 the output is β itself."
    )
    return tuple(notes)


def moment_notes(res: AffineStages, check: AffineCheck) -> tuple[str, ...]:
    """The output's moments here, the core alone, and the core's variance short of 1."""
    worked = _worked(0.0)
    example = (
        f"The worked example (z = {text.vector(WORKED_Z)}, γ = {text.vector(WORKED_GAMMA)}, "
        f"β = {text.vector(WORKED_BETA)}, ε = 0) ends with mean "
        f"{form(worked.output.mean)} and variance {form(worked.output.var)}"
    )
    if not res.defined:
        return (
            example + ": a normalized layer whose output is neither centred nor of unit variance.",
        )
    centred = "centred" if check.centred else "not centred"
    unit = "of variance 1" if check.unit_variance else "not of variance 1"
    first = (
        f"Here the output has mean {closed_forms.with_exact(res.output.mean)} and variance "
        f"{closed_forms.with_exact(res.output.var)}: {centred}, and {unit}."
    )
    if not (check.worked and res.eps == 0):
        first += f" {example}."
    if check.plain:
        second = "γ = 1 and β = 0 here, so the output is the core itself: mean 0 and " + (
            "variance 1 (ε = 0)."
            if res.eps == 0
            else f"variance q/(q+ε) = {closed_forms.with_exact(check.core_var)}."
        )
    else:
        second = (
            f"With γ = 1 and β = 0 (the '{PLAIN_PRESET}' preset) the output is the core "
            "alone: mean 0 and, at ε = 0, variance 1."
        )
    agree = "Measured and formula agree." if check.formula_agrees else ""
    if res.eps > 0:
        third = (
            f"With ε = {text.eps_label(res.eps)} > 0 the core falls short of variance 1: "
            f"q = {closed_forms.with_exact(res.q)} and the core's variance is q/(q+ε) = "
            f"{closed_forms.with_exact(check.core_var)}, short of 1 by ε/(q+ε) = "
            f"{form(res.eps / (res.q + res.eps))}. {agree}"
        )
    else:
        ex = _worked(1 / 3)
        third = (
            f"At ε = 0 the core has variance exactly 1. Any ε > 0 makes it q/(q+ε) < 1: at "
            f"ε = 1/3 and z = {text.vector(WORKED_Z)}, q = {form(ex.q)} and the core's "
            f"variance is {form(ex.core.var)} (the '{WORKED_EPS_PRESET}' preset)."
        )
    return (first, second, third.strip())


def sensitivity_notes() -> tuple[str, ...]:
    """How γ, β and ε set the output's Lipschitz bound (true for every state)."""
    return (
        "Doubling the largest |γᵢ| doubles the output bound; β shifts the output and never "
        "changes its sensitivity.",
        "Smaller ε allows a steeper core; the ε page shows where the bound is reached.",
    )
