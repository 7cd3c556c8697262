"""The live control's frames for the epsilon page: each frame is what the page's figure
builders draw at that ε, for every part that moves; the payload stays small."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np
import plotly.io as pio
import pytest

import lnviz
from lnviz.app.controls import EPS_GRID
from lnviz.figures.live import Frames
from lnviz.lessons import explorers
from lnviz.lessons.epsilon import figures as figs
from lnviz.lessons.epsilon.live import epsilon_grid
from lnviz.lessons.epsilon.live_figures import CHART_KEYS, epsilon_frames

COMPARE_EPS = (1e-3, 1e-2, 0.1, 1.0, 10.0)  # as pages/epsilon.py


def _value(v: Any) -> Any:
    if isinstance(v, dict) and "f4" in v:
        return np.frombuffer(base64.b64decode(v["f4"]), dtype="<f4").tolist()
    if isinstance(v, dict) and "bdata" in v:
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        shape = [int(n) for n in str(v.get("shape", arr.size)).split(",")]
        return arr.reshape(shape).tolist()
    return v


def _path(node: Any, path: str) -> Any:
    for part in path.replace("]", "").replace("[", ".").split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    return node


def _figure(key: str, z: np.ndarray, eps: float, page_eps: float) -> dict[str, Any]:
    others = explorers.compare_families(page_eps, COMPARE_EPS)
    cur = lnviz.epsilon_family(eps)
    spec = lnviz.jacobian_spectrum(z, eps)
    core = lnviz.analyze_core(z, eps)
    fig = {
        "h": lambda: figs.H.figure(cur, others),
        "dh": lambda: figs.DH.figure(cur, others),
        "variance": lambda: figs.VARIANCE.figure(
            np.logspace(-3, 3, 5), np.ones(5), float(core.q) / eps
        ),
        "jacobian": lambda: figs.JACOBIAN.figure(spec),
        "eigen": lambda: figs.EIGEN.figure(spec),
    }[key]()
    return json.loads(pio.to_json(fig, validate=False))


def _close(a: Any, b: Any) -> bool:
    if "str" in {type(v).__name__ for v in np.ravel(np.asarray(a, dtype=object))}:
        return a == b
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=2e-6, atol=1e-9)


@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [1.0, 2.0, 4.0, -3.0]])
@pytest.mark.parametrize("page_eps", [1 / 3, 1e-6])
def test_each_frame_is_what_the_builders_draw(z: list[float], page_eps: float) -> None:
    x = np.asarray(z)
    others = explorers.compare_families(page_eps, COMPARE_EPS)
    charts = epsilon_frames(epsilon_grid(x, EPS_GRID), len(others), x.size)
    assert [c["key"] for c in charts] == list(CHART_KEYS)
    for k in (0, 7, 23, len(EPS_GRID) - 1):
        eps = EPS_GRID[k]
        for chart in charts:
            fig = _figure(chart["key"], x, eps, page_eps)
            for d in chart["data"]:
                want = _value(fig["data"][d["trace"]][d["attr"]])
                got = _value(d["values"][k])
                assert _close(got, want), (chart["key"], d["trace"], d["attr"], eps)
            for lay in chart["layout"]:
                assert _close(lay["values"][k], _path(fig["layout"], lay["path"])), lay["path"]


def test_a_constant_input_has_no_variance_marker_and_no_radial_bar() -> None:
    charts = epsilon_frames(epsilon_grid([2.0, 2.0, 2.0], EPS_GRID), 5, 3)
    assert "variance" not in [c["key"] for c in charts]
    eigen = next(c for c in charts if c["key"] == "eigen")
    assert eigen["traces"] == [1]  # tangential only, after the common offset
    fig = _figure("eigen", np.array([2.0, 2.0, 2.0]), 0.01, 0.01)
    assert [t["name"] for t in fig["data"]] == ["common offset", "tangential"]


def test_the_payload_at_the_defaults_stays_small() -> None:
    charts = epsilon_frames(epsilon_grid([1.0, 2.0, 3.0], EPS_GRID), 4, 3)
    size = len(json.dumps(charts, separators=(",", ":")))
    assert size < 350_000, size  # the whole page's chart data must stay under 1 MB


def test_frames_refuse_a_wrong_number_of_values() -> None:
    with pytest.raises(ValueError, match="3 frame values for 2"):
        Frames("h", 2).trace(0, "y", [1, 2, 3])
