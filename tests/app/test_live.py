"""The live control on the epsilon page (AppTest): it opens at the page's ε, carries a
frame per slider value for charts the page draws, and follows the page's slider."""

from __future__ import annotations

import json
import re
from typing import Any

from streamlit.testing.v1 import AppTest

from lnviz.app.controls import EPS_GRID
from tests.apptest_helpers import (
    assert_clean,
    assert_live_data_under_1_mb,
    live_data,
    page,
    want_frames,
)


def _live(at: AppTest, key: str) -> dict[str, Any]:
    return live_data(at, key)[1]


def _chart_keys(at: AppTest) -> set[str]:
    return {c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")}


def test_epsilon_live_control_opens_at_the_pages_eps_with_a_frame_per_value() -> None:
    at = page("epsilon", {"eps": "1e-06"})
    assert_clean(at)
    data = _live(at, "eps-live")
    assert data["index"] == 0 and data["labels"][0] == "ε = 1e-06"
    assert len(data["labels"]) == len(EPS_GRID) == 31
    assert {c["key"] for c in data["charts"]} <= _chart_keys(at)  # drives charts on the page
    for chart in data["charts"]:
        for part in chart["data"] + chart["layout"]:
            assert len(part["values"]) == 31


def test_the_live_control_follows_the_pages_slider() -> None:
    at = page("epsilon")
    assert _live(at, "eps-live")["labels"][_live(at, "eps-live")["index"]] == "ε = 1/3"
    at.select_slider(key="eps").set_value(1e-3).run()
    data = _live(at, "eps-live")
    assert data["labels"][data["index"]] == "ε = 0.001"


def _sent(at: AppTest, key: str) -> bytes:
    """The data element `key` sends: JSON text (a control) or bytes (its frames)."""
    (element,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(key)]
    return element.proto.json.encode() or element.proto.bytes


def test_moving_the_value_leaves_the_frames_element_as_it_was() -> None:
    """A move changes the control's small element only: the frames' element is the same,
    so Streamlit sends the browser a reference to it instead of its 100s of kB again."""
    at = want_frames(page("epsilon"))
    control, frames = _sent(at, "eps-live"), _sent(at, "eps-live--frames")
    assert len(frames) > 100_000 > 20 * len(control)
    at.select_slider(key="eps").set_value(EPS_GRID[24]).run()  # (no faint curve's ε)
    assert _sent(at, "eps-live") != control and _sent(at, "eps-live--frames") == frames
    at.text_input(key="z").set_value("1, 2, 4").run()  # new frames for a new z
    assert _sent(at, "eps-live--frames") != frames


def test_the_epsilon_pages_chart_data_with_its_live_control_stays_under_1_mb() -> None:
    assert_live_data_under_1_mb(page("epsilon"))


def test_invariance_live_control_drives_the_scaling_chart_at_the_pages_a() -> None:
    at = page("invariance", {"a": "0.5"})
    assert_clean(at)
    data = _live(at, "a-live")
    assert data["labels"][data["index"]] == "a = 0.5"
    assert len(data["labels"]) == 7
    assert [c["key"] for c in data["charts"]] == ["scale"]
    assert "scale" in _chart_keys(at)


def test_frames_are_sent_only_once_the_visitor_asks_and_then_for_every_new_state() -> None:
    """Frames on demand: a visitor who never reaches for the live control is not sent its
    frames (nor are they built for them); the "wanted" trigger's callback sets the session's
    flag, and from then on every run carries the frames of its state."""
    at = page("epsilon")
    assert not [e for e in at.get("bidi_component") if e.proto.id.endswith("eps-live--frames")]
    (control,) = [e for e in at.get("bidi_component") if e.proto.id.endswith("eps-live")]
    first_id = json.loads(control.proto.json)["frames_id"]
    assert re.fullmatch(r"[0-9a-f]{24}", first_id)  # named before they are built
    at.session_state["eps-live--wanted"] = True  # what the trigger's callback sets
    at.run()
    assert _sent(at, "eps-live--frames").startswith(b'{"frames_id":"' + first_id.encode())
    at.text_input(key="z").set_value("1, 2, 4").run()  # a new state: its frames come along
    (control,) = [e for e in at.get("bidi_component") if e.proto.id.endswith("eps-live")]
    new_id = json.loads(control.proto.json)["frames_id"]
    assert new_id != first_id
    assert _sent(at, "eps-live--frames").startswith(b'{"frames_id":"' + new_id.encode())
    fresh = page("epsilon", {"z": "1, 2, 4"})  # another visitor, same state: same name
    (other,) = [e for e in fresh.get("bidi_component") if e.proto.id.endswith("eps-live")]
    assert json.loads(other.proto.json)["frames_id"] == new_id
