"""Every live control's frames, end to end: frame k of each chart it moves, applied to the
chart the page drew, is the chart the page draws when its value is option k (taken from
the page at that value through its link). One table for the five pages' seven controls."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from lnviz import weighted as wt
from lnviz.app.charts import build_spec
from lnviz.app.controls import EPS_GRID
from lnviz.lessons.batch_statistics.live import shift_steps
from lnviz.lessons.batch_statistics.state import STATE as BATCH
from lnviz.lessons.gain_and_bias.live import drag_values
from lnviz.lessons.gain_and_bias.notes_live import with_entry
from lnviz.lessons.gain_and_bias.state import STATE as GAIN
from lnviz.lessons.invariance.state import STATE as INVARIANCE
from lnviz.lessons.weighted_centering import figures as wfigs
from lnviz.lessons.weighted_centering.state import STATE as WEIGHTED
from tests.apptest_helpers import assert_clean, live_data, page
from tests.live_frames import applied, assert_same_figure

COMPARE_EPS = (1e-3, 1e-2, 0.1, 1.0, 10.0)  # the epsilon page's faint curves
W_OPTIONS = tuple(k / 100 for k in range(101))
GAMMA = [float(v) for v in GAIN["gamma"].default.split(",")]


def _inner_points(data: dict[str, Any]) -> list[int]:
    """Lattice states well inside the view: there the page keeps its view after the move,
    as the frames do (they keep the view while the point is dragged)."""
    xs, ys = data["xs"], data["ys"]
    return [ys.index(v) * len(xs) + xs.index(u) for u, v in ((-2, 1), (3, -1), (0.5, 0.5))]


def _plane_in_the_default_view(data: dict[str, Any], k: int) -> dict[str, Any]:
    """The plane chart with x at lattice state k, in the view of the page's default x."""
    w, x = float(WEIGHTED["w"].default), [float(v) for v in WEIGHTED["x"].default.split(",")]
    view = wt.projection_view(wt.weighted_centering(wt.two_weights(w), x))
    nx = len(data["xs"])
    point = [data["xs"][k % nx], data["ys"][k // nx]]
    moved = wt.weighted_centering(wt.two_weights(w), point)
    return build_spec(wfigs.PLANE.figure, (moved, view))


# page, control key, the link that puts the page at option k (given the control's data)
CONTROLS: list[tuple[str, str, Callable[[dict[str, Any], int], dict[str, str]] | None]] = [
    ("epsilon", "eps-live", lambda d, k: {"eps": repr(EPS_GRID[k])}),
    ("invariance", "c-live", lambda d, k: {"c": repr(INVARIANCE["c"].options[k])}),
    ("invariance", "a-live", lambda d, k: {"a": repr(INVARIANCE["a"].options[k])}),
    (
        "gain-and-bias",
        "gb-live",
        lambda d, k: {
            "gamma": with_entry(GAIN["gamma"].default, 0, drag_values(GAMMA[0], -1e3, 1e3)[k])
        },
    ),
    (
        "batch-statistics",
        "at-live",
        lambda d, k: {"at": str(shift_steps(BATCH["steps"].default, BATCH["at"].default)[k])},
    ),
    ("weighted-centering", "w-live", lambda d, k: {"w": repr(W_OPTIONS[k])}),
    ("weighted-centering", "x-live", None),  # compared in the view it keeps (below)
]


def as_shown(figure: dict[str, Any]) -> dict[str, Any]:
    """The figure with its title in bold, as st.plotly_chart's theme shows it (and as the
    frames send it)."""
    title = figure.get("layout", {}).get("title", {})
    if isinstance(title.get("text"), str) and not title["text"].startswith("<b>"):
        title["text"] = f"<b>{title['text']}</b>"
    return figure


def _drawn(at: Any) -> dict[str, dict[str, Any]]:
    """The page's charts by their key."""
    return {c.proto.id.split("-", 2)[2]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


@pytest.mark.parametrize(("name", "key", "link"), CONTROLS, ids=[c[1] for c in CONTROLS])
def test_each_frame_is_the_chart_the_page_draws_at_that_value(name, key, link) -> None:
    at = page(name, timeout=120)
    _, data = live_data(at, key)
    drawn = _drawn(at)
    n = len(data["labels"]) if "labels" in data else len(data["xs"]) * len(data["ys"])
    moved = [chart for chart in data["charts"] if chart["data"] or chart["layout"]]
    assert all(chart["key"] in drawn for chart in moved)
    ks = _inner_points(data) if key == "x-live" else sorted({0, n // 3, n - 1} - {data["index"]})
    for k in ks:
        if name == "epsilon" and EPS_GRID[k] in COMPARE_EPS:
            k -= 1  # the page at a faint curve's ε draws one fewer; the frames keep them all
        if key == "x-live":  # the frames keep the view; the page fits it again on release
            there_drawn = {"plane": _plane_in_the_default_view(data, k)}
        else:
            assert link is not None
            there = page(name, link(data, k), timeout=120)
            assert_clean(there)
            there_drawn = _drawn(there)
        for chart in moved:
            got = applied(drawn[chart["key"]], chart, k)
            assert_same_figure(as_shown(got), as_shown(there_drawn[chart["key"]]))


@pytest.mark.parametrize(
    ("name", "key", "before", "after", "elsewhere"),
    [
        ("epsilon", "eps-live", {"eps": "0.0001"}, {"eps": "0.001778279"}, {"z": "1, 5, 2"}),
        ("gain-and-bias", "gb-live", {"gamma": "1, 2, 1"}, {"gamma": "1.5, 2, 1"}, {"eps": "1"}),
        ("batch-statistics", "at-live", {"at": "100"}, {"at": "105"}, {"seed": "1"}),
        ("weighted-centering", "w-live", {"w": "0.25"}, {"w": "0.5"}, {"x": "1, 3"}),
    ],
)
def test_a_release_keeps_the_frames_the_visitor_has(name, key, before, after, elsewhere) -> None:
    """The frames' key leaves out the control's own value: after a release within the
    control's range the browser holds the frames already (the same id, nothing rebuilt);
    a change of anything else the charts show does change it."""
    first = live_data(page(name, before, timeout=120), key)[1]["frames_id"]
    assert live_data(page(name, after, timeout=120), key)[1]["frames_id"] == first
    other = live_data(page(name, {**before, **elsewhere}, timeout=120), key)[1]["frames_id"]
    assert other != first


def test_a_chart_whose_traces_change_along_the_drag_has_no_frames_and_the_page_stands() -> None:
    """z = (1, 2) at ε = 0, dragging z₂: at z₂ = 1 the input is constant and the core, the
    output are undefined (drawn without their bars). Those charts get no frames (they
    follow on release); the input's and the moments' do, and nothing raises."""
    at = page("gain-and-bias", {"z": "1, 2", "eps": "0", "drag": "z2"}, timeout=120)
    _, data = live_data(at, "gb-live")
    assert_clean(at)
    assert [c["key"] for c in data["charts"]] == ["stage-input", "moments"]
