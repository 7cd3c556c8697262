"""lnviz.lessons.weighted_centering.live: every row of the grids equals the page's one-value
computation (lnviz.weighted), and bad grids are refused."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.lessons.weighted_centering.live import lattice_step, point_lattice, weight_grid
from lnviz.weighted import constant_fit, projection_view, segment_in_box
from tests.weighted_reference import W, at_weight

POINTS = [(4.0, 2.0), (-3.0, 7.5), (0.0, 0.0), (100.0, -100.0), (1e-3, 2e-3)]


@pytest.mark.parametrize("x", POINTS)
def test_weight_grid_rows_equal_the_pages_one_value_computation(x: tuple[float, float]) -> None:
    g = weight_grid(x, W)
    assert g.c.shape == (101,) and g.fit_values.shape == (101, 201)
    for k in range(0, 101, 5):
        r = at_weight(W[k], x)
        view = projection_view(r)
        fit = constant_fit(r)
        np.testing.assert_allclose(g.a[k], r.a, atol=1e-15)
        assert g.c[k] == pytest.approx(r.c, abs=1e-12)
        np.testing.assert_allclose(g.centered[k], r.centered, atol=1e-12)
        np.testing.assert_allclose(g.euclidean[k], r.euclidean, atol=1e-9)
        assert g.half[k] == pytest.approx(view.half, rel=1e-12)
        np.testing.assert_allclose(g.ones_line[k], view.ones_line, atol=1e-9)
        np.testing.assert_allclose(g.kernel_line[k], view.kernel_line, atol=1e-9)
        np.testing.assert_allclose(g.mean_zero_line[k], view.mean_zero_line, atol=1e-9)
        np.testing.assert_allclose(g.fit_grid, fit.grid, atol=1e-12)
        np.testing.assert_allclose(g.fit_values[k], fit.values, rtol=1e-10, atol=1e-9)
        assert g.minimum[k] == pytest.approx(fit.minimum, rel=1e-9, abs=1e-9)
        assert g.ordinary_mean == pytest.approx(fit.ordinary_mean)
        assert g.at_ordinary_mean[k] == pytest.approx(fit.at_ordinary_mean, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("w", [0.0, 0.25, 0.5, 0.93, 1.0])
def test_point_lattice_rows_equal_the_pages_one_value_computation_in_a_fixed_view(
    w: float,
) -> None:
    half = 5.0
    lat = point_lattice(w, half)
    nx, ny = lat.size
    assert lat.step == 0.25 and (nx, ny) == (41, 41) and lat.points.shape == (41 * 41, 2)
    for k in range(0, nx * ny, 37):
        x = lat.points[k]
        assert x.tolist() == [lat.xs[k % nx], lat.ys[k // nx]]  # the browser's indexing
        r = at_weight(w, x)
        assert lat.c[k] == pytest.approx(r.c, abs=1e-12)
        np.testing.assert_allclose(lat.centered[k], r.centered, atol=1e-12)
        np.testing.assert_allclose(lat.euclidean[k], r.euclidean, atol=1e-9)
        ones = segment_in_box(x, [1.0, 1.0], half)
        np.testing.assert_allclose(lat.ones_line[k], ones, atol=1e-12)
        assert lat.index_of(x) == k


def test_the_lattice_has_exact_decimals_and_stays_in_the_x_boxs_range() -> None:
    lat = point_lattice(0.3, 250.0)
    assert lat.step == 20.0  # 250 / 20 = 12.5, rounded up to a nice step
    assert lat.xs.min() == -100.0 and lat.xs.max() == 100.0  # the box accepts [−100, 100]
    assert point_lattice(0.5, 1.0).xs[:3].tolist() == [-1.0, -0.95, -0.9]
    xs = point_lattice(0.5, 3.3).xs
    assert 0.0 in xs and not np.signbit(xs[xs == 0]).any()  # "0", never "-0", in the box


@pytest.mark.parametrize(
    ("half", "step"), [(5.0, 0.25), (1.0, 0.05), (12.5, 1.0), (4.0, 0.2), (2.6, 0.2), (50, 2.5)]
)
def test_lattice_step_is_the_smallest_nice_step_of_at_least_a_twentieth(
    half: float, step: float
) -> None:
    assert lattice_step(half) == pytest.approx(step)
    assert lattice_step(half) * 20 >= half * (1 - 1e-12)


@pytest.mark.parametrize(
    "w_values", [[], [[0.1, 0.2]], [-0.01], [1.01], [float("nan")], [0.5, float("inf")]]
)
def test_weight_grid_refuses_weights_outside_zero_one(w_values: list) -> None:
    with pytest.raises(ValueError, match="w_values"):
        weight_grid([4.0, 2.0], w_values)


@pytest.mark.parametrize("x", [[1.0, 2.0, 3.0], [1.0], [float("nan"), 1.0], [[1.0, 2.0]]])
def test_weight_grid_refuses_anything_but_one_finite_point(x: list) -> None:
    with pytest.raises(ValueError, match="x must"):
        weight_grid(x, [0.5])


@pytest.mark.parametrize("half", [0.0, -1.0, float("inf"), float("nan")])
def test_point_lattice_refuses_a_view_that_is_not_a_positive_number(half: float) -> None:
    with pytest.raises(ValueError, match="half"):
        point_lattice(0.5, half)


def test_point_lattice_refuses_a_weight_outside_zero_one() -> None:
    with pytest.raises(ValueError, match="w_values"):
        point_lattice(1.5, 5.0)
    with pytest.raises(ValueError, match="x must"):
        point_lattice(0.5, 5.0).index_of([1.0, float("nan")])
