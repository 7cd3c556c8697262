"""Layer norm's backward pass, its sphere, QK-norm and selectable keys, and the tanh fit
(lnviz.lessons: ln_backward, sphere, qk_attention, tanh_fit)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lnviz import layer_norm
from lnviz.errors import LnvizError
from lnviz.lessons.transformer import (
    attention_scan,
    hidden_key_example,
    layer_norm_backward,
    plane_basis,
    sample_tokens,
    selectable_keys,
    sphere_view,
    tanh_fit,
)
from tests.conftest import require_module

pytestmark = pytest.mark.torch

FINITE = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@pytest.fixture(scope="module")
def torch():
    return require_module("torch")


# --- the backward pass through layer norm ------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("eps", [0.0, 1e-5, 0.5])
def test_layer_norm_backward_matches_torch(torch, seed, eps) -> None:
    rng = np.random.default_rng(seed)
    T, d = 1 + seed, 3 + 2 * seed
    x = rng.normal(size=(T, d)) * rng.uniform(0.1, 3)
    g = rng.normal(size=(T, d))
    gamma = rng.normal(size=d)
    r = layer_norm_backward(x, g, gamma, eps=eps)
    xt = torch.tensor(x, requires_grad=True)
    wt = torch.tensor(gamma, requires_grad=True)
    bt = torch.zeros(d, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.layer_norm(xt, [d], wt, bt, eps=eps)
    (y * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(r.grad_x, xt.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(r.grad_gamma, wt.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(r.grad_beta, bt.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.x_hat * gamma, y.detach().numpy(), rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    x=arrays(np.float64, (3, 5), elements=FINITE),
    g=arrays(np.float64, (3, 5), elements=FINITE),
    eps=st.sampled_from([0.0, 1e-5, 0.1, 2.0]),
)
def test_input_gradient_has_mean_zero_and_keeps_eps_over_q_plus_eps_along_x_hat(x, g, eps):
    q = x.var(axis=1)
    if eps == 0.0 and (q < 1e-6).any():
        return
    r = layer_norm_backward(x, g, eps=eps)
    scale = (1.0 + np.abs(g).max()) / r.sigma.min()  # bounds |grad_x| up to a factor d
    assert np.abs(r.grad_mean).max() <= 1e-12 * scale
    np.testing.assert_allclose(r.along_x_hat, r.predicted_along, rtol=1e-7, atol=1e-11 * scale)
    if eps == 0.0:  # orthogonal to x_hat exactly (up to rounding)
        assert np.abs(r.along_x_hat).max() <= 1e-11 * scale


def test_with_eps_the_radial_part_is_kept_not_removed() -> None:
    x = np.array([[0.0, 0.1, 0.3]])  # q ~ 0.016, comparable to eps
    g = np.array([[1.0, -2.0, 0.5]])
    r = layer_norm_backward(x, g, eps=0.01)
    assert abs(r.along_x_hat[0]) > 0.1  # far from orthogonal
    assert r.kept_fraction[0] == pytest.approx(0.01 / (r.q[0] + 0.01))
    assert not r.radial_removed


# --- the sphere --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    z=arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(3, 7)), elements=FINITE),
    eps=st.sampled_from([0.0, 1e-5, 0.3, 5.0]),
)
def test_layer_norm_outputs_lie_on_the_stated_sphere(z, eps) -> None:
    q = z.var(axis=1)
    if eps == 0.0 and (q < 1e-9).any():
        return
    v = sphere_view(z, eps)
    d = z.shape[1]
    np.testing.assert_allclose(v.q, q, rtol=1e-9, atol=1e-12 * (1 + np.abs(z).max()) ** 2)
    # the radius from the engine's own q (exactly 0 for a constant token, where z.var() may
    # round to 1e-30): sqrt(d q / (q + eps))
    np.testing.assert_allclose(v.radius, np.sqrt(d * v.q / (v.q + eps)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(v.radius, v.predicted_radius, rtol=1e-9, atol=1e-12)
    assert (v.radius <= np.sqrt(d) * (1 + 1e-12)).all()
    assert np.abs(v.core.sum(axis=1)).max() <= 1e-9 * np.sqrt(d)  # in the plane orthogonal to 1
    np.testing.assert_allclose(v.core, layer_norm(z, d, eps=eps), rtol=1e-9, atol=1e-12)
    if eps == 0.0:
        np.testing.assert_allclose(v.radius, np.sqrt(d), rtol=1e-9)


def test_gain_maps_the_circle_into_the_axis_aligned_ellipsoid_about_beta() -> None:
    gamma, beta = np.array([2.0, 0.5, 1.0]), np.array([1.0, 0.0, -1.0])
    v = sphere_view(sample_tokens(30, 3, seed=2), 0.0, gamma, beta)
    # every output satisfies sum(((y - beta) / gamma)^2) = d: it lies on that ellipsoid, whose
    # cut by the tilted plane through beta is the image ellipse (other semi-axes)
    np.testing.assert_allclose((((v.output - beta) / gamma) ** 2).sum(axis=1), 3.0, rtol=1e-9)
    np.testing.assert_allclose((((v.ellipse - beta) / gamma) ** 2).sum(axis=1), 3.0, rtol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(v.circle, axis=1), np.sqrt(3))
    assert not np.allclose(v.semi_axes, np.sort(np.sqrt(3) * np.abs(gamma))[::-1][:2])


@settings(max_examples=60, deadline=None)
@given(gamma=arrays(np.float64, 3, elements=st.floats(-5, 5, allow_nan=False)))
def test_image_semi_axes_are_the_farthest_and_nearest_points_of_the_drawn_curve(gamma) -> None:
    """d = 3: the image of the circle is an ellipse (or segment, or point) about beta whose
    semi-axes are its largest and smallest distances from beta. (Gains between 0 and 1e-6
    are left to test_degenerate_gains: there the sampled curve's rank, with its own
    tolerance, cannot tell a 1e-12 ellipse from a point, as the engine's exact rule does.)"""
    assume(all(g == 0 or abs(g) >= 1e-6 for g in gamma))
    beta = np.array([0.5, -1.0, 2.0])
    v = sphere_view(sample_tokens(5, 3, seed=0), 0.0, gamma, beta, n_circle=2001)
    dist = np.linalg.norm(v.ellipse - beta, axis=1)  # (K,)
    scale = 1e-6 + 1e-2 * float(np.abs(gamma).max())  # the curve is sampled, not exact
    assert v.semi_axes.shape == (2,)
    assert abs(dist.max() - v.semi_axes[0]) <= scale
    assert abs(dist.min() - v.semi_axes[1]) <= scale
    spread = np.linalg.matrix_rank(v.ellipse - beta, tol=1e-9 * (1 + dist.max()))
    assert v.image_rank == spread  # 2: an ellipse, 1: a segment, 0: the point beta


@pytest.mark.parametrize(
    ("gamma", "rank", "axes"),
    [
        ((3.0, 0.0, 0.0), 1, (3 * np.sqrt(2), 0.0)),  # a segment, not an ellipse
        ((0.0, 0.0, 0.0), 0, (0.0, 0.0)),  # the point beta
        ((-2.0, 2.0, 2.0), 2, (2 * np.sqrt(3), 2 * np.sqrt(3))),  # |gamma_i| equal: a circle
        ((1.0, 1.0, 0.0), 2, (np.sqrt(3), 1.0)),  # one zero entry can still leave an ellipse
    ],
)
def test_degenerate_gains(gamma, rank, axes) -> None:
    v = sphere_view(sample_tokens(5, 3, seed=0), 1e-5, gamma)
    assert v.image_rank == rank
    np.testing.assert_allclose(v.semi_axes, axes, atol=1e-12)
    shape = {0: "point", 1: "segment"}.get(rank, "circle" if axes[0] == axes[1] else "ellipse")
    assert v.image_shape == shape


@settings(max_examples=40, deadline=None)
@given(d=st.integers(3, 40), seed=st.integers(0, 2**16))
def test_semi_axes_squared_add_up_to_the_gain_on_the_plane(d, seed) -> None:
    """(d - 1) semi-axes a_k with sum a_k^2 = d * trace(P diag(gamma^2)) = (d - 1) sum gamma_i^2."""
    gamma = np.random.default_rng(seed).normal(size=d)  # (d,)
    v = sphere_view(sample_tokens(4, d, seed=0), 1e-5, gamma)
    assert v.semi_axes.shape == (d - 1,)
    assert (np.diff(v.semi_axes) <= 1e-12).all()
    np.testing.assert_allclose((v.semi_axes**2).sum(), (d - 1) * (gamma**2).sum(), rtol=1e-9)


def test_projection_onto_the_plane_equals_centring() -> None:
    z = sample_tokens(20, 6, seed=3)
    v = sphere_view(z, 1e-5)
    np.testing.assert_allclose(v.plane_input, v.centred @ plane_basis(6), atol=1e-12)
    w = sphere_view(sample_tokens(200, 3, seed=0), eps=0.1)
    assert w.pulled_in.any() and not w.pulled_in.all()


# --- attention, QK-norm and selectable keys ----------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    q=arrays(np.float64, 3, elements=FINITE),
    keys=arrays(np.float64, st.tuples(st.integers(1, 6), st.just(3)), elements=FINITE),
    scales=st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=6),
    tau=st.floats(0.01, 100.0),
    how=st.sampled_from(["layer", "rms"]),
)
def test_qk_norm_bounds_logits_and_weights_sum_to_one(q, keys, scales, tau, how) -> None:
    a = attention_scan(q, keys, scales, qk_norm=how, tau=tau, eps=1e-5)
    assert a.logit_bound == pytest.approx(tau * np.sqrt(3))
    assert (a.max_abs_logit <= a.logit_bound * (1 + 1e-12)).all()
    np.testing.assert_allclose(a.weights.sum(axis=1), 1.0, rtol=1e-12)
    assert ((a.entropy >= -1e-12) & (a.entropy <= a.max_entropy + 1e-12)).all()
    raw = attention_scan(q, keys, scales)
    np.testing.assert_allclose(raw.weights.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(
        raw.logits, np.outer(raw.scales, keys @ q) / np.sqrt(3), rtol=1e-9, atol=1e-9
    )


def test_without_qk_norm_logits_grow_and_attention_collapses() -> None:
    q, k = hidden_key_example()
    scales = [0.25, 1, 4, 16, 64, 256, 1000]
    raw = attention_scan(q, k, scales)
    normed = attention_scan(q, k, scales, qk_norm="layer", tau=2.0)
    assert np.all(np.diff(raw.max_abs_logit) > 0) and raw.max_abs_logit[-1] > 100
    assert raw.entropy[-1] < 1e-6 < raw.entropy[0]
    assert normed.max_abs_logit.max() <= 2 * np.sqrt(3) + 1e-12
    assert np.ptp(normed.entropy) < 1e-3  # the growth of q and k no longer matters
    assert set(raw.weights.argmax(axis=1)) == {0}  # the hidden key 3 never wins raw
    assert set(normed.weights.argmax(axis=1)) == {3}  # and wins with QK-norm


def test_hidden_key_is_selectable_only_after_layer_norm() -> None:
    _, k = hidden_key_example()
    raw = selectable_keys(k[:, :2])
    ln = selectable_keys(k, layer_norm=True)
    assert raw.selectable.tolist() == [True, True, True, False]
    assert ln.selectable.all()
    # each witness really selects its key, strictly
    for sel in (raw, ln):
        for j in np.flatnonzero(sel.selectable):
            scores = sel.points @ sel.witness[j]
            assert scores[j] > np.delete(scores, j).max() + 1e-9
        assert sel.share.sum() == pytest.approx(1.0)
    # raw 3-D keys: no sampled query direction selects the hidden key either
    dirs = np.random.default_rng(0).normal(size=(20000, 3))
    assert 3 not in set((dirs @ k.T).argmax(axis=1))


@settings(max_examples=60, deadline=None)
@given(angles=st.lists(st.floats(0, 2 * np.pi), min_size=2, max_size=10, unique=True))
def test_keys_on_a_circle_are_all_selectable_and_an_inside_key_never(angles) -> None:
    a = np.sort(np.array(angles))
    if np.diff(np.r_[a, a[0] + 2 * np.pi]).min() < 1e-3:
        return
    pts = np.c_[np.cos(a), np.sin(a)] * 2.0
    assert selectable_keys(pts).selectable.all()
    inside = np.vstack([pts, pts.mean(axis=0)])
    assert not selectable_keys(inside).selectable[-1]


def test_eps_can_hide_a_low_variance_key_again() -> None:
    keys = np.array([[3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0], [0.02, 0.01, 0.0]])
    assert selectable_keys(keys, layer_norm=True, eps=0.0).selectable.all()
    assert not selectable_keys(keys, layer_norm=True, eps=1.0).selectable[3]


def test_identical_keys_tie_and_neither_is_selectable() -> None:
    keys = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])
    assert selectable_keys(keys).selectable.tolist() == [False, True, False, True]


