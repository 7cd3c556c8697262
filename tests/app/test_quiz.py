"""Predict, then check, on a page: answers marked, hints after a wrong answer, the link to
the state that shows it, bad input handled, progress kept for the session."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.lessons.why_normalize import questions as why_normalize
from tests.apptest_helpers import ROOT, assert_clean, open_question

PAGE = "why-normalize"


def opened(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page(f"../pages/{PAGE}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def answer(at: AppTest, key: str, text: str) -> AppTest:
    at = open_question(at, PAGE, key)
    at.text_input(key=f"answer-{PAGE}-{key}").set_value(text)
    (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{PAGE}-{key}"]
    return button.click().run()


def shown(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("success", "error", "warning", "info")
                     for e in at.get(kind))  # fmt: skip


@pytest.mark.parametrize("text", ["√2", "sqrt(2)", "2/√2", "1.4142", "1.414", "2^(1/2)"])
def test_right_answers_in_every_form_are_marked_right(text: str) -> None:
    at = answer(opened(), "token", text)
    assert_clean(at)
    assert "is right" in shown(at) and "√2" in shown(at)
    assert any(link.proto.page.endswith("gain-and-bias") for link in at.main.get("page_link"))


@pytest.mark.parametrize("text", ["1.5", "2", "1/2", "-√2"])
def test_near_misses_are_wrong_with_a_hint(text: str) -> None:
    at = answer(opened(), "token", text)
    assert "is not it" in shown(at) and "Hint:" in shown(at)
    assert "Answer:" not in shown(at)  # the explanation waits for a right answer or 3 tries


@pytest.mark.parametrize("text", ["abc", "1/0", "nan", "inf", "", "x" * 500, "__import__('os')"])
def test_bad_input_says_what_the_box_accepts(text: str) -> None:
    at = answer(opened(), "token", text)
    assert_clean(at)
    assert "1/3" in shown(at) and "Hint:" not in shown(at)


def test_progress_is_kept_across_answers_and_reruns() -> None:
    at = answer(opened(), "token", "sqrt(2)")
    at = answer(at, "compound", "abc")  # a bad answer does not lose the first
    assert "1 of 3 answered" in "\n".join(str(m.value) for m in at.markdown)
    at.run()
    assert "1 of 3 answered" in "\n".join(str(m.value) for m in at.markdown)


def test_three_wrong_tries_reveal_the_answer() -> None:
    at = opened()
    for text in ("1", "2", "3"):
        at = answer(at, "compound", text)
    assert "Answer:" in shown(at)


def test_expected_answers_follow_the_page_state() -> None:
    """The choice question names the stack the learner is looking at."""
    qs = why_normalize.questions(depth=8, gain=0.5, activation="tanh")
    assert "8 tanh layers" in qs[1].prompt and "shrinks" in qs[1].choices[0]
    qs = why_normalize.questions(depth=16, gain=2.0, activation="relu")
    assert "16 relu layers" in qs[1].prompt and "grows" in qs[1].choices[0]
    assert math.isclose(qs[0].answer, 1.2**10)
    at = opened({"depth": "8", "gain": "0.5", "act": "tanh"})
    assert not any("8 tanh layers" in str(m.value) for m in at.markdown)  # not open yet
    at = open_question(at, PAGE, qs[1].key)
    assert any("8 tanh layers" in str(m.value) for m in at.markdown)


def test_only_the_open_question_is_drawn_and_a_switch_keeps_the_answers() -> None:
    """One question's form at a time; a right answer stays right after switching away."""
    keys = [q.key for q in why_normalize.questions()]
    at = opened()
    forms = {b.proto.form_id for b in at.button if b.proto.form_id.startswith("quiz-")}
    assert forms == {f"quiz-{PAGE}-{keys[0]}"}
    at = answer(at, "token", "sqrt(2)")
    at = open_question(at, PAGE, keys[-1])
    forms = {b.proto.form_id for b in at.button if b.proto.form_id.startswith("quiz-")}
    assert forms == {f"quiz-{PAGE}-{keys[-1]}"}
    assert "1 of 3 answered" in "\n".join(str(m.value) for m in at.markdown)
    at = open_question(at, PAGE, "token")
    assert "is right" in shown(at)


def test_checking_a_choice_with_nothing_picked_is_not_a_try() -> None:
    """Three presses of Check with no option picked ask for a pick; they reveal nothing."""
    key = why_normalize.questions()[1].key
    at = open_question(opened(), PAGE, key)
    (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{PAGE}-{key}"]
    for _ in range(3):
        at = button.click().run()
        (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{PAGE}-{key}"]
    assert_clean(at)
    assert at.warning and "Answer:" not in shown(at) and "Hint:" not in shown(at)
