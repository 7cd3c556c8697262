"""Text of the weighted-centering page (lnviz.lessons.weighted_centering.notes), state by state."""

from __future__ import annotations

import re

import pytest

from lnviz.lessons.weighted_centering import notes as wtext
from lnviz.weighted import constant_fit, orthogonality, projection_checks, weighted_centering

NOISE = re.compile(r"\d\.\d{7,}")  # a float printed in full


def everything(a, x) -> str:
    r = weighted_centering(a, x)
    fit = constant_fit(r)
    checks = projection_checks(a)
    parts = [
        wtext.number_table(wtext.centring_rows(r, "a")),
        wtext.number_table(wtext.fit_rows(fit, r)),
        wtext.angle_markdown(r, orthogonality(r)),
        wtext.angle_note(r, orthogonality(r)) or "",
        *(wtext.plane_notes(r) if len(a) == 2 else wtext.space_notes(r)),
        *wtext.fit_notes(fit, r, checks.zero_weights),
        *wtext.matrix_notes(checks),
        *(" ".join(col) for col in wtext.check_table(checks).values()),
    ]
    return "\n".join(parts)


CASES = [
    ([0.25, 0.75], [4.0, 2.0]),
    ([0.5, 0.5], [4.0, 2.0]),
    ([0.0, 1.0], [4.0, 2.0]),
    ([1, 1, 1], [3.0, 1.0, 2.0]),
    ([1, 2, 5], [3.0, 1.0, 2.0]),
    ([0, 1, 1], [0.1, 0.2, 0.3]),
    ([1, 3, 7], [0.1, -0.7, 0.3]),
]


@pytest.mark.parametrize(("a", "x"), CASES)
def test_no_raw_float_noise(a, x) -> None:
    assert not NOISE.search(everything(a, x))


def test_residual_never_calls_a_nonzero_value_zero() -> None:
    assert wtext.residual(0.0) == "0"
    assert wtext.residual(1.1102230246251565e-16) == "1.1e−16 (0 up to rounding)"
    assert wtext.residual(0.5) == "0.5"


def test_rounded_weights_show_their_exact_form() -> None:
    rows = dict(wtext.centring_rows(weighted_centering([1, 1, 1], [3.0, 1.0, 2.0]), "a"))
    assert rows["a"] == "(0.3333, 0.3333, 0.3333) = (1/3, 1/3, 1/3)"
    rows = dict(wtext.centring_rows(weighted_centering([1, 3], [4.0, 2.0]), "a"))
    assert rows["a"] == "(0.25, 0.75)"  # the decimals are exact already


@pytest.mark.parametrize(("a", "x"), CASES)
def test_bullets_never_offer_the_state_shown(a, x) -> None:
    r = weighted_centering(a, x)
    text = everything(a, x)
    if r.symmetric:
        assert "would" not in text and "at a slant" not in text
    if r.c == 0:
        assert "no step" in text


def test_zero_weight_is_named() -> None:
    text = everything([0.0, 1.0], [4.0, 2.0])
    assert "Here a₁ = 0: f ignores x₁" in text
    assert "With a₁ = 0 that form is only semi-definite" in text
    assert wtext.zero_names((1, 3)) == "a₁, a₃"
