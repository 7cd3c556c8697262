"""The sequences page's questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import pytest

from lnviz.lessons.sequences import questions as ex
from lnviz.lessons.sequences.analysis import Settings, analyse, shock, shock_table
from lnviz.lessons.sequences.causality import SCHEMES
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "sequences"


def by_key(**state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(**state)}  # type: ignore[arg-type]


@pytest.mark.parametrize("tokens", [4, 16, 32])
def test_pairs_are_the_sequence_maps_future_pairs(tokens: int) -> None:
    q = by_key(tokens=tokens)["pairs"]  # asked at twice the page's T (which it counts)
    t = 2 * tokens
    deps = analyse(Settings(2, t, 0, 5, True, 1e-5)).deps["x"]
    assert q.answer == deps["sequence"].future_pairs == t * (t - 1) // 2
    assert f"T = {t}" in q.prompt
    assert dict(q.link.query)["t"] == str(t)


def test_pairs_accept_exact_forms_and_refuse_near_misses() -> None:
    q = by_key(tokens=16)["pairs"]  # asked at T = 32
    assert q.check("496").correct and q.check("32*31/2").correct
    assert not q.check("528").correct  # T²/2 + T/2: the pairs with s ≥ t, not s > t
    assert not q.check("480").correct


@pytest.mark.parametrize(("leak", "tokens"), [(True, 32), (False, 32), (True, 8), (False, 4)])
def test_shock_question_follows_the_leak(leak: bool, tokens: int) -> None:
    q = by_key(tokens=tokens, leak=leak)["shock"]
    k = ex.shocked_token(tokens)
    first = shock_table(shock(Settings(4, tokens, 0, 5, leak, 1e-5), k, ex.SHOCK, 0))
    assert q.choices[q.correct] == f"token {first.first_moved[0]}"
    assert first.first_moved[0] == (k - 1 if leak else k)  # the leak reaches one day back
    assert ("with the leaky" if leak else "without the leaky") in q.prompt
    assert q.check(q.correct).correct
    assert not q.check(q.choices.index("token 0")).correct
    assert dict(q.link.query)["leak"] == str(leak).lower()


@pytest.mark.parametrize("batch", [1, 2, 4])
def test_company_is_batch_norm_unless_the_batch_is_one(batch: int) -> None:
    q = by_key(batch=batch)["company"]
    assert f"B = {batch}" in q.prompt
    deps = analyse(Settings(batch, 8, 0, 5, False, 1e-5)).deps["x"]
    crossing = [k for k in SCHEMES if deps[k].cross_examples > 0]
    assert crossing == ([] if batch == 1 else ["batch"])
    assert q.choices[q.correct] == ("none of them" if batch == 1 else "batch norm")


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(PAGE, "pairs", "16*15/2", "T(T − 1)/2 = 120", query={"t": "8"})
