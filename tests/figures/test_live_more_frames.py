"""The live frames of invariance's common shift and batch statistics' shift step: each frame
is what the page's figure builder draws at that value."""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

import numpy as np
import plotly.io as pio
import pytest

from lnviz.lessons import symmetry
from lnviz.lessons.batch_statistics import figures as bfigs
from lnviz.lessons.batch_statistics.analysis import StreamSettings, stream_runs
from lnviz.lessons.batch_statistics.live import shift_step_grid, shift_steps
from lnviz.lessons.batch_statistics.live_figures import shift_step_frames
from lnviz.lessons.invariance import figures as ifigs
from lnviz.lessons.invariance.live import shift_grid
from lnviz.lessons.invariance.live_figures import shift_frames
from tests.apptest_helpers import values

C = (-1000.0, -100.0, -10.0, -1.0, -0.5, 0.0, 0.5, 1.0, 10.0, 100.0, 1000.0)


def as_json(fig: Any) -> dict[str, Any]:
    return json.loads(pio.to_json(fig, validate=False))


def frame_values(value: Any) -> list[Any]:
    if isinstance(value, dict) and "f4" in value:
        return np.frombuffer(base64.b64decode(value["f4"]), dtype="<f4").tolist()
    return list(value)


@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [0.1, 0.2, 0.7]])
def test_each_shift_frame_is_what_the_pair_builder_draws(z: list[float]) -> None:
    eps = 1 / 3
    chart = shift_frames(shift_grid(z, eps, C))
    assert chart["key"] == "shift" and chart["traces"] == [1]
    for k, c in enumerate(C):
        fig = as_json(ifigs.PAIR.figure(symmetry.common_shift(z, c, eps)))
        for d in chart["data"]:
            want = fig["data"][d["trace"]][d["attr"]]
            if d["attr"] == "text":
                assert d["values"][k] == want
            else:
                np.testing.assert_allclose(d["values"][k], values(want), rtol=1e-12)
        (title,) = chart["layout"]
        assert title["values"][k] == f"<b>{fig['layout']['title']['text']}</b>"


@pytest.mark.parametrize("at", [0, 37, 60])
def test_each_shift_step_frame_is_what_the_stream_builders_draw(at: int) -> None:
    s = StreamSettings(60, 4, 2, 3, at, 2.0, 1.5, 0.1, 0.99)
    page = stream_runs(s)
    ks = shift_steps(s.steps, s.at)
    charts = {
        c["key"]: c for c in shift_step_frames(shift_step_grid(page.stream, page.runs, 1, ks))
    }
    assert list(charts) == ["run-mean", "run-var", "gap"]
    for k, step in enumerate(ks):
        one = stream_runs(dataclasses.replace(s, at=step))
        figs = {
            "run-mean": as_json(bfigs.STAT.figure(one.stream, one.runs, 1, "mean")),
            "run-var": as_json(bfigs.STAT.figure(one.stream, one.runs, 1, "var")),
            "gap": as_json(bfigs.GAP.figure(one.stream, one.runs)),
        }
        for key, chart in charts.items():
            fig = figs[key]
            assert chart["traces"] == list(range(len(fig["data"])))  # every trace moves
            for d in chart["data"]:
                want = values(fig["data"][d["trace"]][d["attr"]])
                np.testing.assert_allclose(frame_values(d["values"][k]), want, rtol=1e-6)
            for part in chart["layout"]:
                assert part["values"][k] == fig["layout"].get(part["path"], []), (key, step)
