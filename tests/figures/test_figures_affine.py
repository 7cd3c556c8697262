"""Gain and bias's figures: figure data equals engine data; alt text names the key values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lnviz import affine_stages
from lnviz.content import text
from lnviz.lessons.gain_and_bias import figures as figs

TOY = affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], eps=0.0)  # the untitled note's eps = 0 toy


def bars(fig) -> dict:
    return next(t for t in fig.data if t.type == "bar")


def test_labels_use_closed_forms_where_certain() -> None:
    assert text.exact_vec(TOY.core.values) == "(−√(3/2), 0, √(3/2))"
    assert "mean 0 · variance 1" in figs.stage_figure(TOY, 1).layout.title.text


def test_a_tiny_nonzero_mean_is_never_labelled_0() -> None:
    """z = (1, 2, 4) at ε = 0: the core's mean computes to about 7e-17, not 0."""
    res = affine_stages([1, 2, 4], None, None, eps=0.0)
    assert res.core.mean != 0 and abs(res.core.mean) < 1e-15
    title = figs.stage_figure(res, 1).layout.title.text
    assert "mean 0 ·" not in title and f"mean {text.short(res.core.mean)} ·" in title
    mean_bars = next(t for t in figs.moments_figure(res).data if t.name == "mean")
    assert "0" not in list(mean_bars.text)


@pytest.mark.parametrize("index", range(3))
def test_stage_figure_draws_the_engine_values(index: int) -> None:
    stage = TOY.stages[index]
    fig = figs.stage_figure(TOY, index)
    np.testing.assert_allclose(bars(fig).y, stage.values, atol=1e-6)
    mean_line = next(t for t in fig.data if t.name == "mean")
    np.testing.assert_allclose(mean_line.y, [stage.mean, stage.mean])
    band = fig.layout.shapes[0]
    sd = math.sqrt(stage.var)
    assert band.layer == "below"
    assert (band.y0, band.y1) == pytest.approx((stage.mean - sd, stage.mean + sd))


def test_stage_titles_and_alt_text_carry_the_seed_numbers() -> None:
    assert "mean 1/3 · variance 11/9" in figs.stage_figure(TOY, 2).layout.title.text
    alt = figs.stage_alt(TOY, 2)
    assert "0.3333" in alt and "1.222" in alt and "(1, 2, 1)" in alt and "(0, 1, 0)" in alt
    assert "(−1.225, 1, 1.225)" in alt
    assert "(1, 2, 3)" in figs.stage_alt(TOY, 0)


def test_undefined_stage_is_an_empty_panel_with_a_note() -> None:
    res = affine_stages([2, 2, 2], [1, 2, 1], [0, 1, 0], eps=0.0)
    assert not res.defined
    fig = figs.stage_figure(res, 1)
    assert not fig.data
    assert "undefined" in fig.layout.annotations[0].text
    assert "undefined" in figs.stage_alt(res, 2)
    assert len(figs.stage_figure(res, 0).data) == 2  # the input is still drawn


def test_moments_figure_matches_engine_and_alt() -> None:
    fig = figs.moments_figure(TOY)
    mean = next(t for t in fig.data if t.name == "mean")
    var = next(t for t in fig.data if t.name == "variance")
    np.testing.assert_allclose(mean.y, [TOY.core.mean, TOY.output.mean], atol=1e-7)
    np.testing.assert_allclose(var.y, [TOY.core.var, TOY.output.var], atol=1e-7)
    assert list(var.text) == ["1", "11/9"]
    alt = figs.moments_alt(TOY)
    assert "mean 0.3333" in alt and "variance 1.222" in alt
