"""The epsilon page's grid of states equals, row by row, the one-ε engine functions."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.app.controls import EPS_GRID
from lnviz.lessons.epsilon.live import epsilon_grid


@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [1.0, 2.0, 4.0, -3.0, 0.5], [2.0, 2.0, 2.0]])
def test_every_row_is_the_one_eps_result(z: list[float]) -> None:
    grid = epsilon_grid(z, EPS_GRID)
    assert grid.h.shape == grid.dh.shape == (len(EPS_GRID), 601)
    for k, eps in enumerate(EPS_GRID):
        fam = lnviz.epsilon_family(eps)
        np.testing.assert_allclose(grid.t, fam.t, rtol=0, atol=0)
        np.testing.assert_allclose(grid.h[k], fam.h, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(grid.dh[k], fam.dh, rtol=1e-12, atol=1e-300)
        assert grid.peak[k] == pytest.approx(fam.peak_slope, rel=1e-12)
        spec = lnviz.jacobian_spectrum(z, eps)
        np.testing.assert_allclose(grid.jacobian[k], spec.matrix, rtol=1e-10, atol=1e-12)
        assert grid.bound[k] == pytest.approx(spec.core_bound, rel=1e-12)
        values = {d.label: d.value for d in spec.directions}
        if "radial" in values:
            assert grid.radial[k] == pytest.approx(values["radial"], rel=1e-10)
        if "tangential" in values:
            assert grid.tangential[k] == pytest.approx(values["tangential"], rel=1e-10)
        core = lnviz.analyze_core(z, eps)
        assert grid.q_over_eps[k] == pytest.approx(float(core.q) / eps, rel=1e-12, abs=0)


def test_refuses_an_empty_or_non_positive_grid() -> None:
    with pytest.raises(ValueError):
        epsilon_grid([1.0, 2.0], [])
    with pytest.raises(ValueError):
        epsilon_grid([1.0, 2.0], [0.0, 1.0])
