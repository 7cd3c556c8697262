"""The invariance page's grids equal, row by row, the page's one-value computations: the
scale factors lnviz.scaling_identity, the common shifts lnviz.lessons.symmetry.common_shift."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.errors import LnvizError
from lnviz.lessons import symmetry
from lnviz.lessons.invariance.live import scale_grid, shift_grid

A = (0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0)  # as pages/invariance.py
C = (-1000.0, -100.0, -10.0, -1.0, -0.5, 0.0, 0.5, 1.0, 10.0, 100.0, 1000.0)  # likewise


@pytest.mark.parametrize("eps", [0.0, 1e-6, 1 / 3, 10.0])
@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [5.0, -1.0, 0.5, 2.0]])
def test_every_row_is_the_one_a_result(z: list[float], eps: float) -> None:
    grid = scale_grid(z, eps, A)
    for k, a in enumerate(A):
        s = lnviz.scaling_identity(z, eps, a)
        np.testing.assert_allclose(grid.core_z, s.core_z, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(grid.core_az[k], s.core_az, rtol=1e-10, atol=1e-13)
        np.testing.assert_allclose(grid.rescaled[k], s.core_rescaled_eps, rtol=1e-10, atol=1e-13)
        assert grid.change[k] == pytest.approx(s.change, rel=1e-8, abs=1e-13)


def test_refuses_a_non_positive_scale() -> None:
    with pytest.raises(ValueError):
        scale_grid([1.0, 2.0], 0.1, [0.0, 1.0])


@pytest.mark.parametrize("eps", [0.0, 1e-6, 1 / 3, 10.0])
@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [0.1, 0.2, 0.7], [5.0, -1.0, 0.5, 2.0, 1e-3]])
def test_every_shift_row_is_the_one_c_result(z: list[float], eps: float) -> None:
    grid = shift_grid(z, eps, C)
    assert grid.ln_moved.shape == grid.rms_moved.shape == (len(C), len(z))
    for k, c in enumerate(C):
        sym = symmetry.common_shift(z, c, eps)
        np.testing.assert_array_equal(grid.moved[k], sym.moved)
        np.testing.assert_array_equal(grid.ln, sym.ln)
        np.testing.assert_allclose(grid.ln_moved[k], sym.ln_moved, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(grid.rms_moved[k], sym.rms_moved, rtol=1e-14, atol=1e-15)
        assert grid.ln_change[k] == pytest.approx(sym.ln_change, rel=1e-9, abs=1e-15)
        assert grid.rms_change[k] == pytest.approx(sym.rms_change, rel=1e-12)


def test_a_constant_z_at_eps_zero_has_no_rows() -> None:
    grid = shift_grid([2.0, 2.0, 2.0], 0.0, C)
    assert np.isnan(grid.ln_moved).all() and np.isnan(grid.ln_change).all()
    assert not symmetry.common_shift([2.0, 2.0, 2.0], 1.0, 0.0).ln_defined


def test_refuses_a_bad_shift_grid_or_input() -> None:
    with pytest.raises(ValueError):
        shift_grid([1.0, 2.0], 0.1, [])
    with pytest.raises(ValueError):
        shift_grid([1.0, 2.0], 0.1, [0.0, float("inf")])
    with pytest.raises(ValueError):
        shift_grid([[1.0, 2.0]], 0.1, [0.0])
    with pytest.raises(LnvizError):
        shift_grid([1.0, float("nan")], 0.1, [0.0])
    with pytest.raises(LnvizError):
        shift_grid([1.0, 2.0], -1.0, [0.0])
