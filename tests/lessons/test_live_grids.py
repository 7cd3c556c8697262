"""The values each live control moves over: gain and bias's drag window, batch statistics'
shift steps and weighted centering's lattice of points, with every refusal."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.lessons.batch_statistics.live import shift_steps
from lnviz.lessons.gain_and_bias.live import drag_values
from lnviz.lessons.gain_and_bias.notes_live import coordinate_label, coordinate_options, with_entry
from lnviz.lessons.weighted_centering.live import CELLS, lattice_axis, lattice_step
from lnviz.params import parse_vector


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


def test_coordinates_are_named_in_ascii_and_shown_with_their_symbol() -> None:
    options = coordinate_options(3, ("z", "gamma", "beta"))
    assert options[:4] == ["z1", "z2", "z3", "gamma1"] and len(options) == 9
    assert [coordinate_label(o) for o in options[2:5]] == ["z₃", "γ₁", "γ₂"]
    assert coordinate_label("beta8") == "β₈"


@pytest.mark.parametrize(
    ("text", "index", "value", "want"),
    [
        ("1, 2, 3", 0, -2.5, "-2.5, 2, 3"),
        ("(1 2 3)", 2, 0.1, "1, 2, 0.1"),
        ("1/3; 2;3", 1, 4.0, "1/3, 4, 3"),
        ("1, 2, 3", 1, -0.0, "1, 0, 3"),
        ("1, 2", 2, 5.0, "1, 2"),  # no such entry: unchanged
    ],
)
def test_the_released_value_replaces_one_entry_and_parses_back(text, index, value, want) -> None:
    got = with_entry(text, index, value)
    assert got == want
    parsed = parse_vector(got, "z")
    if index < parsed.size:
        assert parsed[index] == value  # the box reads back exactly the released value


def test_shift_steps_cover_the_stream_in_equal_strides() -> None:
    assert shift_steps(10, 3) == tuple(range(11))
    assert shift_steps(200, 100) == tuple(range(0, 201, 5))
    assert shift_steps(100, 50) == tuple(range(0, 101, 2))
    assert shift_steps(300, 77) == tuple(sorted({*range(0, 301, 10), 77}))
    for steps in (10, 11, 57, 100, 199, 200, 250, 300):
        grid = shift_steps(steps, steps // 3)
        assert grid[0] == 0 and grid[-1] == steps and steps // 3 in grid
        assert (len(grid) - 2) * steps <= 10_000


@pytest.mark.parametrize(("steps", "at"), [(0, 0), (10, 11), (10, -1)])
def test_shift_steps_refuse_a_step_outside_the_stream(steps: int, at: int) -> None:
    with pytest.raises(ValueError):
        shift_steps(steps, at)


def test_the_lattice_has_exact_decimals_and_stays_in_the_x_boxs_range() -> None:
    assert lattice_step(250.0) == 25.0  # 250 / 10, a nice step already
    xs = lattice_axis(250.0)
    assert xs.min() == -100.0 and xs.max() == 100.0  # the box accepts [−100, 100]
    assert lattice_axis(1.0)[:3].tolist() == [-1.0, -0.9, -0.8]
    xs = lattice_axis(3.3)
    assert 0.0 in xs and not np.signbit(xs[xs == 0]).any()  # "0", never "-0", in the box


@pytest.mark.parametrize(
    ("half", "step"), [(5.0, 0.5), (1.0, 0.1), (12.5, 2.0), (4.0, 0.5), (2.6, 0.5), (50, 5.0)]
)
def test_lattice_step_is_the_smallest_nice_step_of_at_least_a_tenth(
    half: float, step: float
) -> None:
    assert lattice_step(half) == pytest.approx(step)
    assert lattice_step(half) * CELLS >= half * (1 - 1e-12)


@pytest.mark.parametrize("half", [0.0, -1.0, float("inf"), float("nan")])
def test_the_lattice_refuses_a_view_that_is_not_a_positive_number(half: float) -> None:
    with pytest.raises(ValueError, match="half"):
        lattice_axis(half)
