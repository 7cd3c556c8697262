"""lnviz.axes: which entries of a (batch, token, feature) tensor share one statistic."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz

B, T, F = 3, 4, 6


@pytest.fixture(scope="module")
def x() -> np.ndarray:
    return np.random.default_rng(7).standard_normal((B, T, F)) * 2 + 0.5


# scheme -> (number of groups, group size, parameter shape) for (B, T, F) = (3, 4, 6), G = 2
GEOMETRY = {
    "batch": (F, B * T, (F,)),
    "layer": (B * T, F, (F,)),
    "layer_all": (B, T * F, (T, F)),
    "instance": (B * F, T, (F,)),
    "group": (B * 2, T * F // 2, (F,)),
    "rms": (B * T, F, (F,)),
}


def reference(x: np.ndarray, scheme: str, g: int = 2, eps: float = 1e-5) -> np.ndarray:
    """Each scheme through the framework functions (or NumPy for RMS/batch statistics)."""
    if scheme == "layer":
        return lnviz.layer_norm(x, F, eps=eps)
    if scheme == "layer_all":
        return lnviz.layer_norm(x, (T, F), eps=eps)
    if scheme == "rms":
        return lnviz.rms_norm(x, F, eps=eps)
    if scheme == "instance":  # channels = features, positions = tokens
        return lnviz.instance_norm(x.transpose(0, 2, 1), eps=eps).transpose(0, 2, 1)
    if scheme == "group":
        return lnviz.group_norm(x.transpose(0, 2, 1), g, eps=eps).transpose(0, 2, 1)
    assert scheme == "batch"
    return lnviz.batch_norm(x.transpose(0, 2, 1), training=True, eps=eps)[0].transpose(0, 2, 1)


@pytest.mark.parametrize("scheme", lnviz.SCHEMES)
def test_reduce_tensor_geometry_and_values(x, scheme) -> None:
    r = lnviz.reduce_tensor(x, scheme, num_groups=2)
    groups, size, pshape = GEOMETRY[scheme]
    assert r.scheme == scheme
    assert r.group_count == groups
    assert r.group_size == size
    assert r.param_shape == pshape
    assert r.labels.shape == x.shape
    assert r.labels.dtype == np.int64
    np.testing.assert_array_equal(np.bincount(r.labels.ravel()), np.full(groups, size))
    assert r.centered is (scheme != "rms")
    assert (r.reduce_axes, r.param_axes) == lnviz.SCHEME_INFO[scheme][1:]
    np.testing.assert_allclose(r.core, reference(x, scheme), atol=1e-12)
    np.testing.assert_allclose(r.output, r.core, atol=0)  # default gamma 1, beta 0
    assert r.finite
    # each labelled group really has the reported statistics
    for k in range(groups):
        vals = x[r.labels == k]
        if r.centered:
            assert np.isclose(r.mean[k], vals.mean(), atol=1e-13)
            assert np.isclose(r.second[k], vals.var(), atol=1e-12)
        else:
            assert r.mean[k] == 0.0
            assert np.isclose(r.second[k], (vals**2).mean(), atol=1e-12)
        core = r.core[r.labels == k]
        if r.centered:
            assert abs(core.mean()) < 1e-12


def test_labels_follow_the_seed_table() -> None:
    x = np.arange(12.0).reshape(1, 3, 4)
    lab = {s: lnviz.reduce_tensor(x, s, num_groups=2).labels[0] for s in lnviz.SCHEMES}
    np.testing.assert_array_equal(lab["layer"], [[0] * 4, [1] * 4, [2] * 4])  # one row each
    np.testing.assert_array_equal(lab["rms"], lab["layer"])
    np.testing.assert_array_equal(lab["batch"], [[0, 1, 2, 3]] * 3)  # one column each
    np.testing.assert_array_equal(lab["instance"], lab["batch"])  # B = 1: same partition
    np.testing.assert_array_equal(lab["group"], [[0, 0, 1, 1]] * 3)  # feature subgroups
    np.testing.assert_array_equal(lab["layer_all"], np.zeros((3, 4)))


def test_gamma_and_beta_broadcast_over_leading_axes(x) -> None:
    g, b = np.linspace(0.5, 2, F), np.linspace(-1, 1, F)
    for scheme in ("layer", "batch", "group", "rms", "instance"):
        r = lnviz.reduce_tensor(x, scheme, num_groups=3, gamma=g, beta=b)
        np.testing.assert_allclose(r.output, r.core * g + b, atol=1e-15)
    g2, b2 = np.full((T, F), 3.0), np.ones((T, F))
    r = lnviz.reduce_tensor(x, "layer_all", gamma=g2, beta=b2)
    np.testing.assert_allclose(r.output, r.core * 3 + 1, atol=1e-15)
    np.testing.assert_allclose(r.core, lnviz.layer_norm(x, (T, F)), atol=1e-12)


def test_layer_norm_rows_are_independent_of_the_batch(x) -> None:
    r1 = lnviz.reduce_tensor(x, "layer")
    x2 = x.copy()
    x2[1:] *= 100
    r2 = lnviz.reduce_tensor(x2, "layer")
    np.testing.assert_array_equal(r1.core[0], r2.core[0])
    b1, b2 = lnviz.reduce_tensor(x, "batch"), lnviz.reduce_tensor(x2, "batch")
    assert not np.allclose(b1.core[0], b2.core[0])  # batch statistics mix the batch


def test_compare_schemes(x) -> None:
    res = lnviz.compare_schemes(x, num_groups=3, eps=0.1)
    assert tuple(res) == lnviz.SCHEMES
    for scheme, r in res.items():
        assert r.eps == 0.1
        np.testing.assert_array_equal(
            r.core, lnviz.reduce_tensor(x, scheme, num_groups=3, eps=0.1).core
        )
    assert res["group"].num_groups == 3
    assert res["layer"].num_groups == 1


def test_eps_zero_zero_variance_group_not_finite() -> None:
    x = np.random.default_rng(1).standard_normal((2, 3, 4))
    x[1, 2, :] = 5.0  # one token with equal features
    r = lnviz.reduce_tensor(x, "layer", eps=0.0)
    assert not r.finite
    assert np.isnan(r.output[1, 2]).all()
    assert np.isfinite(np.delete(r.output.reshape(6, 4), 5, axis=0)).all()
    assert lnviz.reduce_tensor(x, "layer", eps=1e-5).finite
    assert lnviz.reduce_tensor(x, "batch", eps=0.0).finite  # columns still vary


def test_sample_tensor_reproducible() -> None:
    a = lnviz.sample_tensor((2, 3, 4), seed=5, loc=1.0, scale=2.0)
    assert a.shape == (2, 3, 4)
    np.testing.assert_array_equal(a, lnviz.sample_tensor((2, 3, 4), seed=5, loc=1.0, scale=2.0))
    assert not np.array_equal(a, lnviz.sample_tensor((2, 3, 4), seed=6, loc=1.0, scale=2.0))
    np.testing.assert_array_equal(a, np.round(a, 2))


def test_reduce_tensor_does_not_mutate(x) -> None:
    xc = x.copy()
    x_ro = x.copy()
    x_ro.setflags(write=False)
    r = lnviz.reduce_tensor(x_ro, "group", num_groups=2)
    np.testing.assert_array_equal(x_ro, xc)
    assert not np.shares_memory(r.x, x_ro)


def test_has_statistics_is_what_compare_schemes_keeps() -> None:
    for shape in ((1, 1, 3), (1, 2, 3), (2, 1, 3)):
        kept = set(lnviz.compare_schemes(np.ones(shape) + np.arange(3.0)))
        assert kept == {s for s in lnviz.SCHEMES if lnviz.axes.has_statistics(s, shape)}
