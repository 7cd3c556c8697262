"""Every question's link opens its page in the state it names (no refused value), and each
page of the course that has questions shows them."""

from __future__ import annotations

import math

import pytest

from lnviz.content import exercises, registry
from tests.deep_links import assert_link_opens

QUESTIONS = [(p.url_path, q) for p in registry.COURSE for q in exercises.for_page(p.url_path)]


@pytest.mark.parametrize(("page", "question"), QUESTIONS, ids=lambda x: getattr(x, "key", x))
def test_question_link_opens_its_state(page: str, question: object) -> None:
    assert_link_opens(question.link)  # type: ignore[attr-defined]


@pytest.mark.parametrize("page", [p.url_path for p in registry.COURSE])
def test_expected_answers_are_numbers_or_valid_choices(page: str) -> None:
    for q in exercises.for_page(page):
        if q.kind == "number":
            assert q.answer is not None and math.isfinite(q.answer), (q.key, q.answer)
            assert q.check(q.solution.split(" = ")[0]).correct, (q.key, q.solution)
        else:
            assert 0 <= q.correct < len(q.choices)
