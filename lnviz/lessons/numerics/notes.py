"""The numerics lab's words and tables as functions of its results, so each fits the state shown."""

from __future__ import annotations

import math

import numpy as np

from lnviz.content import text
from lnviz.lessons.numerics import ulp
from lnviz.lessons.numerics.precision import get_format
from lnviz.lessons.numerics.recipes import PLACEMENTS, RECIPES, Placements, RecipeRun
from lnviz.lessons.numerics.state import OFFSETS, PRESETS
from lnviz.lessons.numerics.sweep import Clamping, SampleSpec, Sweep

ALGORITHM_NAMES = {"one-pass": "one-pass", "two-pass": "two-pass", "welford": "Welford"}
_FLOAT16_MAX = get_format("float16").max_finite  # 65504


def float16_overflow_offsets(n: int) -> tuple[float, float]:
    """Offsets c at which float16 sums of n values near c overflow: Σx² √(65504/n), Σx 65504/n."""
    return math.sqrt(_FLOAT16_MAX / n), _FLOAT16_MAX / n


def welford_against_two_pass(s: Sweep, precision: str = "float32") -> tuple[float, float]:
    """Largest Welford / two-pass error ratio and its offset (two-pass floored at input error)."""
    p = s.precisions.index(precision)
    w = s.rel_error[s.algorithms.index("welford"), p]  # (K,)
    t = np.maximum(s.rel_error[s.algorithms.index("two-pass"), p], s.input_error[p])  # (K,)
    fair = np.isin(s.offsets, OFFSETS) & np.isfinite(w) & np.isfinite(t) & (w < 1) & (t > 0)
    ratio = np.where(fair, w / np.where(fair, t, 1.0), 0.0)  # (K,)
    k = int(np.argmax(ratio))
    return float(ratio[k]), float(s.offsets[k])


def at_preset(name: str, sample: SampleSpec, offset: float, precision: str) -> bool:
    """True when the sample, offset and format shown are the ones preset `name` sets."""
    want = PRESETS[name]
    have = {"data": sample.kind, "n": sample.n, "seed": sample.seed, "off": offset,
            "prec": precision}  # fmt: skip
    return all(have[k] == v for k, v in want.items() if k in have)


def sample_summary(s: Sweep, k: int, kind: str) -> str:
    """One line on the sample at offset index k: size, true variance, format spacings."""
    c = float(s.offsets[k])
    return (
        f"x = {text.offset_label(c)} + {kind}: **{s.base.size} values**, true variance "
        f"**{text.number(s.cell_true(k), 8)}**. At this offset float32 numbers are "
        f"{text.number(ulp(c, 'float32'), 8)} apart and bfloat16 numbers "
        f"{text.number(ulp(c, 'bfloat16'), 8)} apart."
    )


def variance_caption(s: Sweep, k: int) -> str:
    """The caption of the variance table, with the true variance."""
    return f"Variance as each setting computes it (true: {text.float_result(s.cell_true(k))})"


def variance_columns(s: Sweep, k: int) -> dict[str, tuple[str, ...]]:
    """The variance each format and algorithm computes at offset index k."""
    cols: dict[str, tuple[str, ...]] = {"format": s.precisions}
    for a in s.algorithms:
        cols[ALGORITHM_NAMES[a]] = tuple(
            text.float_result(s.cell("variance", a, p, k)) for p in s.precisions
        )
    return cols


def error_notes(s: Sweep, k: int) -> tuple[str, ...]:
    """What to notice under the error heatmap at offset index k."""

    def f32(field: str, a: str) -> str:
        v = s.cell(field, a, "float32", k)
        return text.float_result(v) if field == "variance" else text.rel_error(v)

    n = s.base.size
    plain = float16_overflow_offsets(n)[1]
    return (
        f"float32 one-pass: v = {f32('variance', 'one-pass')}, output error "
        f"{f32('rel_error', 'one-pass')}; two-pass: {f32('rel_error', 'two-pass')}; "
        f"Welford: {f32('rel_error', 'welford')}.",
        "The one-pass error grows fast with the offset; two-pass's and Welford's far more "
        "slowly, roughly like c, as the error of storing x does.",
        f"float16 stops at 65504. The one-pass variance adds up x², which overflows once "
        f"n·x² does: for these n = {n} values from |x| ≈ √(65504/n), far sooner than the "
        "plain sum. Every mean adds up x, which overflows later, from "
        f"|x| ≈ 65504/n = {text.number(plain, 1)} (the two-pass variance needs that mean); "
        "Welford's running mean never forms the sum. NaN means no usable output.",
        "Errors also include storing x itself: a format cannot hold digits finer than its "
        "spacing at c (dash-dotted in “The error at every offset” below).",
    )


