"""lnviz.figures.affine: figure data equals engine data; alt text names the key values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lnviz import affine_stages
from lnviz.figures import affine as figs

TOY = affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], eps=0.0)  # the seed's eps = 0 toy


def bars(fig) -> dict:
    return next(t for t in fig.data if t.type == "bar")


@pytest.mark.parametrize(
    ("x", "form"),
    [
        (1 / 3, "1/3"),
        (11 / 9, "11/9"),
        (2.0, "2"),
        (0.0, "0"),
        (1e-17, "0"),
        (math.sqrt(1.5), "√(3/2)"),
        (-math.sqrt(1.5), "−√(3/2)"),
        (1 / math.sqrt(2), "1/√2"),
        (-4 / math.sqrt(17), "−4/√17"),
        (math.sqrt(3), "√3"),
        (math.sqrt(3) / 2, "√3/2"),
        (math.pi, None),
        (0.123456789, None),
        (float("nan"), None),
        (float("inf"), None),
    ],
)
def test_exact_forms(x: float, form: str | None) -> None:
    assert figs.exact(x) == form


def test_exact_vec_only_when_it_adds_something() -> None:
    assert figs.exact_vec(TOY.core.values) == "(−√(3/2), 0, √(3/2))"
    assert figs.exact_vec(TOY.output.values) == "(−√(3/2), 1, √(3/2))"
    assert figs.exact_vec(np.array([1.0, 2.0, 3.0])) is None
    assert figs.exact_vec(np.array([0.5, math.pi])) is None


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
