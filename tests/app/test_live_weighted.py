"""The weighted-centering page's live controls (AppTest): they open at the page's w and x,
drive charts the page draws, stay small, and a release (the trigger the browser sends)
changes the page: the link, the control's value and everything drawn from it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import assert_clean, figures, live_data, page, sent_bytes, want_frames

NAME = "weighted-centering"


def _element(at: AppTest, key: str) -> Any:
    (element,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(key)]
    assert element.proto.component_name == "lnviz.live"
    return element


def _live(at: AppTest, key: str) -> dict[str, Any]:
    return live_data(at, key)[1]


def release(at: AppTest, key: str, index: int) -> AppTest:
    """Run the page as after the browser released control `key` at state `index`."""
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = _make_trigger_id(_element(at, key).proto.id, "events")
    state.json_trigger_value = json.dumps([{"event": "released", "value": index}])
    return at._run(states)


def _point(at: AppTest, label: str) -> list[float]:
    plane = figures(at)[0]
    t = next(t for t in plane["data"] if t.get("text") == [label])
    return [t["x"][0], t["y"][0]]


def _chart_keys(at: AppTest) -> set[str]:
    return {c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")}


def test_both_live_controls_open_at_the_pages_state_and_drive_its_charts() -> None:
    at = page(NAME)
    assert_clean(at)
    w = _live(at, "w-live")
    assert len(w["labels"]) == 101 and w["labels"][w["index"]] == "w = 0.25"
    assert [c["key"] for c in w["charts"]] == ["plane", "objective"]
    x = _live(at, "x-live")
    assert x["mode"] == "point" and x["chart"] == "plane" and x["value"] == [4.0, 2.0]
    nx = len(x["xs"])
    assert (x["xs"][x["index"] % nx], x["ys"][x["index"] // nx]) == (4.0, 2.0)
    assert x["xs"][1] - x["xs"][0] == 0.5  # the view [−5, 5]², 10 steps to its edge
    (chart,) = x["charts"]
    for part in chart["data"] + chart["layout"]:
        assert len(part["values"]) == nx * len(x["ys"])
    assert {c["key"] for c in w["charts"] + x["charts"]} <= _chart_keys(at)
    assert figures(at)[0]["data"][x["trace"]]["text"] == ["x"]  # the dragged trace is x


def test_the_pages_chart_data_with_both_live_controls_stays_under_1_mb() -> None:
    for query in ({}, {"x": "100, -100", "w": "0.5"}, {"x": "0.01, 0.02", "w": "1"}):
        at = want_frames(page(NAME, query))
        charts = sum(len(c.proto.spec.encode()) for c in at.get("plotly_chart"))
        live = sum(sent_bytes(e) for e in at.get("bidi_component"))
        assert live > 100_000  # the frames travel with the controls, once asked for
        assert charts + live <= 1_000_000, (query, charts, live)


def test_releasing_the_point_sets_x_in_the_box_the_link_and_the_page() -> None:
    at = page(NAME)
    x = _live(at, "x-live")
    nx = len(x["xs"])
    k = x["ys"].index(3.0) * nx + x["xs"].index(-2.0)
    at = release(at, "x-live", k)
    assert_clean(at)
    assert at.text_input(key="x").value == "-2, 3"
    assert at.query_params["x"] == ["-2, 3"] or at.query_params["x"] == "-2, 3"
    assert _point(at, "x") == [-2.0, 3.0]
    assert _point(at, "Pₐx") == [-3.75, 1.25]  # a = (1/4, 3/4): aᵀx = 1.75
    again = _live(at, "x-live")
    assert again["value"] == [-2.0, 3.0]
    n2 = len(again["xs"])
    assert (again["xs"][again["index"] % n2], again["ys"][again["index"] // n2]) == (-2.0, 3.0)


def test_releasing_w_sets_w_and_the_page_follows() -> None:
    at = release(page(NAME), "w-live", 60)
    assert_clean(at)
    assert at.slider(key="w").value == 0.6
    assert _live(at, "w-live")["index"] == 60
    assert _point(at, "Pₐx") == pytest.approx([0.8, -1.2])  # aᵀx = 0.6·4 + 0.4·2 = 3.2
    assert _point(at, "x") == [4.0, 2.0]


def test_a_release_outside_the_lattice_changes_nothing() -> None:
    at = release(page(NAME), "x-live", 10**6)
    assert_clean(at)
    assert at.text_input(key="x").value == "4, 2"
