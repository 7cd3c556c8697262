"""lnviz.weighted, the page quantities: views, D-inner products, the fit, the P_a checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lnviz.errors import LnvizError
from lnviz.weighted import (
    constant_fit,
    d_inner,
    kernel_basis,
    orthogonality,
    projection_checks,
    projection_view,
    segment_in_box,
    two_weights,
    weighted_centering,
)

# (point, direction, half, expected ends or None)
SEGMENT_CASES = [
    ([4, 2], [1, 1], 5, [[-3, -5], [5, 3]]),
    ([0, 0], [0.75, -0.25], 5, [[-5, 5 / 3], [5, -5 / 3]]),
    ([1, 2], [0, 1], 3, [[1, -3], [1, 3]]),  # vertical line
    ([4, 0], [0, 1], 3, None),  # vertical line outside the square
    ([0, 0], [0, 0], 3, None),  # no direction
    ([0, 0, 0], [1, 1, 1], 2, [[-2, -2, -2], [2, 2, 2]]),
    ([9, -9], [1, 1], 5, None),  # the line misses the square
]


@pytest.mark.parametrize(("p", "d", "half", "expected"), SEGMENT_CASES)
def test_segment_in_box(p, d, half, expected) -> None:
    got = segment_in_box(p, d, half)
    if expected is None:
        assert got is None
    else:
        np.testing.assert_allclose(got, expected, atol=1e-12)


weights = st.lists(st.floats(0.0, 10.0), min_size=2, max_size=6).filter(lambda a: sum(a) > 1e-3)
positive = st.lists(st.floats(0.01, 10.0), min_size=2, max_size=6)


def point_like(a: list[float]) -> st.SearchStrategy[list[float]]:
    return st.lists(st.floats(-50, 50), min_size=len(a), max_size=len(a))


@st.composite
def centerings(draw, weights_of: st.SearchStrategy[list[float]]) -> tuple:
    """Weights a from `weights_of`, a point x of the same length, weighted_centering(a, x)."""
    a = draw(weights_of)
    x = draw(point_like(a))
    return a, x, weighted_centering(a, x)


@settings(max_examples=60, deadline=None)
@given(centerings(positive))
def test_d_inner_of_residual_with_ones_vanishes(case) -> None:
    a, x, r = case
    assert abs(d_inner(a, r.centered, np.ones(len(a)))) <= 1e-9 * (1 + np.abs(x).max())
    o = orthogonality(r)
    np.testing.assert_allclose(o.step, r.c * np.ones(len(a)), atol=1e-9)
    assert math.isclose(o.euclidean_inner, r.c * r.centered.sum(), rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(o.d_length**2, float(r.objective(r.c)), rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=60, deadline=None)
@given(centerings(weights))
def test_constant_fit_agrees_with_weighted_mean(case) -> None:
    _, x, r = case
    fit = constant_fit(r)
    tol = 1e-9 * (1 + np.abs(x).max())
    assert math.isclose(fit.c, r.c, abs_tol=tol)
    np.testing.assert_allclose(fit.residual, r.centered, atol=tol)
    assert fit.values.min() >= fit.minimum - tol**2 - 1e-12  # nothing on the grid is lower
    assert fit.at_ordinary_mean >= fit.minimum - 1e-9
    assert fit.grid[0] <= min(x) and fit.grid[-1] >= max(x)


def test_zero_weight_is_ignored_by_the_fit() -> None:
    a = [0.0, 1.0, 1.0]
    one = constant_fit(weighted_centering(a, [100.0, 1.0, 3.0]))
    two = constant_fit(weighted_centering(a, [-7.0, 1.0, 3.0]))
    assert one.c == two.c  # x_1 has weight 0: moving it changes nothing
    assert math.isclose(one.c, 2.0, rel_tol=1e-15)


@settings(max_examples=60, deadline=None)
@given(weights)
def test_projection_checks_hold_for_any_weights(a) -> None:
    ch = projection_checks(a)
    assert ch.idempotent and ch.kills_ones and ch.rank_ok and ch.d_identity
    assert ch.symmetric == bool(np.allclose(ch.a, 1 / ch.n, rtol=0, atol=1e-12))
    assert ch.degenerate == bool((ch.a == 0).any())  # after scaling: tiny weights may vanish


def test_projection_checks_with_zero_weights() -> None:
    ch = projection_checks([0, 2, 0, 2])
    assert ch.zero_weights == (1, 3)
    assert ch.degenerate and ch.d_identity  # the algebra survives a singular D
    np.testing.assert_allclose(ch.d_minus_aat[0], 0.0)


def test_kernel_basis_is_orthonormal_and_orthogonal_to_a() -> None:
    a = np.array([1.0, 2.0, 5.0]) / 8
    b = kernel_basis(a)
    assert b.shape == (3, 2)
    np.testing.assert_allclose(b.T @ b, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(a @ b, 0.0, atol=1e-12)


@pytest.mark.parametrize(
    ("a", "x"),
    [
        ([1, 3], [4, 2]),
        ([0, 1], [4, 2]),
        ([1, 1], [-90, 100]),
        ([1, 2, 5], [3, 1, 2]),
        ([0, 1, 1], [0, 0, 0]),
        ([1, 1, 1], [5, 5, 5]),
    ],
)
def test_projection_view_holds_everything(a, x) -> None:
    r = weighted_centering(a, x)
    v = projection_view(r)
    n = len(a)
    for p in (r.x, r.centered, r.euclidean):
        assert np.abs(p).max() <= v.half
    ends = v.ones_line  # (2, n) on the line x + t 1, inside the cube
    assert np.abs(ends).max() <= v.half + 1e-9
    for e in ends:
        np.testing.assert_allclose(e - r.x, (e - r.x)[0] * np.ones(n), atol=1e-9)
    if n == 2:
        np.testing.assert_allclose(v.kernel_line @ r.a, 0.0, atol=1e-9)
        np.testing.assert_allclose(v.mean_zero_line.sum(axis=1), 0.0, atol=1e-9)
        assert v.plane is None
    else:
        np.testing.assert_allclose(v.plane @ r.a, 0.0, atol=1e-9)
        assert v.kernel_line is None


def test_projection_view_needs_two_or_three_coordinates() -> None:
    with pytest.raises(LnvizError, match="2 or 3 coordinates"):
        projection_view(weighted_centering([1, 1, 1, 1], [1, 2, 3, 4]))


@pytest.mark.parametrize("w", [-0.1, 1.5, math.nan, "0.5"])
def test_two_weights_refuses_bad_values(w) -> None:
    with pytest.raises(LnvizError):
        two_weights(w)
