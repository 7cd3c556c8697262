"""Reading learners' answers: every accepted form, and everything else refused (no eval)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lnviz.content.answers import MAX_CHARS, check_answer, read_answer
from lnviz.content.questions import Question, link
from lnviz.errors import LnvizError

FORMS = [
    ("1/3", 1 / 3), ("11/9", 11 / 9), ("√(3/2)", math.sqrt(1.5)), ("sqrt(3/2)", math.sqrt(1.5)),
    ("√3/2", math.sqrt(3) / 2), ("2/√3", 2 / math.sqrt(3)), ("-√(3/2)", -math.sqrt(1.5)),
    ("−1/2", -0.5), ("0.7071", 0.7071), (".5", 0.5), ("1e-3", 1e-3), ("10^-3", 1e-3),
    ("2^(1/2)", math.sqrt(2)), ("sqrt(2)/2", math.sqrt(2) / 2), (" 3 ", 3.0), ("1 - 1/3", 2 / 3),
    ("2*3", 6.0), ("2×3", 6.0), ("4√3", 4 * math.sqrt(3)), ("4·√3", 4 * math.sqrt(3)),
    ("2(1/3)", 2 / 3), ("2π", 2 * math.pi), ("(1+2)/3", 1.0), ("π/2", math.pi / 2),
    ("1.2^10", 1.2**10),
]  # fmt: skip
BAD = [
    "", "   ", "abc", "1/0", "nan", "inf", "-inf", "1e999", "√(-1)", "2^999", "1/", "(1",
    "1)", "__import__('os').system('id')", "eval('1')", "1,5", "x", "1 2", "()",
    "(" * 14 + "1" + ")" * 14,
    "a" * 1_000_000,
]  # fmt: skip


@pytest.mark.parametrize(("text", "value"), FORMS)
def test_every_accepted_form_reads_its_value(text: str, value: float) -> None:
    assert math.isclose(read_answer(text), value, rel_tol=1e-12)


@pytest.mark.parametrize("text", BAD, ids=lambda t: repr(t[:20]))
def test_anything_else_is_refused_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(LnvizError) as err:
        read_answer(text)
    assert err.value.name == "answer" and "1/3" in err.value.accepted
    assert len(str(err.value)) < 400  # a megabyte is not repeated back


@given(st.text(max_size=80))
def test_any_text_either_reads_as_a_finite_number_or_is_refused(text: str) -> None:
    try:
        value = read_answer(text)
    except LnvizError:
        return
    assert math.isfinite(value) and len(text) <= MAX_CHARS


@pytest.mark.parametrize("text", ["1/3", "0.333", "0.3333", "sqrt(1/9)", "2/6"])
def test_exact_forms_and_close_decimals_are_right(text: str) -> None:
    assert check_answer(text, 1 / 3).correct


@pytest.mark.parametrize("text", ["0.3", "1/4", "0.34", "-1/3", "3"])
def test_near_misses_are_wrong(text: str) -> None:
    verdict = check_answer(text, 1 / 3)
    assert not verdict.correct and verdict.value is not None


def test_a_choice_question_checks_the_index_and_refuses_nonsense() -> None:
    q = Question("q", "Pick", link("epsilon", "x"), "h", "e", choices=("a", "b"), correct=1)
    assert q.check(1).correct and not q.check(0).correct
    assert q.check(None).value is None and q.check(7).value is None and q.solution == "b"


def test_a_question_is_either_numeric_or_multiple_choice() -> None:
    with pytest.raises(ValueError):
        Question("q", "?", link("epsilon", "x"), "h", "e")
    with pytest.raises(ValueError):
        Question("q", "?", link("epsilon", "x"), "h", "e", choices=("a",), correct=3)
