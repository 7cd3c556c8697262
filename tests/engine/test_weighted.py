"""lnviz.weighted: normalize_weights, weighted_centering_matrix, weighted_centering."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz

# (raw weights, normalized)
NORMALIZE_CASES = [
    ([1, 3], [0.25, 0.75]),
    ([0.25, 0.75], [0.25, 0.75]),
    ([2.0, 2.0, 4.0], [0.25, 0.25, 0.5]),
    ([0, 0, 5], [0.0, 0.0, 1.0]),
    ([7.0], [1.0]),
    ([True, False], [1.0, 0.0]),
]


@pytest.mark.parametrize(("a", "expected"), NORMALIZE_CASES)
def test_normalize_weights(a, expected) -> None:
    w = lnviz.normalize_weights(a)
    assert w.dtype == np.float64
    np.testing.assert_allclose(w, expected, rtol=1e-15)
    assert math.isclose(w.sum(), 1.0, rel_tol=1e-15)


@pytest.mark.parametrize(("a", "expected"), NORMALIZE_CASES)
def test_matrix_is_identity_minus_one_a_transpose(a, expected) -> None:
    n = len(expected)
    p = lnviz.weighted_centering_matrix(a)
    np.testing.assert_allclose(p, np.eye(n) - np.outer(np.ones(n), expected), atol=1e-15)


def test_matrix_scale_free() -> None:
    np.testing.assert_allclose(
        lnviz.weighted_centering_matrix([1, 2, 3]),
        lnviz.weighted_centering_matrix([10, 20, 30]),
        atol=1e-15,
    )


def test_weighted_centering_fields_and_angles() -> None:
    r = lnviz.weighted_centering([1.0, 3.0], [4.0, 2.0])
    np.testing.assert_array_equal(r.a, [0.25, 0.75])
    np.testing.assert_array_equal(r.x, [4.0, 2.0])
    assert r.rank == 1
    assert not r.symmetric
    assert not r.degenerate
    assert math.isclose(r.angle_d, 90.0, abs_tol=1e-12)
    # Euclidean angle between P_a x = (1.5, -0.5) and c 1 = (2.5, 2.5): not 90 degrees
    cos = (1.5 * 2.5 - 0.5 * 2.5) / (math.hypot(1.5, 0.5) * math.hypot(2.5, 2.5))
    assert math.isclose(r.angle_euclidean, math.degrees(math.acos(cos)), rel_tol=1e-12)
    np.testing.assert_allclose(r.objective([2.5, 0.0, 4.0]), [0.75, 7.0, 3.0], rtol=1e-15)


def test_zero_weighted_mean_makes_angles_undefined() -> None:
    r = lnviz.weighted_centering([1.0, 1.0], [-1.0, 1.0])  # c = 0: c 1 has zero length
    assert r.c == 0.0
    assert math.isnan(r.angle_d)
    assert math.isnan(r.angle_euclidean)


def test_weighted_centering_does_not_mutate() -> None:
    a, x = np.array([1.0, 2.0, 1.0]), np.array([3.0, -1.0, 0.5])
    ca, cx = a.copy(), x.copy()
    a.setflags(write=False)
    x.setflags(write=False)
    r = lnviz.weighted_centering(a, x)
    lnviz.weighted_centering_matrix(a)
    np.testing.assert_array_equal(a, ca)
    np.testing.assert_array_equal(x, cx)
    assert not np.shares_memory(r.a, a)


@pytest.mark.parametrize("scale", [1.0, 1e-100, 1e-150, 1e150])
def test_angles_do_not_depend_on_scale(scale) -> None:
    """The D-angle is 90 degrees at any magnitude (|u|^2 |v|^2 must not underflow to 0)."""
    r = lnviz.weighted_centering([1.0, 3.0], np.array([4.0, 2.0]) * scale)
    assert math.isclose(r.angle_d, 90.0, abs_tol=1e-9)
    base = lnviz.weighted_centering([1.0, 3.0], [4.0, 2.0])
    assert math.isclose(r.angle_euclidean, base.angle_euclidean, rel_tol=1e-12)