def sweep_notes(s: Sweep) -> tuple[str, ...]:
    """What to notice under the offset sweep, for the summation order shown."""
    order = (
        "Switch the summation order to pairwise: each sum's rounding error grows like log n "
        "instead of n, but the one-pass cancellation remains."
        if s.summation == "sequential"
        else "These are pairwise sums, whose rounding error grows like log n instead of n; "
        "switch back to sequential to compare: the one-pass cancellation is there either way."
    )
    ratio, at = welford_against_two_pass(s)
    rounding = (
        f"Two-pass and Welford avoid that cancellation, but they do not round alike: in "
        f"float32 with {s.summation} sums, Welford's error reaches {text.number(ratio, 1)} "
        f"times two-pass's on this sweep (at c = {text.offset_label(at)})."
        if ratio > 2
        else f"Two-pass and Welford avoid that cancellation; in float32 with {s.summation} "
        "sums Welford's error stays within twice two-pass's on this sweep."
    )
    return (
        "One-pass lines rise like c²: the cancelled digits grow with the square of the mean.",
        rounding,
        "Far from zero both stay well below the one-pass lines, until the format cannot hold "
        "the spread at all (error about 1).",
        order,
    )


def clamping_caption(c: Clamping) -> str:
    """The caption under the clamping metrics: the truth, and whether the clamp acted."""
    acted = (
        "The variance came out negative, so the clamp replaced it by 0."
        if c.negative
        else "The variance is not negative here, so the clamp changes nothing; any gap to the "
        "truth below is rounding alone."
    )
    return (
        f"True mean {text.float_result(c.true_mean)}, true variance "
        f"{text.float_result(c.true_variance)}. {acted}"
    )


def clamping_notes(c: Clamping, at_bfloat16_preset: bool) -> tuple[str, ...]:
    """What to notice in the clamping section; the last bullet depends on the preset shown."""
    if not at_bfloat16_preset:
        last = (
            "In bfloat16 a running sum stops growing once each new value is below half its "
            "spacing: try the bfloat16 preset, then the pairwise order, and watch the mean."
        )
    elif c.summation == "sequential":
        last = (
            f"This is the bfloat16 preset: the sequential sum has stalled, so the mean comes "
            f"out {text.float_result(c.mean)} instead of {text.float_result(c.true_mean)}. "
            "Switch the summation order to pairwise and watch the mean."
        )
    else:
        last = (
            f"With pairwise sums the bfloat16 mean is {text.float_result(c.mean)} (true "
            f"{text.float_result(c.true_mean)}): no partial sum grows large enough to swallow "
            "the next value."
        )
    return (
        "Without the clamp, a variance below −ε makes the square root NaN: the whole row is lost.",
        "With it the row survives, but the deviations are divided by √ε instead of the "
        "standard deviation: about √(v/ε) times too large.",
        "Two-pass cannot go negative: it sums squares, so this trap does not exist.",
        last,
    )


def placement_columns(p: Placements) -> dict[str, tuple[str, ...]]:
    """The four denominators, their values and the outputs they give."""
    return {
        "denominator": p.labels,
        "divisor": tuple(d for _, d, _ in PLACEMENTS),
        "s": tuple(text.number(float(v), 6) for v in p.scales),
        "first coordinate": tuple(text.number(float(v), 6) for v in p.outputs[:, 0]),
        "output": tuple(text.vector(row, 4) for row in p.outputs),
    }


