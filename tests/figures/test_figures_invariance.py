"""Invariance's figures: figure data equals engine data; alt text names the key values."""

from __future__ import annotations

import numpy as np

from lnviz import affine_redundancy, scaling_identity
from lnviz.lessons.invariance import figures as figs
from lnviz.lessons.symmetry import common_shift, scale, seeded_layer, split_shift, unequal_shift


def by_name(fig, start: str):
    return next(t for t in fig.data if t.name.startswith(start))


def test_pair_figure_draws_both_normalizations() -> None:
    sym = unequal_shift([1, 2, 3], [0, 0, 1], 1 / 3)
    fig = figs.pair_figure(sym)
    np.testing.assert_allclose(by_name(fig, "u_ε(z)").y, sym.ln, atol=1e-6)
    np.testing.assert_allclose(by_name(fig, "u_ε(z + s)").y, sym.ln_moved, atol=1e-6)
    rms = figs.pair_figure(sym, norm="rms")
    np.testing.assert_allclose(by_name(rms, "rms_ε(z + s)").y, sym.rms_moved, atol=1e-6)
    alt = figs.pair_alt(sym)
    assert "(1, 2, 3)" in alt and "(−0.9701, −0.2425, 1.213)" in alt and "0.2425" in alt


def test_common_shift_pair_has_identical_bars() -> None:
    sym = common_shift([1, 2, 3], 100, 1 / 3)
    fig = figs.pair_figure(sym)
    assert list(fig.data[0].y) == list(fig.data[1].y) == [-1, 0, 1]
    assert "largest change 0" in fig.layout.title.text
    # The bars do not show the shift, so the alt text does not either: moving c then
    # leaves the chart's identity alone and the browser keeps the drawn chart.
    assert figs.pair_alt(sym) == figs.pair_alt(common_shift([1, 2, 3], -7, 1 / 3))


def test_scale_figure_shows_identity_crosses() -> None:
    sym, ident = scale([1, 2, 3], 10, 1 / 3), scaling_identity([1, 2, 3], 1 / 3, 10)
    fig = figs.scale_figure(sym, ident)
    np.testing.assert_allclose(by_name(fig, "u_ε(a·z)").y, ident.core_az, atol=1e-6)
    np.testing.assert_allclose(by_name(fig, "u_(ε/a²)").y, ident.core_rescaled_eps, atol=1e-6)
    assert "0.2217" in figs.scale_alt(sym, ident)
    # one notation for the core at ε/a²: never "u_ε/a²", which reads as u_ε divided by a²
    assert "u_ε/a²" not in fig.to_json() + figs.scale_alt(sym, ident)


def test_contrast_figure_values_and_alt() -> None:
    shift, scaled = common_shift([1, 2, 3], 100, 1 / 3), scale([1, 2, 3], 10, 1 / 3)
    fig = figs.contrast_figure(shift, scaled)
    np.testing.assert_allclose(
        by_name(fig, "layer norm").y, [shift.ln_change, scaled.ln_change], atol=1e-7
    )
    np.testing.assert_allclose(
        by_name(fig, "RMS norm").y, [shift.rms_change, scaled.rms_change], atol=1e-7
    )
    alt = figs.contrast_alt(shift, scaled)
    assert "c = 100" in alt and "a = 10" in alt and "layer norm 0," in alt


def test_redundancy_figure_plots_every_output() -> None:
    layer = seeded_layer(0)
    r, dx = np.array([1.0, -2.0, 0.5]), np.array([1.0, 0.0, 0.0])
    red = affine_redundancy(layer.w, layer.b, layer.xs, c=5.0, r=r, s=dx, eps=1 / 3)
    fig = figs.redundancy_figure(red, 5.0, r, dx)
    for start, field in (
        ("b + c", "bias_shift"),
        ("W + 1rᵀ", "weight_shift"),
        ("x + Δx", "input_shift"),
    ):
        t = by_name(fig, start)
        np.testing.assert_allclose(t.x, red.base.ravel(), atol=1e-6)
        np.testing.assert_allclose(t.y, getattr(red, field).ravel(), atol=1e-6)
    assert by_name(fig, "b + c").name == "b + c, c = 5"
    alt = figs.redundancy_alt(red, 5.0, r, dx)
    assert (
        "20 layer-norm outputs" in alt and "c = 5" in alt and "W Δx = (0.1, 0.1, 1.3, −1.3)" in alt
    )


def test_ws_figure_marks_the_removed_common_part() -> None:
    split = split_shift([0.1, 0.1, 1.3, -1.3])
    fig = figs.ws_figure(split)
    np.testing.assert_allclose(by_name(fig, "W Δx").y, split.s)
    np.testing.assert_allclose(by_name(fig, "common part").y, [split.c, split.c])
    assert "0.05" in figs.ws_alt(split)
    assert "a common shift" in figs.ws_alt(split_shift([2.0, 2.0]))


def test_both_scaling_charts_open_their_alt_text_alike() -> None:
    """The invariance page's scaling chart and the epsilon page's draw the same bars
    (scaling_traces); for one input their alt texts describe them in the same words."""
    from lnviz.lessons.epsilon import figures as epsilon

    sym, ident = scale([1, 2, 3], 10, 1 / 3), scaling_identity([1, 2, 3], 1 / 3, 10)
    opening = figs.scaling_text(ident.core_z, ident.core_az, ident.a, ident.eps)
    assert opening == (
        "Grouped bars of u_ε(z) = (−1, 0, 1) and u_ε(a·z) = (−1.222, 0, 1.222) "
        "for a = 10, ε = 0.3333;"
    )
    assert epsilon.scaling_alt(ident).startswith(opening + " they differ by up to ")
    assert figs.scale_alt(sym, ident).startswith(opening + " the largest change is ")
