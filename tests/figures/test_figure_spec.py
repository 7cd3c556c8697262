"""FigureSpec: figures recorded as dicts, checked by Plotly in tests and not on the server.

The app's servers build figures with Plotly's property checks off (lnviz.figures._spec); the
tests run with them on. Here every page's charts are built both ways and must reach the
browser as the same JSON, so what the tests check is what visitors get.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from lnviz.app import charts as app_charts
from lnviz.figures import _spec
from lnviz.figures._palette import finished
from lnviz.figures._spec import FigureSpec, merge, nested
from tests.deep_links import via_router

STATES = [  # every page at its default, plus states that draw other branches
    ("home", {}),
    ("reduction-axes", {}),
    ("reduction-axes", {"scheme": "group", "view": "output"}),
    ("epsilon", {}),
    ("epsilon", {"z": "2, 2, 2", "eps": "0.01"}),
    ("gain-and-bias", {}),
    ("gain-and-bias", {"z": "2, 2, 2", "eps": "0"}),
    ("invariance", {}),
    ("weighted-centering", {}),
    ("weighted-centering", {"d": "3"}),
    ("sequences", {}),
    ("batch-statistics", {}),
    ("frameworks", {}),
    ("numerics", {}),
    ("transformer", {}),
    ("why-normalize", {}),
    ("sequences", {"T": "3"}),
]


@pytest.fixture
def validate() -> Iterator[None]:
    yield
    _spec.VALIDATE = True  # as tests/conftest.py sets it for every other test


def charts(name: str, query: dict[str, str], *, checked: bool) -> list[dict]:
    _spec.VALIDATE = checked
    app_charts._figure_spec.clear()  # build every figure anew
    at: AppTest = via_router(name, query)
    assert not at.exception, [e.message for e in at.exception]
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


GRIDDED = {"heatmap", "surface", "contour"}  # traces whose z is a 2-D grid


@pytest.mark.parametrize(("name", "query"), STATES, ids=[f"{n}-{q}" for n, q in STATES])
def test_point_traces_get_flat_coordinates(name: str, query: dict[str, str]) -> None:
    """x and y of a scatter or bar trace are 1-D: a 2-D typed array (a (B, T) block passed
    without ravel) makes Plotly draw one category per row, not one point per value."""
    for chart in charts(name, query, checked=False):
        for trace in chart["data"]:
            if trace.get("type", "scatter") in GRIDDED:
                continue
            for axis in ("x", "y", "z"):
                value = trace.get(axis)
                shape = value.get("shape") if isinstance(value, dict) else None
                assert shape is None or "," not in str(shape), (name, trace.get("type"), axis)


@pytest.mark.parametrize(("name", "query"), STATES, ids=[f"{n}-{q}" for n, q in STATES])
def test_unchecked_build_sends_the_same_json(
    name: str, query: dict[str, str], validate: None
) -> None:
    checked = charts(name, query, checked=True)
    unchecked = charts(name, query, checked=False)
    assert checked, f"{name} drew no chart"
    assert unchecked == checked


def test_direct_json_matches_plotlys_for_every_kind_of_value(validate: None) -> None:
    """FigureSpec.plotly_json against pio.to_json: arrays of each dtype (int64 narrowed,
    2-D with a shape), NaN and infinities in lists and arrays, numpy scalars, tuples,
    arrays under a skipped key (range) and inside lists, frames, subplots."""
    spec = FigureSpec.subplots(1, 2, subplot_titles=("a", "b"))
    spec.add_scatter(
        x=np.arange(4),  # int64, narrowed to int8
        y=np.array([0.5, np.nan, np.inf, -1.0]),
        text=("a", "b", "c", "d"),
        marker_size=np.float32(3.5),
        customdata=[np.array([1.0, np.nan]), [np.int64(2), 3]],
        row=1,
        col=1,
    )
    spec.add_heatmap(z=np.arange(6, dtype=np.float32).reshape(2, 3), zmax=np.int64(7), row=1, col=2)
    spec.add_bar(x=np.array(["p", "q"]), y=[np.nan, float("inf")], row=1, col=2)
    spec.add_scatter(
        x=np.array([2**40, 1]),  # int64 beyond int32: a list
        y=np.array([70_000, -3]),  # int64 within int32
        z=np.array([], dtype=float),
        ids=np.array([True, False]),  # no typed array for booleans
        customdata=np.arange(4, dtype=np.uint64).reshape(2, 2),
        row=1,
        col=2,
    )
    spec.update_layout(xaxis_range=np.array([0.0, 2.0]), height=np.int64(300))
    spec.frames = [{"name": "f0", "data": [{"y": np.array([1.0, 2.0])}]}]
    _spec.VALIDATE = False
    direct = _spec.json_data(lambda: spec.figure())
    via_plotly = json.loads(pio.to_json(spec.figure(), validate=False))
    assert direct == finished(via_plotly)  # (the palette's colour sequence, second cues)
    assert json.dumps(direct, allow_nan=False)  # plain JSON data, nothing left to encode


def test_a_value_without_a_plain_form_goes_through_plotly(validate: None) -> None:
    _spec.VALIDATE = False
    spec = FigureSpec().add_scatter(x=[datetime.date(2026, 12, 3)], y=[1])
    assert _spec.json_data(lambda: spec.figure())["data"][0]["x"] == ["2026-12-03"]


def test_a_misspelt_property_fails_when_checked(validate: None) -> None:
    spec = FigureSpec().add_scatter(x=[1], y=[2], linee={"width": 2})
    _spec.VALIDATE = True
    with pytest.raises(ValueError, match="linee"):
        spec.figure()
    _spec.VALIDATE = False
    assert spec.figure() is not None  # the server does not look


def test_underscore_shorthand_and_merging() -> None:
    assert nested({"marker_line_width": 0, "error_y_width": 2}) == {
        "marker": {"line": {"width": 0}},
        "error_y": {"width": 2},
    }
    target = {"xaxis": {"title": {"text": "t"}, "type": "log"}}
    merge(target, nested({"xaxis_title_font_size": 9, "xaxis": {"type": "linear"}}))
    assert target == {"xaxis": {"title": {"text": "t", "font": {"size": 9}}, "type": "linear"}}


def test_merging_copies_what_it_takes() -> None:
    shared = {"title": {"text": "t"}}  # e.g. a module-level constant
    target: dict = {}
    merge(target, {"legend": shared})
    merge(target, {"legend": {"title": {"font": {"size": 9}}}})
    assert target == {"legend": {"title": {"text": "t", "font": {"size": 9}}}}
    assert shared == {"title": {"text": "t"}}


def test_axis_updates_reach_every_subplot_or_the_one_asked_for() -> None:
    spec = FigureSpec.subplots(1, 3, subplot_titles=("a", "b", "c"))
    spec.update_xaxes(showgrid=False).update_yaxes(dtick=1, row=1, col=2)
    assert all(spec.layout[f"xaxis{k}"]["showgrid"] is False for k in ("", "2", "3"))
    assert spec.layout["yaxis2"]["dtick"] == 1 and "dtick" not in spec.layout["yaxis3"]
    assert [a["text"] for a in spec.layout["annotations"]] == ["a", "b", "c"]
    again = FigureSpec.subplots(1, 3, subplot_titles=("a", "b", "c"))
    assert "showgrid" not in again.layout["xaxis"], "the cached grid was modified"
