"""Questions of the numerics lab: one-pass variance error, float16 overflow, accurate algorithm."""

from __future__ import annotations

import math

from lnviz.content.exercises._links import eps_param
from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import float_result, offset_label, rel_error
from lnviz.lessons.numerics import sweep as sw
from lnviz.lessons.numerics.notes import ALGORITHM_NAMES, OFFSETS, float16_overflow_offsets
from lnviz.lessons.numerics.precision import get_format

DEFAULT_SAMPLE = sw.SampleSpec("noise", 1000, 0)
# Classes of a relative error, by order of magnitude (upper bounds), and their options.
ERROR_BOUNDS = (1e-6, 1e-3, 1.0)
ERROR_CLASSES = (
    "below 10⁻⁶",
    "between 10⁻⁶ and 10⁻³",
    "between 10⁻³ and 1",
    "1 or more: not one correct digit (it may even be negative)",
)
SAME = 10.0  # errors within this factor of each other are "alike"
ACCURATE = ("one-pass", "two-pass and Welford", "all three alike (within a factor of 10)")


def questions(
    sample: sw.SampleSpec = DEFAULT_SAMPLE,
    offset: float = 2000.0,
    eps: float = 1e-5,
    summation: str = "sequential",
    clamp: bool = True,
    swept: sw.Sweep | None = None,
) -> tuple[Question, ...]:
    """Three questions on the lab's state; `swept`: this state's sweep at this offset, if known."""
    if swept is None:
        swept = sw.offset_sweep(sample.draw(), [offset], eps, clamp=clamp, summation=summation)
    query = state(sample, offset, eps, summation, clamp)
    return (
        _variance_error(swept, sample, query),
        _overflow(sample, eps, summation, query),
        _accurate(swept, sample, query),
    )


def state(
    sample: sw.SampleSpec, offset: float, eps: float, summation: str, clamp: bool
) -> dict[str, str]:
    """The lab's URL values for this state (n and seed only for noise: the grid has none)."""
    query = {"data": sample.kind, "off": offset_label(offset)}
    if sample.kind == "noise":
        query |= {"n": str(sample.n), "seed": str(sample.seed)}
    return query | {"eps": eps_param(eps), "sum": summation, "clamp": str(clamp).lower()}


def error_class(rel: float) -> int:
    """The index in ERROR_CLASSES of a relative error (NaN or ∞: the last)."""
    if not math.isfinite(rel):
        return len(ERROR_BOUNDS)
    return next((i for i, b in enumerate(ERROR_BOUNDS) if rel < b), len(ERROR_BOUNDS))


def _where(sample: sw.SampleSpec, swept: sw.Sweep) -> str:
    n = swept.base.size
    return f"x = {offset_label(float(swept.offsets[0]))} + {sample.kind} ({n} values)"


def _variance_error(swept: sw.Sweep, sample: sw.SampleSpec, query: dict[str, str]) -> Question:
    rel = swept.cell("var_rel_error", "one-pass", "float32")
    got = swept.cell("variance", "one-pass", "float32")
    return choice(
        "one-pass-error",
        f"Here {_where(sample, swept)}. In float32, how far off will the one-pass variance "
        "Σx²/n − μ² be, relative to the true variance? Answer, then check the variance "
        "table below.",
        ERROR_CLASSES,
        error_class(rel),
        link("numerics", "Show this sample and offset", **query),
        hint="Σx²/n and μ² are both about c², but the variance is about σ²: float32 keeps about "
        "7 digits of c², and the subtraction throws away those the two share.",
        explanation=f"float32's one-pass variance is {float_result(got)} against a true "
        f"{float_result(swept.cell_true())}: a relative error of {rel_error(rel)}.",
    )


def _overflow(sample: sw.SampleSpec, eps: float, summation: str, query: dict[str, str]) -> Question:
    n = sample.draw().size
    top = get_format("float16").max_finite
    answer, _ = float16_overflow_offsets(n)  # Σx² of n values near c: c > √(65504/n)
    shown = next(c for c in OFFSETS if c >= 1.2 * answer)  # clearly past it, on the slider
    there = sw.run_clamping(sw.ClampSetup(sample, shown, "float16", eps, summation))
    return number(
        "float16-overflow",
        f"float16's largest finite value is {top:g}. The one-pass variance adds up x² for all "
        f"n = {n} values. From about which mean offset c (every x ≈ c) does that sum "
        "overflow to infinity?",
        answer,
        link("numerics", f"Show float16 at c = {offset_label(shown)}",
             **(query | {"off": offset_label(shown), "prec": "float16"})),
        hint=f"The sum is about n·c²; set it equal to {top:g}.",
        explanation=f"n·c² > {top:g} once c > √({top:g}/{n}) ≈ {answer:.4g}. At "
        f"c = {offset_label(shown)}, float16's one-pass variance comes out "
        f"{float_result(there.variance)}.",
        rel_tol=0.02,
    )  # fmt: skip


def most_accurate(swept: sw.Sweep, precision: str = "float32") -> int:
    """Index in ACCURATE of the algorithms with the smallest output error (NaN: infinite)."""
    err = {a: swept.cell("rel_error", a, precision) for a in swept.algorithms}
    err = {a: math.inf if math.isnan(e) else e for a, e in err.items()}
    one, others = err["one-pass"], max(err["two-pass"], err["welford"])
    if one > SAME * others:
        return 1
    if others > SAME * one:
        return 0
    return 2


def _accurate(swept: sw.Sweep, sample: sw.SampleSpec, query: dict[str, str]) -> Question:
    right = most_accurate(swept)
    errs = ", ".join(
        f"{ALGORITHM_NAMES[a]} {rel_error(swept.cell('rel_error', a, 'float32'))}"
        for a in swept.algorithms
    )
    stored = float(swept.input_error[swept.precisions.index("float32"), 0])
    why = {
        0: "here the one-pass form happens to round best.",
        1: "both subtract the mean before squaring, so nothing large cancels.",
        2: "nothing cancels badly at this offset."
        if stored < 1e-3
        else f"storing the input in float32 already costs {rel_error(stored)}.",
    }[right]
    return choice(
        "accurate",
        f"With {_where(sample, swept)}, which variance algorithm gives the most accurate "
        "float32 layer norm? Answer, then check the error chart below.",
        ACCURATE,
        right,
        link("numerics", "Show the errors at this offset", **query),
        hint="Which formula subtracts two large, nearly equal numbers when the mean is far "
        "from zero?",
        explanation=f"float32 output errors: {errs}. Within a factor of {SAME:g} counts as "
        f"alike; {why}",
    )
