"""lnviz.figures.live.moving_parts: a chart's frames are what differs between its figures at
the control's values, so frame k applied to any of them gives figure k."""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lnviz.figures.live import TracesChange, moving_parts
from tests.live_frames import applied, assert_same_figure


def typed(values: list[float]) -> dict[str, str]:
    """A float64 array in Plotly's typed-array form, as lnviz.figures._spec writes it."""
    return {"dtype": "f8", "bdata": base64.b64encode(np.asarray(values, "<f8")).decode()}


def figure(y: list[float], title: str, shapes: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "data": [
            {"type": "scatter", "x": [0, 1, 2], "y": typed(y), "name": "fixed"},
            {"type": "bar", "y": [1.0, 2.0], "marker": {"color": "red"}},
        ],
        "layout": {"title": {"text": title}, "shapes": shapes, "template": {"data": {}}},
    }


def test_only_what_moves_is_sent_with_paths_plotly_understands() -> None:
    figs = [
        figure([0.0] * 9 + [1.0], "a", [{"type": "line", "x0": 1}]),
        figure([0.0] * 9 + [2.0], "b", [{"type": "line", "x0": 2}]),
    ]
    p = moving_parts("k", figs)
    assert p["key"] == "k" and p["traces"] == [0]
    assert [(d["trace"], d["attr"]) for d in p["data"]] == [(0, "y")]
    assert "f4" in p["data"][0]["values"][0]  # a curve travels as float32
    assert [part["path"] for part in p["layout"]] == ["title.text", "shapes[0].x0"]
    for k, fig in enumerate(figs):
        assert_same_figure(applied(figs[0], p, k), fig)


def test_a_list_that_changes_length_is_sent_whole() -> None:
    figs = [figure([0.0], "t", []), figure([0.0], "t", [{"type": "line", "x0": 1}])]
    p = moving_parts("k", figs)
    assert [(part["path"], part["values"]) for part in p["layout"]] == [
        ("shapes", [[], [{"type": "line", "x0": 1}]])
    ]


def test_a_chart_that_does_not_move_has_no_parts() -> None:
    p = moving_parts("k", [figure([1.0], "t", [])] * 3)
    assert p["traces"] == [] and p["data"] == [] and p["layout"] == []


def test_a_changing_number_of_traces_is_refused() -> None:
    one = figure([1.0], "t", [])
    two = {**one, "data": one["data"][:1]}
    with pytest.raises(TracesChange, match="number or type"):
        moving_parts("k", [one, two])
    other = {**one, "data": [one["data"][0], {**one["data"][1], "type": "scatter"}]}
    with pytest.raises(TracesChange, match="number or type"):
        moving_parts("k", [one, other])


def test_texts_that_start_with_a_number_and_lists_with_a_gap_are_sent_as_they_are() -> None:
    texts = [[1, *["a"] * 8], [2, *["b"] * 8]]
    figs = [
        {"data": [{"type": "bar", "text": t}], "layout": {"annotations": a}}
        for t, a in zip(texts, [[{"text": "x"}, None], [{"text": "y"}, None]], strict=True)
    ]
    p = moving_parts("k", figs)
    assert p["data"][0]["values"] == texts
    assert p["layout"][0]["path"] == "annotations"  # not walked entry by entry: sent whole


numbers = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@given(
    st.lists(
        st.tuples(
            st.lists(numbers, min_size=12, max_size=12),
            st.sampled_from(["a", "b", "c"]),
            st.lists(numbers, min_size=0, max_size=2),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_every_frame_applied_to_the_first_figure_gives_that_figure(states) -> None:
    figs = [
        figure(y, title, [{"type": "line", "x0": float(v)} for v in xs]) for y, title, xs in states
    ]
    p = moving_parts("k", figs)
    for k, fig in enumerate(figs):
        assert_same_figure(applied(figs[0], p, k), fig)


def test_a_range_set_in_some_states_only_turns_autorange_back_on_in_the_others() -> None:
    """Plotly's relayout of an axis range turns that axis's autorange off, even to null:
    a state without a range must ask for autorange again."""
    for axis in ("yaxis", "yaxis2"):
        figs = [
            {"data": [{"type": "bar", "y": [1.0]}], "layout": {axis: {"range": [0, 2]}}},
            {"data": [{"type": "bar", "y": [1.0]}], "layout": {axis: {}}},
        ]
        p = moving_parts("k", figs)
        assert [(part["path"], part["values"]) for part in p["layout"]] == [
            (f"{axis}.range", [[0, 2], None]),
            (f"{axis}.autorange", [False, True]),
        ]
