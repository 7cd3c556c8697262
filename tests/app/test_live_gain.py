"""The gain-and-bias page's live control (AppTest): it opens at the chosen coordinate's
value, drives the charts that coordinate moves, and its release (the browser's trigger
"released" = index, sent here as the component sends it) rewrites that one entry of the
text box, so the vector, the link, the charts and their alt text take the released value."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah

PAGE = "gain-and-bias"


def live(at: AppTest) -> tuple[Any, dict[str, Any]]:
    return ah.live_data(at, "gb-live")


def release(at: AppTest, label: str) -> AppTest:
    """Rerun as after the visitor released the control on the value labelled `label`."""
    element, data = live(at)
    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    index = data["labels"].index(label)
    trigger.json_trigger_value = json.dumps([{"event": "released", "value": index}])
    return at._run(states)


def shown(at: AppTest) -> str:
    _, data = live(at)
    return data["labels"][data["index"]]


def chart(at: AppTest, key: str) -> Any:
    (element,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return element


def bars(at: AppTest, key: str) -> list[float]:
    spec = json.loads(chart(at, key).proto.spec)
    return ah.values(next(t["y"] for t in spec["data"] if t["type"] == "bar"))


def param(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[-1] if isinstance(value, list) else value


def test_opens_on_gamma_one_and_drives_only_the_output_and_moments() -> None:
    at = ah.page(PAGE)
    ah.assert_clean(at)
    assert at.radio(key="drag").value == "gamma1"
    assert at.radio(key="drag").options == ["z₁", "z₂", "z₃", "γ₁", "γ₂", "γ₃", "β₁", "β₂", "β₃"]
    _, data = live(at)
    assert data["label"] == "Drag γ₁: the bars follow"
    assert shown(at) == "γ₁ = 1" and len(data["labels"]) == 101
    assert data["labels"][0] == "γ₁ = −5" and data["labels"][-1] == "γ₁ = 5"
    assert [c["key"] for c in data["charts"]] == ["stage-output", "moments"]
    keys = {c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")}
    assert {"output", "moments"} <= keys


def test_dragging_z_drives_all_four_charts() -> None:
    at = ah.page(PAGE, {"drag": "z₃"})
    ah.assert_clean(at)
    _, data = live(at)
    assert shown(at) == "z₃ = 3"
    assert [c["key"] for c in data["charts"]] == [
        "stage-input",
        "stage-core",
        "stage-output",
        "moments",
    ]


def test_releasing_gamma_rewrites_its_entry_and_redraws_the_page() -> None:
    at = ah.page(PAGE)
    before = bars(at, "stage-output")
    alt = chart(at, "stage-output").proto.alt
    at = release(at, "γ₁ = 3")
    ah.assert_clean(at)
    assert at.text_input(key="gamma").value == "3, 2, 1"
    assert param(at, "gamma") == "3, 2, 1"
    assert shown(at) == "γ₁ = 3"  # the control now opens on the page's new value
    after = bars(at, "stage-output")
    assert after[0] == pytest.approx(3 * before[0]) and after[1:] == pytest.approx(before[1:])
    assert bars(at, "stage-core") == pytest.approx([-(1.5**0.5), 0.0, 1.5**0.5], abs=1e-6)
    assert ah.metric(at, "output mean") == "−0.483163"  # (1 − 2√(3/2))/3
    new_alt = chart(at, "stage-output").proto.alt
    assert new_alt != alt and "Gains (3, 2, 1)" in new_alt


def test_releasing_gamma_two_changes_nothing_but_the_gain() -> None:
    """γ₂ multiplies u₂ = 0 at the page's default: the output stays; only its gain moves."""
    at = ah.page(PAGE, {"drag": "γ₂"})
    before = bars(at, "stage-output")
    at = release(at, "γ₂ = −4.5")
    ah.assert_clean(at)
    assert at.text_input(key="gamma").value == "1, -4.5, 1"
    assert bars(at, "stage-output") == before
    assert ah.metric(at, "output mean") == "0.333333"


def test_releasing_z_keeps_the_other_entries_as_typed() -> None:
    at = ah.page(PAGE, {"z": "1/3, 2, 3", "drag": "z₂"})
    assert shown(at) == "z₂ = 2"
    at = release(at, "z₂ = −1.5")
    ah.assert_clean(at)
    assert at.text_input(key="z").value == "1/3, -1.5, 3"
    assert bars(at, "stage-input") == pytest.approx([1 / 3, -1.5, 3.0])
    assert ah.metric(at, "core variance") == "1"
    assert ah.metric(at, "output mean") != "0.333333"


def test_releasing_beta_moves_the_output_mean() -> None:
    at = ah.page(PAGE, {"drag": "β₁"})
    at = release(at, "β₁ = 3")
    ah.assert_clean(at)
    assert at.text_input(key="beta").value == "3, 1, 0"
    assert ah.metric(at, "output mean") == "1.333333"  # (3 + 1 + 0)/3 + mean of γ ⊙ u = 0


def test_a_far_value_gets_a_window_around_it() -> None:
    at = ah.page(PAGE, {"z": "1, 2, 300", "drag": "z₃"})
    ah.assert_clean(at)
    _, data = live(at)
    assert shown(at) == "z₃ = 300"
    assert data["labels"][0] == "z₃ = 295" and data["labels"][-1] == "z₃ = 305"


@pytest.mark.parametrize("drag", ["delta1", "z9", "gamma0", "<b>z1</b>"])
def test_a_bad_coordinate_in_the_link_gets_a_message(drag: str) -> None:
    at = ah.page(PAGE, {"drag": drag})
    ah.assert_clean(at)
    assert at.radio(key="drag").value == "gamma1"
    assert any("drag" in str(w.value) for w in at.warning), [w.value for w in at.warning]


def test_a_shorter_z_drops_a_coordinate_that_no_longer_exists() -> None:
    at = ah.page(PAGE, {"drag": "z₃"})
    at.text_input(key="z").set_value("1, 2").run()
    ah.assert_clean(at)
    assert at.radio(key="drag").value == "z1"  # γ and β no longer match z: z only
    assert at.radio(key="drag").options == ["z₁", "z₂"]
    assert not at.warning  # the visitor shortened z: no message about the link


def test_a_constant_input_at_eps_zero_has_no_live_control() -> None:
    at = ah.pressed(PAGE, "gb-presets-4")
    ah.assert_clean(at)
    assert not [e for e in at.get("bidi_component") if e.proto.id.endswith("gb-live")]


def test_chart_data_with_the_live_control_stays_under_1_mb() -> None:
    for query in ({}, {"drag": "z₁"}, {"z": "1, 2, 3, 4, 5, 6, 7, 8", "drag": "z₈"}):
        at = ah.want_frames(ah.page(PAGE, query))
        charts = sum(len(c.proto.spec.encode()) for c in at.get("plotly_chart"))
        frames = sum(ah.sent_bytes(e) for e in at.get("bidi_component"))
        assert frames > 20_000  # the frames travel with the control
        assert charts + frames <= 1_000_000, (query, charts, frames)
