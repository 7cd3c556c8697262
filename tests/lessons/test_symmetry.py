"""lnviz.lessons.symmetry: layer norm against RMS norm under shifts and scaling."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lnviz import LnvizError, normalized_core, rms_norm, scaling_identity
from lnviz.lessons.symmetry import common_shift, scale, seeded_layer, split_shift, unequal_shift

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
vectors = st.lists(finite, min_size=2, max_size=8)
eps_values = st.sampled_from([1e-6, 1e-3, 1 / 3, 1.0, 10.0])


def test_seed_common_shift_pair() -> None:
    s = common_shift([1, 2, 3], 100, 1 / 3)
    assert s.kind == "common shift" and s.amount == 100
    np.testing.assert_array_equal(s.moved, [101, 102, 103])
    np.testing.assert_allclose(s.ln, [-1, 0, 1], atol=1e-15)
    np.testing.assert_allclose(s.ln_moved, [-1, 0, 1], atol=1e-15)
    assert s.ln_change == 0.0
    np.testing.assert_allclose(s.rms_moved, rms_norm(np.array([101.0, 102, 103]), 3, eps=1 / 3))
    assert s.rms_change > 0.5
    assert s.ln_defined and s.rms_defined


def test_seed_unequal_shift() -> None:
    u = unequal_shift([1, 2, 3], [0, 0, 1], 1 / 3)
    np.testing.assert_allclose(u.ln_moved, np.array([-4, -1, 5]) / math.sqrt(17), atol=1e-15)
    assert u.ln_change == pytest.approx(1 / math.sqrt(17))  # the middle coordinate, 0 → −1/√17
    assert math.isnan(u.amount)


@settings(max_examples=60, deadline=None)
@given(vectors, finite, eps_values)
def test_common_shift_never_changes_layer_norm(z: list[float], c: float, eps: float) -> None:
    s = common_shift(z, c, eps)
    assert s.ln_change <= 1e-9 * (1 + abs(c)) / math.sqrt(eps)


@settings(max_examples=60, deadline=None)
@given(vectors, st.floats(0.01, 100), eps_values)
def test_scale_matches_the_scaling_identity(z: list[float], a: float, eps: float) -> None:
    s = scale(z, a, eps)
    ident = scaling_identity(z, eps, a)
    np.testing.assert_allclose(s.ln_moved, ident.core_az, atol=1e-12)
    np.testing.assert_allclose(s.ln, normalized_core(z, eps), atol=0)
    np.testing.assert_allclose(
        s.rms_moved, rms_norm(np.multiply(a, z), len(z), eps=eps), rtol=1e-12, atol=1e-12
    )


def test_scale_is_exact_only_at_eps_zero() -> None:
    assert scale([1, 2, 3], 10, 1 / 3).ln_change > 0.2
    exact = scale([1, 2, 3], 10, 0.0)
    assert exact.ln_change < 1e-12 and exact.rms_change < 1e-12


def test_undefined_cases_are_flagged_not_raised() -> None:
    s = common_shift([2, 2, 2], 1.0, 0.0)
    assert not s.ln_defined and math.isnan(s.ln_change)
    assert s.rms_defined
    u = unequal_shift([1, 2, 3], [1, 0, -1], 0.0)  # z + s is constant
    assert not u.ln_defined
    r = common_shift([1, 2, 3], -2.0, 0.0)
    assert r.rms_defined  # (−1, 0, 1) has a nonzero mean square
    zero = scale([0, 0], 2.0, 0.0)
    assert not zero.rms_defined and not zero.ln_defined


@settings(max_examples=60, deadline=None)
@given(vectors)
def test_split_shift_adds_back_up(s: list[float]) -> None:
    sp = split_shift(s)
    np.testing.assert_allclose(sp.c + sp.rest, s, atol=1e-9)
    assert abs(sp.rest.mean()) < 1e-9
    assert sp.common == (max(s) == min(s))


def test_split_shift_of_an_exact_common_shift_has_no_rest() -> None:
    sp = split_shift([0.1, 0.1, 0.1])
    assert sp.common and not sp.rest.any()


def test_seeded_layer_is_reproducible_and_readable() -> None:
    a, b = seeded_layer(5), seeded_layer(5)
    np.testing.assert_array_equal(a.w, b.w)
    np.testing.assert_array_equal(a.xs, b.xs)
    assert not np.array_equal(a.w, seeded_layer(6).w)
    assert a.w.shape == (4, 3) and a.b.shape == (4,) and a.xs.shape == (5, 3)
    np.testing.assert_array_equal(a.w, np.round(a.w, 1))
    assert seeded_layer(0, d=2, n=1, k=1).w.shape == (2, 1)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: common_shift([1, 2, 3], float("nan"), 0.1), "c"),
        (lambda: common_shift([1, 2, 3], "5", 0.1), "c"),
        (lambda: unequal_shift([1, 2, 3], [1, 2], 0.1), "shift"),
        (lambda: unequal_shift([1, 2, 3], 4.0, 0.1), "s"),
        (lambda: scale([1, 2, 3], 0.0, 0.1), "a"),
        (lambda: scale([1, 2, 3], -1.0, 0.1), "a"),
        (lambda: scale([1, 2, 3], 2.0, -1.0), "eps"),
        (lambda: split_shift([1.0, float("inf")]), "s"),
        (lambda: seeded_layer(-1), "seed"),
        (lambda: seeded_layer(1.5), "seed"),
        (lambda: seeded_layer(0, d=1), "d"),
        (lambda: seeded_layer(0, k=100), "k"),
    ],
)
def test_bad_arguments_raise_lnviz_error_naming_them(call, name: str) -> None:
    with pytest.raises(LnvizError) as info:
        call()
    assert info.value.name == name
