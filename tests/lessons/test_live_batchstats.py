"""The batch-statistics page's grid of shift steps equals, row by row, the page's
computation at that one step (lnviz.lessons.batch_statistics.analysis.stream_runs)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lnviz.lessons.batch_statistics.analysis import StreamSettings, stream_runs
from lnviz.lessons.batch_statistics.live import shift_step_grid, shift_steps

BASE = StreamSettings(40, 8, 3, 0, 20, 3.0, 2.0, 0.1, 0.99)


@pytest.mark.parametrize(
    "settings",
    [
        BASE,
        dataclasses.replace(BASE, batch=2, at=40, torch_momentum=0.5, keras_momentum=0.9),
        dataclasses.replace(BASE, steps=23, features=2, seed=7, shift=-2.5, spread=0.5),
        dataclasses.replace(BASE, at=0, torch_momentum=1.0, keras_momentum=0.0),
    ],
)
def test_every_row_is_the_one_step_result(settings: StreamSettings) -> None:
    page = stream_runs(settings)  # what the page computed, at settings.at
    ks = shift_steps(settings.steps, settings.at, max_points=10 * settings.steps)
    assert settings.at in ks and ks[0] == 0 and ks[-1] == settings.steps
    for feat in range(settings.features):
        grid = shift_step_grid(page.stream, page.runs, feat, ks)
        assert grid.batch_mean.shape == (len(ks), settings.steps)
        for row, k in enumerate(ks):
            one = stream_runs(dataclasses.replace(settings, at=k))
            s, runs = one.stream, one.runs
            close = {"rtol": 1e-12, "atol": 1e-12}
            np.testing.assert_allclose(grid.true_mean[row], s.mean[:, feat], **close)
            np.testing.assert_allclose(grid.true_var[row], s.var[:, feat], **close)
            np.testing.assert_allclose(grid.batch_mean[row], runs[0].batch_mean[:, feat], **close)
            np.testing.assert_allclose(grid.batch_var[row], runs[0].batch_var[:, feat], **close)
            for n, run in enumerate(runs):
                np.testing.assert_allclose(
                    grid.running_mean[n, row], run.running_mean[:, feat], **close
                )
                np.testing.assert_allclose(
                    grid.running_var[n, row], run.running_var[:, feat], **close
                )
                np.testing.assert_allclose(grid.gap[n, row], run.gap, rtol=1e-9, atol=1e-12)


def test_the_page_state_is_its_own_row() -> None:
    page = stream_runs(BASE)
    ks = shift_steps(BASE.steps, BASE.at)
    grid = shift_step_grid(page.stream, page.runs, 1, ks)
    row = ks.index(BASE.at)
    np.testing.assert_array_equal(grid.true_mean[row], page.stream.mean[:, 1])
    np.testing.assert_array_equal(grid.running_var[1, row], page.runs[1].running_var[:, 1])
    assert not np.array_equal(grid.running_var[1, 0], grid.running_var[1, -1])  # the shift shows


def test_shift_steps_cover_the_stream_in_equal_strides() -> None:
    assert shift_steps(10, 3) == tuple(range(11))
    grid = shift_steps(200, 100)
    assert grid == tuple(range(0, 201, 5))
    assert shift_steps(100, 50) == tuple(range(0, 101, 2))
    odd = shift_steps(300, 77)
    assert odd == tuple(sorted({*range(0, 301, 10), 77}))
    for steps in (10, 11, 57, 100, 199, 200, 250, 300):
        grid = shift_steps(steps, steps // 3)
        assert grid[0] == 0 and grid[-1] == steps and steps // 3 in grid
        assert (len(grid) - 2) * steps <= 10_000


def test_refuses_bad_grids_and_arguments() -> None:
    page = stream_runs(BASE)
    with pytest.raises(ValueError):
        shift_steps(0, 0)
    with pytest.raises(ValueError):
        shift_steps(10, 11)
    with pytest.raises(ValueError):
        shift_step_grid(page.stream, page.runs, 0, [])
    with pytest.raises(ValueError):
        shift_step_grid(page.stream, page.runs, 0, [0, BASE.steps + 1])
    with pytest.raises(ValueError):
        shift_step_grid(page.stream, page.runs, BASE.features, [0])
    one = stream_runs(dataclasses.replace(BASE, batch=1))
    assert one.runs is None
    with pytest.raises(ValueError):
        shift_step_grid(one.stream, page.runs, 0, [0])