def placement_notes(p: Placements) -> tuple[str, ...]:
    """What to notice under the placements: the numbers of the x shown."""
    return (
        f"For x = {text.vector(p.x)}: μ = {text.with_exact(p.mean)}, v = "
        f"{text.with_exact(p.variance)}, so with ε = {text.eps_label(p.eps)} the first "
        f"coordinate is {text.number(float(p.outputs[0, 0]), 6)}; with the divisor d − 1, "
        f"v′ = {text.with_exact(p.unbiased_variance)} and it is "
        f"{text.number(float(p.outputs[2, 0]), 6)}.",
        "PyTorch, Flax and Keras divide by √(v + ε) with the divisor d. "
        "`(x - mean) / (x.std(-1) + eps)`, found in many hand-written layer norms, uses "
        "d − 1 (torch.std's default) and ε outside.",
        "ε inside the root matters once v is near ε; outside it, once √v is near ε.",
    )


def recipe_columns(runs: tuple[RecipeRun, ...]) -> dict[str, tuple[str, ...]]:
    """Each framework's recipe on the sample: its formula, ε, and what it computed."""
    return {
        "framework": tuple(r.recipe.framework for r in runs),
        "variance": tuple(ALGORITHM_NAMES[r.recipe.algorithm] for r in runs),
        "clamp at 0": tuple("yes" if r.recipe.clamp else "no" for r in runs),
        "default ε": tuple(text.eps_label(r.recipe.eps) for r in runs),
        "v on this sample": tuple(text.float_result(r.variance) for r in runs),
        "output error": tuple(text.rel_error(r.rel_error) for r in runs),
        "max |Δ| vs PyTorch": tuple(text.float_result(r.gap_to_first) for r in runs),
    }


RECIPES_TEXT = (
    "Float32 input, statistics in float32, pairwise sums; each row computes its framework's "
    "variance formula, then (x − μ)/√(v + ε). **Read in the sources** (PyTorch 2.13, Keras "
    "3.15.1, Flax 0.12.8): PyTorch's CPU layer norm gets mean and variance from a Welford "
    "pass with pairwise (cascaded) merges, accumulating float16 and bfloat16 inputs in "
    "float32. Flax linen's `LayerNorm` defaults to `use_fast_variance=True`: E[x²] − E[x]², "
    "reduced in at least float32, then clamped at 0. Keras 3's `LayerNormalization` depends "
    "on the backend: on JAX (`jnp.var`) and TensorFlow (`tf.nn.moments`) the variance is "
    "two-pass, not clamped, then x·inv − μ·inv; on torch (contiguous axes) it calls "
    "`torch.nn.functional.layer_norm`, PyTorch's Welford kernel with Keras's ε; on NumPy "
    "`ops.moments` is E[x²] − E[x]² without a clamp. **Run as well**: PyTorch, Flax, and "
    "Keras on JAX, torch and NumPy; Keras's TensorFlow backend was read, not run. **Not "
    "verified, so not shown**: GPU kernels and XLA's summation order. The emulations "
    "reproduce the formulas, not the last digits."
)


def recipe_sources() -> str:
    """A markdown list: the source file read for each recipe."""
    return "\n".join(f"- **{r.framework}**: `{r.source}`" for r in RECIPES)


def recipe_notes(runs: tuple[RecipeRun, ...], offset: float, largest: bool) -> tuple[str, ...]:
    """What to notice under the recipes at this offset; `largest`: no larger offset exists."""
    one = [r for r in runs if r.recipe.algorithm == "one-pass"]
    other = [r for r in runs if r.recipe.algorithm != "one-pass"]

    def worst(rs: list[RecipeRun]) -> str:
        errs = [r.rel_error for r in rs]
        return text.rel_error(float("nan") if any(map(math.isnan, errs)) else max(errs))

    notes = [
        f"At c = {text.offset_label(offset)} the one-pass recipes err by up to {worst(one)}, "
        f"the two-pass and Welford ones by up to {worst(other)}.",
        "The max |Δ| column is each output minus PyTorch's: near c = 0 it is set by the "
        "default ε (Keras's 1e-3 against PyTorch's 1e-5).",
    ]
    if not largest:
        notes.append(
            "Move the offset up: the one-pass errors grow like c², the others stay at "
            "float32's input-rounding floor until float32 cannot hold the spread."
        )
    notes.append(
        "Flax's clamp keeps the output finite; Keras's E[x²] − E[x]² on the NumPy backend "
        "gives NaN once v + ε < 0."
    )
    return tuple(notes)
