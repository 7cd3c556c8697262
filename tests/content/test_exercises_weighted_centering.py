"""The weighted-centering questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and the links name that state."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.lessons.weighted_centering import questions as ex
from lnviz.weighted import projection_checks, two_weights, weighted_centering

STATES = [(0.25, (4.0, 2.0)), (0.5, (1.0, 3.0)), (0.0, (3.0, -1.0)), (0.7, (-2.5, 10.0))]


def by_key(w: float, x: tuple[float, float]) -> dict[str, object]:
    return {q.key: q for q in ex.questions(w, x)}


@pytest.mark.parametrize(("w", "x"), STATES)
def test_numbers_are_the_engines(w: float, x: tuple[float, float]) -> None:
    new = ex.practice_point(x)[0]  # the learner's x doubled: the page shows x worked out
    assert np.allclose(new, 2 * np.asarray(x))
    r = weighted_centering(two_weights(w), new)
    qs = by_key(w, x)
    assert qs["subtracted"].answer == r.c
    assert qs["plain-mean"].answer == r.ordinary_mean
    assert dict(qs["subtracted"].link.query) == {
        "w": f"{w:g}",
        "x": ", ".join(f"{v:g}" for v in new),
    }


def test_a_large_point_is_halved_to_stay_in_the_box() -> None:
    new, verb = ex.practice_point((80.0, -3.0))
    assert verb == "Halve" and np.allclose(new, (40.0, -1.5))


@pytest.mark.parametrize(("w", "x"), STATES)
def test_choices_follow_the_engines_checks(w: float, x: tuple[float, float]) -> None:
    checks = projection_checks(two_weights(w))
    qs = by_key(w, x)
    twice, symmetric = qs["twice"], qs["symmetric"]
    assert checks.idempotent and twice.choices[twice.correct].startswith("Pₐ² = Pₐ:")
    assert symmetric.choices[symmetric.correct].startswith("Yes" if checks.symmetric else "No")
    assert dict(twice.link.query) == dict(symmetric.link.query) == {"w": f"{w:g}", "m": "2"}


def test_only_equal_weights_are_symmetric() -> None:
    assert [by_key(w, (4.0, 2.0))["symmetric"].correct for w in (0.25, 0.5, 1.0)] == [1, 0, 1]


def test_worked_example_accepts_exact_forms_and_refuses_near_misses() -> None:
    qs = by_key(0.25, (2.0, 1.0))  # asked at (4, 2), the worked example
    for text in ("5/2", "2.5", "10/4", "1/4*4 + 3/4*2"):
        assert qs["subtracted"].check(text).correct, text
    for text in ("1/2", "0.5", "√(1/4)"):
        assert qs["plain-mean"].check(text).correct, text
    for text in ("2.4", "3", "0"):
        assert not qs["subtracted"].check(text).correct, text
    assert not qs["plain-mean"].check("0").correct  # the learner who expects plain mean 0


def test_equal_weights_leave_plain_mean_zero() -> None:
    q = by_key(0.5, (1.0, 3.0))["plain-mean"]
    assert q.check("0").correct and not q.check("0.1").correct


def test_explanations_show_the_engines_numbers() -> None:
    qs = by_key(0.0, (1.5, -0.5))  # asked at (3, −1)
    assert "0·3 + 1·(−1) = −1" in qs["subtracted"].explanation
    assert "(4, 0)" in qs["plain-mean"].explanation
    assert "[[1, −1], [0, 0]]" in qs["symmetric"].explanation


def test_links_keep_the_state_to_fifteen_digits() -> None:
    q = by_key(0.25, (1 / 6, 1.0))["subtracted"]
    x = [float(v) for v in dict(q.link.query)["x"].split(",")]
    assert np.allclose(x, [1 / 3, 2.0], rtol=1e-14)
