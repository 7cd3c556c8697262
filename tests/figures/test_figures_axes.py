"""Figures and tables of the reduction-axes page draw exactly the engine's numbers."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import lnviz
from lnviz.figures import axes as figs


@pytest.mark.parametrize("scheme", lnviz.SCHEMES)
def test_entry_table_round_trips_through_csv(scheme: str) -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 4), 5), scheme, num_groups=2)
    table = pd.read_csv(io.StringIO(figs.entry_table(red).to_csv(index=False)))
    assert len(table) == red.x.size
    idx = (table["batch"], table["token"], table["feature"])
    np.testing.assert_array_equal(table["group"], red.labels[idx])
    np.testing.assert_allclose(table["output"], red.output[idx], rtol=1e-15)
    column = "group variance" if red.centered else "group mean square"
    np.testing.assert_allclose(table[column], red.second[red.labels[idx]], rtol=1e-15)


def test_group_table_counts_every_entry_once() -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 4, 6), 0), "group", num_groups=3)
    table = figs.group_table(red)
    assert table["entries"].sum() == red.x.size
    assert list(table["group"]) == list(range(red.group_count))


def test_cube_highlights_exactly_the_chosen_group() -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 4), 1), "instance")
    fig = figs.cube_figure(red, (1, 0, 2))
    highlighted = fig.data[1]
    assert len(highlighted.x) == red.members(1, 0, 2).sum() == 3  # the 3 tokens of one feature
    assert set(np.asarray(highlighted.x)) == {2}
    assert "group" in figs.cube_alt(red, (1, 0, 2))


def test_group_colours_are_a_valid_stepped_scale_everywhere() -> None:
    """Plotly silently drops a non-monotonic colourscale and falls back to a blue gradient."""
    from lnviz.figures import home

    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 6), 0), "instance")  # 12 groups
    traces = [
        figs.unfolded_figure(red, "labels").data[0],
        figs.schemes_figure({"instance": red}).data[0],
        home.axes_thumb(red).data[0],
    ]
    for trace in traces:
        positions = [p for p, _ in trace.colorscale]
        assert positions == sorted(positions) and positions[0] == 0 and positions[-1] == 1
        assert len({c for _, c in trace.colorscale}) == 10  # one hue per group, cycling