# --- layer norm against tanh -------------------------------------------------------------


def test_tanh_fit_is_the_least_squares_optimum_and_beats_a_line() -> None:
    f = tanh_fit(tokens=128, width=32, outlier_fraction=0.2, seed=1)
    np.testing.assert_allclose(f.y, layer_norm(f.x, 32, eps=f.eps))
    assert f.r2 > f.linear_r2 + 0.1
    sse = float((f.residual**2).sum())
    for factor in (0.8, 1.25):  # another alpha, with its own best gamma and beta, is worse
        t = np.tanh(factor * f.alpha * f.x.ravel())
        design = np.c_[t, np.ones_like(t)]
        coef, *_ = np.linalg.lstsq(design, f.y.ravel(), rcond=None)
        assert float(((design @ coef - f.y.ravel()) ** 2).sum()) > sse
    t = np.tanh(f.alpha * f.x.ravel())
    coef, *_ = np.linalg.lstsq(np.c_[t, np.ones_like(t)], f.y.ravel(), rcond=None)
    np.testing.assert_allclose([f.gamma, f.beta], coef, rtol=1e-8, atol=1e-10)


def test_outliers_make_the_curve_bend_more() -> None:
    plain = tanh_fit(tokens=256, width=64, outlier_fraction=0.0, seed=0)
    spiky = tanh_fit(tokens=256, width=64, outlier_fraction=0.3, seed=0)
    assert spiky.alpha < plain.alpha  # a wider S: the outliers saturate
    assert spiky.linear_r2 < plain.linear_r2
    assert spiky.outlier.any() and not plain.outlier.any()


