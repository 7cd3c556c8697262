"""The invariance page's live frames: each is what scale_figure draws at that a."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import pytest

from lnviz.lessons import explorers, symmetry
from lnviz.lessons.invariance import figures as figs
from lnviz.lessons.invariance.live import scale_grid
from lnviz.lessons.invariance.live_figures import scale_frames
from tests.apptest_helpers import values

A = (0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0)


@pytest.mark.parametrize("eps", [0.0, 1 / 3])
def test_each_frame_is_what_the_builder_draws(eps: float) -> None:
    z = np.array([1.0, 2.0, 4.0])
    chart = scale_frames(scale_grid(z, eps, A))
    assert chart["key"] == "scale" and chart["traces"] == [1, 2]
    for k, a in enumerate(A):
        sym = symmetry.scale(z, a, eps)
        fig = json.loads(
            pio.to_json(
                figs.SCALE.figure(sym, explorers.scaling_check(z, eps, a).scaling), validate=False
            )
        )
        for d in chart["data"]:
            want = fig["data"][d["trace"]][d["attr"]]
            got = d["values"][k]
            if d["attr"] == "name":
                assert got == want
            else:
                np.testing.assert_allclose(got, values(want), rtol=1e-9, atol=1e-12)
        (title,) = chart["layout"]
        assert title["path"] == "title.text"
        got_title, want_title = title["values"][k], fig["layout"]["title"]["text"]
        head, _, got_num = got_title.rpartition(" ")
        assert want_title.startswith(head)  # the same a; the change equal up to rounding:
        want_num = want_title.rpartition(" ")[2]
        assert float(got_num.replace("−", "-")) == pytest.approx(
            float(want_num.replace("−", "-")), rel=1e-2, abs=1e-12
        )
