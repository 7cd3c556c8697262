"""The gain-and-bias page's live frames: each is what the lesson's figures draw with the
dragged coordinate at that value (bars, labels, mean line, band, y range, title)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import plotly.io as pio
import pytest

import lnviz
from lnviz.lessons.gain_and_bias import figures as figs
from lnviz.lessons.gain_and_bias.live import drag_values, gain_grid
from lnviz.lessons.gain_and_bias.live_figures import STAGE_KEYS, gain_frames
from lnviz.lessons.gain_and_bias.notes_live import coordinate_label, coordinate_options, with_entry
from lnviz.params import parse_vector
from tests.apptest_helpers import values as decoded

Z, GAMMA, BETA = [1.0, 2.0, 4.0], [1.0, 2.0, 1.0], [0.0, 1.0, 0.0]


def _spec(fig: Any) -> dict[str, Any]:
    return json.loads(pio.to_json(fig, validate=False))


def _get(layout: dict[str, Any], path: str) -> Any:
    node: Any = layout
    for part in path.replace("[", ".").replace("]", "").split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    return node


def _same(got: Any, want: Any) -> None:
    if isinstance(want, str) or (isinstance(want, list) and want and isinstance(want[0], str)):
        assert got == want
    else:
        want = decoded(want) if isinstance(want, dict) else want
        np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=1e-6)


@pytest.mark.parametrize("eps", [0.0, 1 / 3])
@pytest.mark.parametrize(("field", "index"), [("z", 0), ("z", 2), ("gamma", 1), ("beta", 2)])
def test_each_frame_is_what_the_builders_draw(eps: float, field: str, index: int) -> None:
    current = {"z": Z, "gamma": GAMMA, "beta": BETA}[field][index]
    options = drag_values(current, -100, 100)[::7]  # every 7th value keeps the test short
    grid = gain_grid(Z, GAMMA, BETA, eps, field, index, options)
    charts = gain_frames(grid)
    keys = [c["key"] for c in charts]
    assert keys == [*(STAGE_KEYS if field == "z" else STAGE_KEYS[2:]), "moments"]
    for k, value in enumerate(options):
        vectors = {"z": list(Z), "gamma": list(GAMMA), "beta": list(BETA)}
        vectors[field][index] = float(value)
        res = lnviz.affine_stages(vectors["z"], vectors["gamma"], vectors["beta"], eps)
        assert res.defined
        for chart in charts:
            if chart["key"] == "moments":
                fig = _spec(figs.MOMENTS.figure(res))
            else:
                fig = _spec(figs.STAGE.figure(res, STAGE_KEYS.index(chart["key"])))
            for d in chart["data"]:
                _same(d["values"][k], fig["data"][d["trace"]][d["attr"]])
            for item in chart["layout"]:
                got, want = item["values"][k], _get(fig["layout"], item["path"])
                if item["path"] == "title.text":  # bold as Streamlit's theme draws titles
                    assert got == f"<b>{want}</b>"
                else:
                    _same(got, want)


def test_a_row_without_a_core_has_no_bars_and_says_undefined() -> None:
    grid = gain_grid([1.0, 2.0, 2.0], GAMMA, BETA, 0.0, "z", 0, [1.0, 2.0])
    core = gain_frames(grid)[1]
    assert core["key"] == "stage-core"
    bars = next(d for d in core["data"] if d["trace"] == 0 and d["attr"] == "y")
    assert bars["values"][1] == [None, None, None]  # a gap: JSON has no NaN
    title = next(item for item in core["layout"] if item["path"] == "title.text")
    assert title["values"][1] == "<b>2 · core u: undefined</b>"
    json.dumps(gain_frames(grid), allow_nan=False)  # nothing the browser cannot parse


def test_the_frames_of_the_pages_default_are_small() -> None:
    grid = gain_grid(Z, GAMMA, BETA, 0.0, "z", 0, drag_values(1.0, -1000, 1000))
    size = len(json.dumps(gain_frames(grid), allow_nan=False))
    assert 20_000 < size < 200_000


def test_coordinates_are_named_in_ascii_and_shown_with_their_symbol() -> None:
    options = coordinate_options(3, ("z", "gamma", "beta"))
    assert options[:4] == ["z1", "z2", "z3", "gamma1"] and len(options) == 9
    assert [coordinate_label(o) for o in options[2:5]] == ["z₃", "γ₁", "γ₂"]
    assert coordinate_label("beta8") == "β₈"


@pytest.mark.parametrize(
    ("text", "index", "value", "want"),
    [
        ("1, 2, 3", 0, -2.5, "-2.5, 2, 3"),
        ("(1 2 3)", 2, 0.1, "1, 2, 0.1"),
        ("1/3; 2;3", 1, 4.0, "1/3, 4, 3"),
        ("1, 2, 3", 1, -0.0, "1, 0, 3"),
        ("1, 2", 2, 5.0, "1, 2"),  # no such entry: unchanged
    ],
)
def test_the_released_value_replaces_one_entry_and_parses_back(text, index, value, want) -> None:
    got = with_entry(text, index, value)
    assert got == want
    parsed = parse_vector(got, "z")
    if index < parsed.size:
        assert parsed[index] == value  # the box reads back exactly the released value
