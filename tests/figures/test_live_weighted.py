"""The weighted-centering page's live frames: each is what the page's builders draw."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import numpy as np
import plotly.io as pio
import pytest

from lnviz.lessons.weighted_centering import figures as figs
from lnviz.lessons.weighted_centering.live import point_lattice, weight_grid
from lnviz.lessons.weighted_centering.live_figures import point_frames, weight_frames
from lnviz.weighted import ProjectionView, constant_fit, projection_view, segment_in_box
from tests.apptest_helpers import values
from tests.weighted_reference import W, at_weight


def as_json(fig: Any) -> dict[str, Any]:
    return json.loads(pio.to_json(fig, validate=False))


def decoded(value: Any) -> Any:
    if isinstance(value, dict) and "f4" in value:
        return np.frombuffer(base64.b64decode(value["f4"]), dtype="<f4").astype(float)
    return value


def layout_value(fig: dict[str, Any], path: str) -> Any:
    m = re.fullmatch(r"annotations\[(\d)\]\.(x|y)", path)
    if m:
        return fig["layout"]["annotations"][int(m[1])][m[2]]
    axis, attr = path.split(".")
    return fig["layout"][axis][attr]


def assert_frame(chart: dict[str, Any], k: int, fig: dict[str, Any]) -> None:
    for d in chart["data"]:
        want, got = fig["data"][d["trace"]][d["attr"]], decoded(d["values"][k])
        if d["attr"] == "text":  # the same label up to a tie in its last digit: the page's c
            (g,), (w,) = got, want  # comes from a least-squares solve, the frame's from aᵀx
            assert g.rsplit(" ", 1)[0] == w.rsplit(" ", 1)[0]
            num = (float(t.rsplit(" ", 1)[1].replace("−", "-")) for t in (g, w))
            assert next(num) == pytest.approx(next(num), rel=1e-3, abs=1e-3)
        else:
            np.testing.assert_allclose(got, values(want), rtol=1e-4, atol=1e-4)
    for part in chart["layout"]:
        want = layout_value(fig, part["path"])
        np.testing.assert_allclose(part["values"][k], want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("x", [(4.0, 2.0), (-30.0, 7.5)])
def test_each_w_frame_is_what_the_plane_and_fit_builders_draw(x: tuple[float, float]) -> None:
    plane, fit = weight_frames(weight_grid(x, W))
    assert (plane["key"], fit["key"]) == ("plane", "objective")
    assert plane["traces"] == [0, 1, 2, 3, 5, 6] and fit["traces"] == [0, 1, 2]
    for k in (0, 25, 50, 73, 100):
        r = at_weight(W[k], x)
        assert_frame(plane, k, as_json(figs.plane_figure(r, projection_view(r))))
        assert_frame(fit, k, as_json(figs.objective_figure(constant_fit(r))))


@pytest.mark.parametrize("w", [0.25, 0.8])
def test_each_point_frame_is_what_the_plane_builder_draws_in_the_kept_view(w: float) -> None:
    half = 5.0
    lat = point_lattice(w, half)
    chart = point_frames(lat)
    assert chart["key"] == "plane" and chart["traces"] == [2, 3, 4, 5, 6]
    page = projection_view(at_weight(w, (4.0, 2.0)))
    for k in range(0, len(lat.points), 97):
        r = at_weight(w, lat.points[k])
        view = ProjectionView(
            half, segment_in_box(r.x, [1.0, 1.0], half), page.kernel_line, page.mean_zero_line, None
        )
        assert_frame(chart, k, as_json(figs.plane_figure(r, view)))
