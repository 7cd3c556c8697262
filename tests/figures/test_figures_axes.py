"""Figures of the reduction-axes page draw exactly the engine's numbers."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.lessons.reduction_axes import figures as figs


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


@pytest.mark.parametrize(("scheme", "title"), [("layer", "y = γ·core + β"), ("rms", "y = γ·core")])
def test_output_title_names_beta_only_where_there_is_one(scheme: str, title: str) -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 4), 1), scheme)
    assert figs.unfolded_figure(red, "output").layout.title.text == f"Output {title}"