# --- errors -----------------------------------------------------------------------------

Q, K = hidden_key_example()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: attention_scan(Q, K, [0.0]), "scales"),
        (lambda: attention_scan(Q, K, [1e4]), "scales"),
        (lambda: attention_scan(Q, K, []), "scales"),
        (lambda: attention_scan(Q, K, "big"), "scales"),
        (lambda: attention_scan(Q, K, [float("inf")]), "scales"),
        (lambda: attention_scan(Q, K, qk_norm="batch"), "qk_norm"),
        (lambda: attention_scan(Q, K, qk_norm="layer", tau=0.0), "tau"),
        (lambda: attention_scan(Q, K, qk_norm="layer", tau=1e3), "tau"),
        (lambda: attention_scan(Q[:2], K), "query"),
        (lambda: attention_scan(Q, np.zeros((17, 3))), "keys"),
        (lambda: attention_scan(Q, np.zeros((2, 3)), qk_norm="layer", eps=0.0), "eps"),
        (lambda: selectable_keys(K), "keys"),
        (lambda: selectable_keys(K[:, :2], layer_norm=True), "keys"),
        (lambda: selectable_keys(np.ones((2, 3)), layer_norm=True), "eps"),
        (lambda: sphere_view(np.zeros((2, 2))), "z"),
        (lambda: sphere_view(np.ones((2, 3)), eps=0.0), "z"),
        (lambda: sphere_view(np.ones((2, 3)), eps=-1.0), "eps"),
        (lambda: sphere_view(np.ones((2, 3)), gamma=[1.0, 2.0]), "gamma"),
        (lambda: sphere_view([[1.0, float("nan"), 2.0]]), "z"),
        (lambda: sample_tokens(0), "n"),
        (lambda: plane_basis(2), "d"),
        (lambda: layer_norm_backward(np.ones((2, 3)), np.ones((2, 4))), "grad_y"),
        (lambda: layer_norm_backward(np.ones((2, 3)), np.ones((2, 3)), eps=0.0), "x"),
        (lambda: tanh_fit(tokens=2000), "tokens"),
        (lambda: tanh_fit(width=2), "width"),
        (lambda: tanh_fit(outlier_fraction=1.5), "outlier_fraction"),
        (lambda: tanh_fit(outlier_scale=0.5), "outlier_scale"),
        (lambda: tanh_fit(eps=2.0), "eps"),
    ],
)
def test_bad_arguments_name_the_field(call, name) -> None:
    with pytest.raises(LnvizError) as err:
        call()
    assert err.value.name == name
