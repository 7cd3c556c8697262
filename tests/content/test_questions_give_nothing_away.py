"""A question never shows its own answer (issue 37): no numeric question of the course, at
its page's defaults or at ε = 4/3 and a constant input on the epsilon page, writes the
expected value in its prompt. (A choice question's options may stand in its prompt: it
defines them.)"""

from __future__ import annotations

import pytest

from lnviz.content import exercises
from lnviz.content.questions import Question
from lnviz.content.text import short, with_exact
from lnviz.lessons.epsilon import questions as epsilon

COURSE = [q for _, questions in exercises.course() for q in questions if q.answer is not None]
EXTRA = [*epsilon.questions([1.0, 2.0, 3.0], 4 / 3), *epsilon.questions([5.0, 5.0, 5.0], 0.01)]


def answer_forms(q: Question) -> set[str]:
    """How the answer would be written on the page (forms of 3 characters or more: "0"
    or "1" stand in every prompt by other right)."""
    if q.answer is None:
        return set()
    forms = {short(q.answer), f"{q.answer:.6g}", with_exact(q.answer)}
    return {f for f in forms if len(f) >= 3}


@pytest.mark.parametrize("q", COURSE + EXTRA, ids=lambda q: q.key)
def test_the_prompt_does_not_state_the_answer(q: Question) -> None:
    shown = [form for form in answer_forms(q) if form in q.prompt]
    assert not shown, f"{q.key}: the prompt writes {shown}: {q.prompt}"


def test_the_check_finds_a_prompt_that_gives_the_answer() -> None:
    from lnviz.content.questions import link, number

    leaky = number("leak", "q = 0.666667 = 2/3 here. What is q?", 2 / 3, link("epsilon", "Show"),
                   hint="", explanation="")  # fmt: skip
    assert any(form in leaky.prompt for form in answer_forms(leaky))
