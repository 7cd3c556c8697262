"""The batch-statistics page's questions: expected answers are the engine's at the state
asked about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import pytest

from lnviz.content.questions import twice_or_half
from lnviz.lessons.batch_statistics import questions as ex
from lnviz.lessons.batch_statistics.analysis import StreamSettings, conventions, stream_runs
from lnviz.lessons.batch_statistics.running import MAX_BATCH
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "batch-statistics"


def by_key(**state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(**state)}  # type: ignore[arg-type]


def table(batch: int, keras_momentum: float):  # the page's conventions table at that state
    r = stream_runs(StreamSettings(200, batch, 3, 0, 100, 3.0, 2.0, 0.1, keras_momentum))
    return conventions(r.stream, r.runs, 0)


@pytest.mark.parametrize(("batch", "mk"), [(8, 0.99), (2, 0.9), (64, 0.5)])
def test_weight_and_limit_are_the_tables(batch: int, mk: float) -> None:
    """Asked beside the page's state (its table works that one out): momentum 0.95 (0.99
    when the page shows 0.95), the batch size doubled or halved; answered by the table
    there."""
    qs = by_key(batch=batch, keras_momentum=mk)
    other, size = 0.95, twice_or_half(batch, MAX_BATCH)
    keras = table(size, other).columns[1]
    assert qs["weight"].answer == pytest.approx(keras.weight_new, rel=1e-12)
    assert qs["limit"].answer == keras.limit == (size - 1) / size
    assert f"B = {size}" in qs["limit"].prompt and f"{other:g}" in qs["weight"].prompt
    assert dict(qs["weight"].link.query) == {"mk": f"{other:g}"}
    assert dict(qs["limit"].link.query) == {"b": str(size)}
    assert by_key(keras_momentum=0.95)["weight"].answer == pytest.approx(0.01)


def test_a_batch_of_one_asks_about_the_smallest_batch_that_trains() -> None:
    q = by_key(batch=1)["limit"]
    assert "B = 4" in q.prompt and q.answer == 0.75  # 2, the smallest, doubled


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    qs = by_key(batch=4, keras_momentum=0.95)  # asked at 0.99 and B = 8
    assert qs["weight"].check("1/100").correct and qs["weight"].check("1 - 0.99").correct
    assert not qs["weight"].check("0.99").correct  # the momentum itself: the usual mix-up
    assert qs["limit"].check("7/8").correct and qs["limit"].check("0.875").correct
    assert not qs["limit"].check("8/7").correct and not qs["limit"].check("1").correct


@pytest.mark.parametrize(("features", "seed"), [(3, 0), (2, 3), (8, 11)])
def test_a_pair_is_plus_or_minus_one(features: int, seed: int) -> None:
    q = by_key(features=features, seed=seed)["pair"]
    assert q.choices[q.correct].startswith("about ±1, unless")
    assert not q.check(2).correct
    assert dict(q.link.query) == {"f": str(features), "seed": str(seed)}


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(
        PAGE, "limit", "7/8", "(B − 1)/B = 0.875 = 7/8", query={"b": "4"}, links_back=False
    )
