"""The numerics-lab questions: expected answers are the engine's at the state asked about,
exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import math

import pytest

from lnviz.lessons.numerics import questions as ex
from lnviz.lessons.numerics import sweep as sw
from lnviz.lessons.numerics.notes import OFFSETS
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "numerics"
STATES = [
    (ex.DEFAULT_SAMPLE, 2000.0, 1e-5, "sequential", True),
    (sw.SampleSpec("grid"), 1e4, 1e-5, "sequential", True),
    (sw.SampleSpec("noise", 4, 3), 0.0, 1e-3, "pairwise", False),
    (sw.SampleSpec("noise", 1000, 0), 1000.0, 1e-5, "pairwise", True),
    (sw.SampleSpec("noise", 2048, 1), 1e8, 1e-5, "sequential", True),
]


def by_key(*state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(*state)}  # type: ignore[arg-type]


@pytest.mark.parametrize("state", STATES)
def test_one_pass_error_class_is_the_sweeps(state: tuple) -> None:
    sample, offset, eps, summ, clamp = state
    s = sw.offset_sweep(sample.draw(), [0.0, offset], eps, clamp=clamp, summation=summ)
    rel = s.cell("var_rel_error", "one-pass", "float32", 1)
    q = by_key(*state)["one-pass-error"]
    bounds = (0.0, *ex.ERROR_BOUNDS, math.inf)
    assert bounds[q.correct] <= rel < bounds[q.correct + 1]
    assert q.link.params["off"] == {2000.0: "2000", 1e4: "1e4", 0.0: "0", 1000.0: "1000",
                                    1e8: "1e8"}[offset]  # fmt: skip
    assert ("n" in q.link.params) == (sample.kind == "noise")


def test_error_class_follows_the_offset() -> None:
    assert [by_key(*s)["one-pass-error"].correct for s in STATES] == [3, 3, 0, 2, 3]


@pytest.mark.parametrize("state", STATES)
def test_float16_overflow_starts_where_the_engine_overflows(state: tuple) -> None:
    sample, _, eps, summ, _ = state
    q = by_key(*state)["float16-overflow"]
    n = sample.draw().size
    assert math.isclose(q.answer, math.sqrt(65504 / n))
    shown = float(q.link.params["off"])
    assert shown in OFFSETS and q.link.params["prec"] == "float16"
    over = sw.run_clamping(sw.ClampSetup(sample, shown, "float16", eps, summ))
    assert not math.isfinite(over.variance)  # the link shows the overflow
    below = sw.run_clamping(sw.ClampSetup(sample, 0.5 * q.answer, "float16", eps, summ))
    assert math.isfinite(below.variance)  # and half way there the sum still fits


@pytest.mark.parametrize("state", STATES)
def test_accurate_algorithm_is_the_sweeps(state: tuple) -> None:
    sample, offset, eps, summ, clamp = state
    s = sw.offset_sweep(sample.draw(), [offset], eps, clamp=clamp, summation=summ)
    one = s.cell("rel_error", "one-pass", "float32")
    rest = max(s.cell("rel_error", a, "float32") for a in ("two-pass", "welford"))
    q = by_key(*state)["accurate"]
    expected = 1 if one > ex.SAME * rest else 0 if rest > ex.SAME * one else 2
    assert q.correct == expected


def test_far_from_zero_two_pass_and_welford_win() -> None:
    """Alike at 0 and on the grid at 1e4 (storing it in float32 already loses it); at 1e8
    all lose the input, but the clamped one-pass output is blown up far beyond that."""
    assert [by_key(*s)["accurate"].correct for s in STATES] == [1, 2, 2, 1, 1]


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    q = by_key(*STATES[0])["float16-overflow"]
    assert q.check("sqrt(65504/1000)").correct and q.check("√65.504").correct
    assert q.check("8.1").correct and not q.check("256").correct and not q.check("7.5").correct


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(
        PAGE, "float16-overflow", "sqrt(65504/1000)", "√(65504/1000) ≈ 8.093"
    )


@pytest.mark.parametrize("offset", [1.0, 2000.0, 1e6])
@pytest.mark.parametrize("summation", ["sequential", "pairwise"])
def test_questions_from_the_pages_sweep_equal_those_computed_alone(
    offset: float, summation: str
) -> None:
    """The page passes its own sweep at the offset (Sweep.at) instead of sweeping again."""
    sample = sw.SampleSpec("noise", 200, 3)
    whole = sw.offset_sweep(sample.draw(), [0.5, 1.0, 2000.0, 1e6, 1e8], 1e-5, summation=summation)
    alone = ex.questions(sample, offset, 1e-5, summation, True)
    reused = ex.questions(sample, offset, 1e-5, summation, True, whole.at(whole.index(offset)))
    assert reused == alone
