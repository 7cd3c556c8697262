"""The gain-and-bias page's grid of states equals, row by row, lnviz.affine_stages with the
dragged coordinate set to that row's value; the grid of values and every refusal."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.lessons.gain_and_bias.live import FIELDS, STAGE_NAMES, drag_values, gain_grid

Z, GAMMA, BETA = [1.0, 2.0, 3.0], [1.0, 2.0, 1.0], [0.0, 1.0, 0.0]


def _one(field: str, index: int, value: float, z, gamma, beta) -> list[list[float]]:
    vectors = {"z": list(z), "gamma": list(gamma), "beta": list(beta)}
    vectors[field][index] = value
    return [vectors["z"], vectors["gamma"], vectors["beta"]]


@pytest.mark.parametrize(
    ("z", "gamma", "beta", "eps"),
    [
        (Z, GAMMA, BETA, 0.0),
        (Z, GAMMA, BETA, 1 / 3),
        ([1.0, 2.0, 4.0, -3.0, 0.5], [1.0, -2.0, 0.5, 3.0, 1.0], [0.0, 1.0, 0.0, -1.0, 2.0], 1e-5),
        ([2.0, 2.0, 2.0], GAMMA, BETA, 0.01),
    ],
)
@pytest.mark.parametrize("field", FIELDS)
def test_every_row_is_the_one_value_result(z, gamma, beta, eps, field) -> None:
    for index in range(len(z)):
        current = {"z": z, "gamma": gamma, "beta": beta}[field][index]
        values = drag_values(current, -9, 9)
        grid = gain_grid(z, gamma, beta, eps, field, index, values)
        assert grid.field == field and grid.index == index
        assert grid.input.shape == grid.core.shape == grid.output.shape == (values.size, len(z))
        for k, value in enumerate(values):
            res = lnviz.affine_stages(*_one(field, index, value, z, gamma, beta), eps)
            assert bool(grid.defined[k]) == res.defined
            if not res.defined:
                assert np.isnan(grid.core[k]).all() and np.isnan(grid.mean[k, 1:]).all()
                continue
            for i, stage in enumerate(res.stages):
                assert stage.name == STAGE_NAMES[i]
                # the same operations row by row: equal, not merely close (titles print them)
                np.testing.assert_array_equal(grid.stages[i][k], stage.values)
                assert grid.mean[k, i] == stage.mean
                assert grid.var[k, i] == stage.var


def test_a_constant_input_at_eps_zero_is_undefined_on_its_row_only() -> None:
    grid = gain_grid([1.0, 2.0, 2.0], GAMMA, BETA, 0.0, "z", 0, [1.0, 2.0, 3.0])
    assert grid.defined.tolist() == [True, False, True]
    assert np.isnan(grid.output[1]).all() and np.isfinite(grid.output[[0, 2]]).all()
    assert grid.mean[1, 0] == 2.0  # the input itself still has its mean


def test_the_drag_grid_covers_minus_five_to_five_and_holds_the_value() -> None:
    grid = drag_values(2.0, -100, 100)
    assert grid.size == 101 and grid[0] == -5.0 and grid[-1] == 5.0
    assert np.allclose(np.diff(grid), 0.1)
    assert 2.0 in grid.tolist() and 0.3 in grid.tolist()  # round decimals, no 0.30000000000000004
    third = drag_values(1 / 3, -100, 100)
    assert third.size == 102 and 1 / 3 in third.tolist() and np.all(np.diff(third) > 0)


def test_the_drag_grid_follows_a_far_value_and_stays_in_bounds() -> None:
    far = drag_values(42.26, -1000, 1000)
    assert far[0] == 37.0 and far[-1] == 47.0 and 42.26 in far.tolist()
    edge = drag_values(99.5, -100, 100)
    assert edge[0] == 90.0 and edge[-1] == 100.0 and edge.size == 101 and 99.55 not in edge
    low = drag_values(-99.95, -100, 100)
    assert low[0] == -100.0 and low[-1] == -90.0 and low.size == 102 and -99.95 in low.tolist()
    narrow = drag_values(0.5, 0, 1)
    assert narrow[0] == 0.0 and narrow[-1] == 1.0 and narrow.size == 11


@pytest.mark.parametrize(
    ("value", "lo", "hi"),
    [(float("nan"), -1, 1), (float("inf"), -1, 1), (5.0, -1, 1), (0.0, 1, 1)],
)
def test_the_drag_grid_refuses_a_value_outside_its_bounds(value, lo, hi) -> None:
    with pytest.raises(ValueError):
        drag_values(value, lo, hi)


def test_the_drag_grid_refuses_a_bad_step() -> None:
    with pytest.raises(ValueError):
        drag_values(0.0, -1, 1, step=0.0)
    with pytest.raises(ValueError):
        drag_values(0.0, -1, 1, half=0.1, step=1.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"field": "delta"},
        {"index": 3},
        {"index": -1},
        {"index": 1.0},
        {"index": True},
        {"values": []},
        {"values": [[1.0, 2.0]]},
        {"values": [1.0, float("nan")]},
        {"eps": -1.0},
        {"eps": float("inf")},
        {"z": [1.0, 2.0]},
        {"gamma": [1.0, 2.0, 3.0, 4.0]},
        {"beta": [[0.0, 1.0, 0.0]]},
        {"z": []},
        {"z": 1.0},
        {"gamma": [1.0, float("inf"), 1.0]},
        {"z": [1.0, float("nan"), 3.0]},
    ],
)
def test_every_bad_argument_is_refused(kwargs) -> None:
    args = {"z": Z, "gamma": GAMMA, "beta": BETA, "eps": 0.0, "field": "z", "index": 0,
            "values": [0.0, 1.0]} | kwargs  # fmt: skip
    with pytest.raises(ValueError):
        gain_grid(**args)
