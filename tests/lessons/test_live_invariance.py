"""The invariance page's grid of scale factors equals, row by row, lnviz.scaling_identity."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.lessons.live_invariance import scale_grid

A = (0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0)  # as pages/invariance.py


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
