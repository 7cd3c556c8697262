"""lnviz.invariance: compare_shift and affine_redundancy."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz

# (z, shift, eps, common, invariant)
SHIFT_CASES = [
    ([1.0, 2.0, 3.0], 100.0, 1 / 3, True, True),
    ([1.0, 2.0, 3.0], [100.0, 100.0, 100.0], 1 / 3, True, True),
    ([1.0, 2.0, 3.0], -0.5, 0.0, True, True),
    ([0.3, -2.0, 7.0, 1.0], 12.25, 1e-5, True, True),
    ([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], 1 / 3, False, False),
    ([1.0, 2.0, 3.0], [1.0, 0.0, 0.0], 1 / 3, False, False),
    ([5.0, 5.0, 5.0], [0.0, 1.0, 2.0], 1.0, False, False),
]


@pytest.mark.parametrize(("z", "shift", "eps", "common", "invariant"), SHIFT_CASES)
def test_compare_shift_cases(z, shift, eps, common, invariant) -> None:
    r = lnviz.compare_shift(z, shift, eps)
    assert r.common is common
    np.testing.assert_allclose(r.shift, np.broadcast_to(shift, (len(z),)))
    np.testing.assert_allclose(r.core, lnviz.normalized_core(z, eps), atol=0)
    np.testing.assert_allclose(r.core_shifted, lnviz.normalized_core(np.add(z, shift), eps), atol=0)
    if invariant:
        assert r.change < 1e-13
    else:
        assert r.change > 0.05
    # RMS norm has no centring: a shift changes it
    np.testing.assert_allclose(r.rms, lnviz.rms_norm(np.asarray(z, float), len(z), eps=eps))
    assert r.rms_change > 1e-3


def test_affine_redundancy_single_input_vector() -> None:
    w = [[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
    red = lnviz.affine_redundancy(
        w, [0.0, 1.0, 0.0], [1.0, 2.0], c=3.0, r=[1, 1], s=[1, 0], eps=0.1
    )
    assert red.xs.shape == (1, 2)
    assert red.base.shape == (1, 3)
    np.testing.assert_array_equal(red.added_by_input_shift, [1.0, 0.0, 1.0])
    assert red.bias_change < 1e-14
    assert red.weight_change < 1e-14
    assert red.input_change > 0.1


def test_affine_redundancy_docstring_example() -> None:
    red = lnviz.affine_redundancy(
        [[1, 0], [0, 2], [1, 1]], [0, 0, 0], [[1, 2], [3, -1]], c=5.0, r=[1, -1], s=[1, 0], eps=1e-3
    )
    assert red.xs.shape == (2, 2)
    np.testing.assert_allclose(red.bias_shift, red.base, atol=1e-12)
    np.testing.assert_allclose(red.weight_shift, red.base, atol=1e-12)
    expected = lnviz.normalized_core(np.array([[2.0, 4.0, 4.0], [4.0, -2.0, 3.0]]), 1e-3)
    np.testing.assert_allclose(red.input_shift, expected, atol=1e-15)
