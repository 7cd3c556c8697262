"""The draw benchmark's figure pairs (benchmarks/plotly_draw.py): the second figure of a
pair differs from the first in its data, so that Plotly.react has a real update to make."""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from plotly_draw import moved, page_charts


def test_moved_changes_list_and_typed_array_data_and_keeps_their_form() -> None:
    y32 = np.arange(8, dtype=np.float32)
    spec = {
        "data": [
            {"type": "bar", "y": [1.0, 2.0, "a"]},
            {"type": "scatter", "y": {"dtype": "f4", "bdata": base64.b64encode(y32).decode()}},
        ],
        "layout": {"height": 300},
    }
    out = moved(spec)
    assert out["data"][0]["y"] == [1.01, 2.02, "a"]
    typed = np.frombuffer(base64.b64decode(out["data"][1]["y"]["bdata"]), dtype=np.float32)
    assert typed.shape == y32.shape and np.isfinite(typed).all()
    assert (typed != y32).sum() == 1 and np.allclose(typed, y32, atol=1e-5)
    assert out["layout"]["meta"] == "moved" and "meta" not in spec["layout"]  # a copy


def test_page_charts_are_the_page_s_figures() -> None:
    charts = page_charts("gain-and-bias")
    assert [key for key, _ in charts] == ["stage-input", "stage-core", "stage-output", "moments"]
    assert all(spec["data"] for _, spec in charts)
