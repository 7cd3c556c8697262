"""The reduction-axes questions: expected answers are the engine's at the state asked about,
exact forms pass, near misses do not, and the links name that state."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.axes import SCHEME_INFO, reduce_tensor, sample_tensor
from lnviz.lessons.reduction_axes import questions as ex

STATES = [
    ((2, 4, 6), "layer", 2),
    ((2, 4, 6), "batch", 2),
    ((3, 5, 8), "group", 4),
    ((1, 3, 6), "layer_all", 3),
    ((2, 2, 4), "instance", 1),
    ((4, 2, 3), "rms", 3),
]


def by_key(*args: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(*args)}  # type: ignore[arg-type]


@pytest.mark.parametrize(("shape", "scheme", "groups"), STATES)
def test_entries_per_group_is_the_engines(shape, scheme, groups) -> None:
    """On the question's own tensor (another than the page's, whose block would show the
    answer), random as the page's, not the zeros the questions use."""
    q = by_key(shape, scheme, groups)["entries"]
    linked = dict(q.link.query)
    other = tuple(int(linked[k]) for k in ("b", "t", "f"))
    assert other != shape and all(n <= hi for n, hi in zip(other, (8, 16, 32), strict=True))
    red = reduce_tensor(sample_tensor(other, 7), scheme, num_groups=groups)
    assert q.answer == red.group_size == int(np.bincount(red.labels.ravel()).max())
    assert SCHEME_INFO[scheme][0] in q.prompt and str(shape) in q.prompt
    assert "(B, T, F) = ({}, {}, {})".format(*other) in q.prompt
    assert dict(q.link.query)["scheme"] == {"layer_all": "layer-all", "rms": "RMS"}.get(
        scheme, scheme
    )
    assert ("groups" in dict(q.link.query)) == (scheme == "group")


@pytest.mark.parametrize(("shape", "scheme", "groups"), STATES)
def test_group_count_of_group_norm_is_the_engines(shape, scheme, groups) -> None:
    red = reduce_tensor(sample_tensor(shape, 1), "group", num_groups=groups)
    q = by_key(shape, scheme, groups)["groups"]
    assert q.answer == red.group_count == shape[0] * groups
    assert dict(q.link.query) == {"b": str(shape[0]), "t": str(shape[1]), "f": str(shape[2]),
                                  "scheme": "group", "groups": str(groups)}  # fmt: skip


@pytest.mark.parametrize(("shape", "scheme", "groups"), STATES)
def test_gamma_shape_option_names_the_engines_parameter_axes(shape, scheme, groups) -> None:
    red = reduce_tensor(sample_tensor(shape, 2), scheme, num_groups=groups)
    q = by_key(shape, scheme, groups)["gamma"]
    right = q.choices[q.correct]
    assert right.startswith("(F,)" if red.param_shape == (shape[2],) else "(T, F)")
    assert str(red.param_shape) in q.explanation
    assert ("no β" in q.explanation) == (scheme == "rms")


def test_per_token_scheme_is_token_wise_layer_norm() -> None:
    q = by_key((2, 4, 6), "batch", 2)["per-token"]
    assert q.choices[q.correct] == SCHEME_INFO["layer"][0]
    assert dict(q.link.query)["scheme"] == "layer"


def test_per_token_question_falls_back_when_two_options_are_per_token() -> None:
    """With one token per example (T = 1), layer norm over (token, feature) is per token
    too: the question then asks about the default shape, and says so."""
    q = by_key((3, 1, 4), "layer", 2)["per-token"]
    assert "(2, 4, 6)" in q.prompt and dict(q.link.query)["t"] == "4"
    own = by_key((1, 2, 1), "layer", 1)["per-token"]
    assert "(1, 2, 1)" in own.prompt


def test_refused_batch_norm_asks_about_the_layer_norm_shown() -> None:
    """B × T = 1: the page shows token-wise layer norm, and so do the questions."""
    q = by_key((1, 1, 4), "batch", 2)["entries"]
    assert q.answer == 8 and SCHEME_INFO["layer"][0] in q.prompt  # F of (2, 2, 8)
    assert dict(q.link.query)["scheme"] == "layer"


@pytest.mark.parametrize(("key", "right", "near"), [
    ("entries", "12", "11"), ("entries", "2*6", "13"), ("groups", "2·2".replace("·", "*"), "3"),
])  # fmt: skip
def test_exact_forms_pass_and_near_misses_do_not(key: str, right: str, near: str) -> None:
    q = by_key((2, 4, 6), "layer", 2)[key]
    assert q.check(right).correct
    assert not q.check(near).correct


def test_choices_accept_only_the_right_option() -> None:
    for q in ex.questions():
        if q.kind == "choice":
            assert [q.check(i).correct for i in range(len(q.choices))].count(True) == 1
