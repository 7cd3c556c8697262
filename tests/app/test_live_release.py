"""The release path of the live controls on the invariance (c) and batch-statistics (the
shift step) pages, in AppTest: the browser's trigger "released" = index is sent as the
component would send it, and the page's control, link and charts take the released value."""

from __future__ import annotations

import json
from typing import Any

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import (
    assert_clean,
    assert_live_data_under_1_mb,
    figures,
    live_data,
    page,
)


def release(at: AppTest, key: str, index: int) -> AppTest:
    """Rerun as after the visitor released the live control `key` at grid index `index`:
    the component's one trigger, {"event": "released", "value": index}, with every other
    widget's state as the page left it."""
    element, _ = live_data(at, key)
    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "released", "value": index}])
    return at._run(states)


def chart(at: AppTest, title_start: str) -> dict[str, Any]:
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"].startswith(title_start)]
    return fig


def test_releasing_c_sets_the_shift_the_link_and_the_section() -> None:
    at = page("invariance", {"z": "0.1, 0.2, 0.7"})
    assert_clean(at)
    _, data = live_data(at, "c-live")
    assert data["labels"][data["index"]] == "c = 100"  # the page's default c
    assert [c["key"] for c in data["charts"]] == ["shift"]
    assert len(data["labels"]) == 11
    assert "z + c = (100.1, 100.2, 100.7)" in " ".join(m.value for m in at.markdown)
    at = release(at, "c-live", 2)  # c = -10
    assert_clean(at)
    assert at.session_state["c"] == -10.0
    assert at.query_params["c"] == "-10"  # the link
    assert "z + c = (−9.9, −9.8, −9.3)" in " ".join(m.value for m in at.markdown)
    alts = [c.proto.alt for c in at.get("plotly_chart")]
    assert any("Common shift c = −10:" in a for a in alts)  # alt text follows the release
    contrast = chart(at, "Largest change of the output")
    assert contrast["data"][0]["x"][0] == "z + c, c = −10"  # section 4 follows too
    _, data = live_data(at, "c-live")
    assert data["index"] == 2  # the control opens at the released c


def test_releasing_at_an_out_of_range_index_changes_nothing() -> None:
    at = page("invariance")
    at = release(at, "c-live", 99)
    assert_clean(at)
    assert at.session_state["c"] == 100.0 and "c" not in at.query_params


def test_releasing_the_shift_step_sets_it_and_redraws_the_stream_charts() -> None:
    at = page("batch-statistics")
    assert_clean(at)
    _, data = live_data(at, "at-live")
    assert data["labels"][data["index"]] == "step = 100"
    assert data["labels"][-1] == "step = 200 (no shift)"
    assert [c["key"] for c in data["charts"]] == ["run-mean", "run-var", "gap"]
    before = chart(at, "Running mean")
    (shift,) = before["layout"]["shapes"]
    assert shift["x0"] == 99.5
    index = data["labels"].index("step = 40")
    at = release(at, "at-live", index)
    assert_clean(at)
    assert at.session_state["at"] == 40
    assert at.query_params["at"] == "40"
    after = chart(at, "Running mean")
    assert [s["x0"] for s in after["layout"]["shapes"]] == [39.5]
    assert after["data"][1]["y"] != before["data"][1]["y"]  # the true mean moved earlier
    alts = [c.proto.alt for c in at.get("plotly_chart")]
    assert sum("At step 40 " in a for a in alts) == 3  # mean, variance and gap charts
    assert not any("At step 100 " in a for a in alts)
    _, data = live_data(at, "at-live")
    assert data["labels"][data["index"]] == "step = 40"


def test_the_batch_statistics_chart_data_with_its_live_control_stays_under_1_mb() -> None:
    assert_live_data_under_1_mb(page("batch-statistics"))
