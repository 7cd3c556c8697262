"""Figures of "Inside a transformer" draw the engine's numbers (lessons/transformer/figures.py)."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.lessons.transformer import (
    PLACEMENTS,
    attention_scan,
    compare_placements,
    depth_sweep,
    hidden_key_example,
    sample_tokens,
    selectable_keys,
    sphere_view,
    tanh_fit,
)
from lnviz.lessons.transformer import figures as figs


@pytest.fixture(scope="module")
def cmp():
    return compare_placements(depth=12, width=32, seed=1)


def test_gradient_figure_has_one_log_curve_per_placement(cmp) -> None:
    fig = figs.gradient_figure(cmp)
    assert fig.layout.yaxis.type == "log"
    assert [t.name for t in fig.data] == [figs.NAMES[p] for p in PLACEMENTS]
    for trace, p in zip(fig.data, PLACEMENTS, strict=True):
        np.testing.assert_allclose(trace.y, cmp.run(p).grad_norm, rtol=1e-6)
        assert list(trace.x) == list(range(1, 13))
    alt = figs.gradient_alt(cmp)
    assert "12 blocks" in alt and figs.num(float(cmp.post.grad_norm[-1])) in alt


def test_stream_figure_draws_the_stream_norms_and_sqrt_d(cmp) -> None:
    fig = figs.stream_figure(cmp)
    for trace, p in zip(fig.data, PLACEMENTS, strict=True):
        np.testing.assert_allclose(trace.y, cmp.run(p).stream_norm, rtol=1e-6)
    assert fig.layout.shapes[0].y0 == pytest.approx(np.sqrt(32))
    assert figs.num(float(cmp.pre.stream_norm[-1])) in figs.stream_alt(cmp)


def test_depth_figure_draws_the_sweep() -> None:
    sw = depth_sweep((2, 8), width=16, seed=0)
    fig = figs.depth_figure(sw)
    for trace, p in zip(fig.data, PLACEMENTS, strict=True):
        np.testing.assert_allclose(trace.y, sw.last[p], rtol=1e-6)
    assert "2, 8" in figs.depth_alt(sw)


def test_sphere_figure_in_3d_and_as_a_plane() -> None:
    gamma = np.array([2.0, 1.0, 0.5])
    view = sphere_view(sample_tokens(30, 3, seed=0), 0.1, gamma=gamma)
    fig = figs.sphere_figure(view)
    core = next(t for t in fig.data if t.name.startswith("core"))
    np.testing.assert_allclose(np.c_[core.x, core.y, core.z], view.core, rtol=1e-5, atol=1e-6)
    ellipse = next(t for t in fig.data if "image under γ" in t.name)
    np.testing.assert_allclose(ellipse.x, view.ellipse[:, 0], rtol=1e-5, atol=1e-6)
    assert all(t.type == "scatter3d" for t in fig.data)
    assert f"{int(view.pulled_in.sum())} tokens" in figs.sphere_alt(view)
    wide = sphere_view(sample_tokens(30, 8, seed=0), 0.0)
    flat = figs.sphere_figure(wide)
    assert all(t.type == "scatter" for t in flat.data)
    np.testing.assert_allclose(flat.data[1].x, wide.plane_core[:, 0], rtol=1e-5, atol=1e-6)
    assert "ℝ^8" in figs.sphere_alt(wide)


def test_weights_and_entropy_figures_draw_the_scans() -> None:
    q, k = hidden_key_example()
    s = np.logspace(-1, 3, 9)
    raw, normed = attention_scan(q, k, s), attention_scan(q, k, s, qk_norm="layer", tau=2.0)
    weights = figs.WEIGHTS.figure(raw, normed)  # per key: solid (raw), then dashed (QK-norm)
    np.testing.assert_allclose(weights.data[0].y, raw.weights[:, 0], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(weights.data[7].y, normed.weights[:, 3], rtol=1e-5, atol=1e-7)
    entropy = figs.ENTROPY.figure(raw, normed)
    np.testing.assert_allclose(entropy.data[0].y, raw.entropy, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(entropy.data[1].y, normed.entropy, rtol=1e-5, atol=1e-7)
    assert "k4 gets" in figs.WEIGHTS.alt(raw, normed)
    assert figs.num(float(normed.entropy.min()), 3) in figs.ENTROPY.alt(raw, normed)


def test_keys_figure_marks_the_hidden_key_hollow() -> None:
    _, k = hidden_key_example()
    raw, normed = selectable_keys(k[:, :2]), selectable_keys(k, layer_norm=True)
    assert figs.KEYS.figure(raw).data[-1].marker.color[3] == "rgba(0,0,0,0)"
    assert "rgba(0,0,0,0)" not in figs.KEYS.figure(normed).data[-1].marker.color
    assert figs.KEYS.alt(raw).endswith("(hollow): k4.")
    assert figs.KEYS.alt(normed).endswith("(hollow): none.")


def test_tanh_figure_draws_the_fitted_curve_and_every_outlier() -> None:
    fit = tanh_fit(tokens=128, width=32, outlier_fraction=0.2, seed=0)
    fig = figs.tanh_figure(fit)
    curve = fig.data[-1]
    np.testing.assert_allclose(
        curve.y, fit.gamma * np.tanh(fit.alpha * np.asarray(curve.x)) + fit.beta, rtol=1e-4,
        atol=1e-5,
    )  # fmt: skip
    assert len(fig.data[1].x) == int(fit.outlier.sum())
    assert figs.num(fit.r2, 3) in figs.tanh_alt(fit)
