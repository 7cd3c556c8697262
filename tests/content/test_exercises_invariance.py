"""The invariance page's questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.content.text import eps_label, vector
from lnviz.lessons import explorers, symmetry
from lnviz.lessons.invariance import questions as ex
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "invariance"
STATES = [((1.0, 2.0, 3.0), 1 / 3), ((1.0, 2.0, 3.0), 0.0), ((0.1, 0.2, 0.3), 1.0),
          ((1.0, 5.0, 2.0, 8.0), 1e-6)]  # fmt: skip


def by_key(*state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(*state)}  # type: ignore[arg-type]


@pytest.mark.parametrize(("z", "eps"), STATES)
def test_answers_are_the_engines_at_the_page_state(z: tuple, eps: float) -> None:
    qs = by_key(z, eps)
    shifted = symmetry.common_shift(0.5 * np.asarray(z), ex.WORKED_C, eps)  # on z' = z/2
    assert not explorers.shift_check(shifted).visible  # rounding at most: u_ε(z' + c) = u_ε(z')
    top = float(np.max(lnviz.analyze_core(0.5 * np.asarray(z), eps).core))
    assert qs["common-shift"].answer == pytest.approx(top, abs=1e-9)
    assert f"z/2 = {vector(0.5 * np.asarray(z))}" in qs["common-shift"].prompt
    assert qs["rms-shift"].choices[qs["rms-shift"].correct] == "It changes, at every ε"
    check = explorers.scaling_check(z, eps, ex.WORKED_A)
    assert qs["scale-eps"].answer == check.equivalent_eps == eps / 100
    assert f"ε = {eps_label(eps)}" in qs["scale-eps"].prompt
    assert qs["scale-eps"].link.params["a"] == "10"


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    qs = by_key((1.0, 2.0, 3.0), 1 / 3)
    shift = qs["common-shift"]  # u_ε((0.5, 1, 1.5)) at ε = 1/3: (−1/√2, 0, 1/√2)
    assert shift.check("1/√2").correct and shift.check("0.707107").correct
    assert not shift.check("1").correct and not shift.check("0").correct
    scale = qs["scale-eps"]
    assert scale.check("1/300").correct and scale.check("(1/3)/10^2").correct
    assert not scale.check("1/30").correct and not scale.check("1/3").correct
    assert not scale.check("0.0034").correct  # 2 % off


def test_rms_answer_follows_the_shift() -> None:
    """With c = 0 there is no shift: RMS norm's output stays, and the engine says so."""
    q = by_key((1.0, 2.0, 4.0), 1 / 3, 0.0)["rms-shift"]
    assert q.choices[q.correct] == "It stays the same, like layer norm's"
    assert "c = 0 there is no shift" in q.explanation
    q = by_key((1.0, 2.0, 4.0), 1 / 3, -10.0)["rms-shift"]
    assert q.correct == 1 and "c = −10" in q.prompt


def test_scaling_at_eps_zero_needs_no_change_of_eps() -> None:
    q = by_key((1.0, 2.0, 3.0), 0.0)["scale-eps"]
    assert q.answer == 0.0 and q.check("0").correct and "factor a cancels" in q.explanation


def test_a_constant_z_asks_about_the_worked_z() -> None:
    qs = by_key((2.0, 2.0, 2.0), 0.0)  # 0/0 on the page
    assert all("(1, 2, 3)" in q.prompt or "(0.5, 1, 1.5)" in q.prompt  # z/2 for the shift
               for q in qs.values() if q.key != "rms-shift")  # fmt: skip


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(
        PAGE, "scale-eps", "1/300", "u_ε(az) = v/√(q + ε/a²) = u_(ε/a²)(z)"
    )
