"""The epsilon page's questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz
from lnviz.content.text import eps_label
from lnviz.lessons.epsilon import questions as ex
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "epsilon"
STATES = [((1.0, 2.0, 3.0), 1 / 3), ((1.0, 2.0, 3.0), 4 / 3), ((2.0, 2.0, 2.0), 0.01),
          ((1.0, 5.0, 2.0, 8.0), 1e-6), ((1.0, 5.0, 2.0, 8.0), 10.0)]  # fmt: skip


def by_key(*state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(*state)}  # type: ignore[arg-type]


@pytest.mark.parametrize(("z", "eps"), STATES)
def test_answers_are_the_engines_at_the_page_state(z: tuple, eps: float) -> None:
    """Asked beside the page's state: z doubled, ε = 0.01 (1e-4 when the page shows 0.01),
    four entries instead of three; each answer the engine's there."""
    qs = by_key(z, eps)
    core = lnviz.analyze_core(2 * np.asarray(z), eps)
    other = 0.01 if eps != 0.01 else 1e-4
    family = lnviz.epsilon_family(other)
    assert qs["core-variance"].answer == float(core.core_var)
    assert qs["slope"].answer == family.peak_slope
    assert math.isclose(family.peak_slope, other**-0.5)
    far = lnviz.analyze_core((-1e6, 0.0, 0.0, 1e6), eps).core[-1]
    assert math.isclose(qs["limit"].answer, far, rel_tol=1e-6)
    assert f"ε = {eps_label(eps)}" in qs["core-variance"].prompt
    assert qs["slope"].link.params == {"eps": eps_label(other)}


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    qs = by_key((0.5, 1.0, 1.5), 1 / 3)  # asked at z = (1, 2, 3)
    assert qs["core-variance"].check("2/3").correct  # q = 2/3, so (2/3)/(2/3 + 1/3)
    assert not qs["core-variance"].check("1").correct  # the variance without ε
    assert qs["slope"].check("10").correct and qs["slope"].check("1/sqrt(0.01)").correct
    assert not qs["slope"].check("√3").correct  # the page's own ε = 1/3
    assert qs["limit"].check("√2").correct and qs["limit"].check("sqrt(2)").correct
    assert not qs["limit"].check("√(3/2)").correct and not qs["limit"].check("1").correct


def test_constant_input_has_a_core_of_variance_zero() -> None:
    q = by_key((2.0, 2.0, 2.0), 0.01)["core-variance"]
    assert q.answer == 0.0 and q.check("0").correct and not q.check("1").correct
    assert "constant input" in q.explanation


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    at = assert_right_answer_explained(
        PAGE, "slope", "100", "ε^(−1/2) = 100", query={"eps": "0.01"}
    )
    assert any("At ε = 0.0001, how steep" in str(m.value) for m in at.markdown)
