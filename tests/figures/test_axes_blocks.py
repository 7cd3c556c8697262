"""The 3-D block of the reduction-axes page at large sizes: statistic groups as outlined
blocks, the chosen entry's group solid; proportions and legend that fit every size."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.lessons.reduction_axes import figures as figs

LARGEST = (8, 16, 32)


def _finite(values: object) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    return arr[np.isfinite(arr)]


@pytest.mark.parametrize("scheme", ["layer", "batch", "instance", "group", "layer_all"])
def test_large_tensor_draws_group_blocks_with_the_chosen_group_solid(scheme: str) -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor(LARGEST, 0), scheme, num_groups=4)
    entry = (3, 5, 17)
    fig = figs.cube_figure(red, entry)
    kinds = [t.type for t in fig.data]
    assert kinds.count("mesh3d") == 1 and not any(
        t.type == "scatter3d" and t.mode == "markers" and len(t.x) > 1 for t in fig.data
    ), "no cloud of one point per entry"
    outlines = next(t for t in fig.data if t.mode == "lines")
    # 12 edges (2 ends and a gap each) per group other than the chosen one
    assert len(outlines.x) == 36 * (red.group_count - 1)
    solid = next(t for t in fig.data if t.type == "mesh3d")
    b, t, f = np.nonzero(red.members(*entry))
    assert (min(solid.x), max(solid.x)) == (f.min() - 0.5, f.max() + 0.5)
    assert (min(solid.y), max(solid.y)) == (t.min() - 0.5, t.max() + 0.5)
    assert (min(solid.z), max(solid.z)) == (b.min() - 0.5, b.max() + 0.5)
    assert _finite(outlines.x).min() >= -0.5 and _finite(outlines.x).max() <= LARGEST[2] - 0.5


@pytest.mark.parametrize("shape", [(1, 1, 32), (2, 4, 6), (8, 16, 32), (8, 1, 1)])
def test_proportions_follow_the_tensor_and_the_legend_stays_below_the_title(
    shape: tuple[int, int, int],
) -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor(shape, 0), "layer")
    fig = figs.cube_figure(red, (0, 0, 0))
    scene = fig.layout.scene
    ratio = scene.aspectratio
    assert scene.aspectmode == "manual"
    assert max(ratio.x, ratio.y, ratio.z) == 1 and min(ratio.x, ratio.y, ratio.z) >= 0.25
    assert ratio.x >= ratio.y >= ratio.z or shape[0] > shape[2]  # the longest side is longest
    assert fig.layout.legend.y == 0 and fig.layout.legend.yanchor == "bottom"  # under the block
    assert scene.domain.y[0] >= 0.1  # room for the legend below the scene


def test_every_scheme_titles_are_short_lines() -> None:
    results = lnviz.compare_schemes(lnviz.sample_tensor((2, 4, 6), 0), num_groups=2)
    fig = figs.schemes_figure(results)
    for note in fig.layout.annotations:
        assert all(len(line) <= 22 for line in note.text.split("<br>")), note.text
