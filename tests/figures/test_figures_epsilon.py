"""The ε scrubber: every ε's curves travel with the chart, the browser swaps them."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import pytest

import lnviz
from lnviz.figures import epsilon as figs

EPS = [1e-6, 1e-3, 1 / 3, 1.0, 10.0]


def _families(n: int = 101) -> list[lnviz.Family]:
    return [lnviz.epsilon_family(e, n=n) for e in EPS]


def test_one_frame_per_eps_carrying_only_the_new_curves() -> None:
    fams = _families()
    fig = figs.scrub_figure(fams, 2)
    assert [f.name for f in fig.frames] == ["1e-06", "0.001", "1/3", "1", "10"]
    for frame, fam in zip(fig.frames, fams, strict=True):
        h, dh = frame.data
        assert h.x is None and dh.x is None  # x stays with the base traces
        np.testing.assert_allclose(h.y, fam.h, rtol=1e-6)
        np.testing.assert_allclose(dh.y, fam.dh, rtol=1e-6)
        assert list(frame.traces) == [0, 1]


def test_the_chart_opens_at_the_pages_eps_and_the_slider_names_every_frame() -> None:
    fams = _families()
    fig = figs.scrub_figure(fams, 2)
    np.testing.assert_allclose(fig.data[0].y, fams[2].h, rtol=1e-6)
    slider = fig.layout.sliders[0]
    assert slider.active == 2
    assert [s.args[0][0] for s in slider.steps] == [f.name for f in fig.frames]
    assert all(s.method == "animate" for s in slider.steps)
    assert all(s.args[1]["frame"]["redraw"] is False for s in slider.steps)  # no full redraw


def test_log_axis_of_the_slope_holds_every_peak() -> None:
    fams = _families()
    fig = figs.scrub_figure(fams, 0)
    low, high = fig.layout.yaxis2.range
    assert 10**high >= max(f.peak_slope for f in fams)  # 1000 at eps = 1e-6
    assert 10**low <= min(float(np.min(f.dh)) for f in fams)


def test_the_page_sized_scrubber_stays_small_on_the_wire() -> None:
    fams = [lnviz.epsilon_family(e, n=201) for e in np.logspace(-6, 1, 31)]
    spec = pio.to_json(figs.scrub_figure(fams, 15), validate=False)
    assert len(spec) < 120_000, len(spec)  # 62 curves of 201 points as float32 arrays
    assert json.loads(spec)["frames"][0]["data"][0]["y"]["dtype"] == "f4"


def test_families_on_different_grids_are_refused() -> None:
    with pytest.raises(ValueError, match="same grid"):
        figs.scrub_figure([lnviz.epsilon_family(1.0, n=11), lnviz.epsilon_family(2.0, n=21)], 0)


def test_alt_text_names_the_range_and_the_first_eps() -> None:
    alt = figs.scrub_alt(EPS, 2)
    assert "1e-06 to 10" in alt and "ε = 1/3 first" in alt and "5 values" in alt
