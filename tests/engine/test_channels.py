"""group_norm, instance_norm and batch_norm against NumPy references (torch: test_torch_parity)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz


def _expand(p: np.ndarray, ndim: int) -> np.ndarray:
    return np.asarray(p, dtype=np.float64).reshape((-1,) + (1,) * (ndim - 2))


def ref_group_norm(x, g, weight=None, bias=None, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    xg = x.reshape(x.shape[0], g, -1)
    y = (xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + eps)
    y = y.reshape(x.shape)
    if weight is not None:
        y = y * _expand(weight, x.ndim)
    if bias is not None:
        y = y + _expand(bias, x.ndim)
    return y


def ref_instance_norm(x, weight=None, bias=None, eps=1e-5):
    return ref_group_norm(x, x.shape[1], weight, bias, eps)


def ref_batch_stats(x):
    x = np.asarray(x, dtype=np.float64)
    axes = (0, *range(2, x.ndim))
    m = x.size // x.shape[1]
    return x.mean(axis=axes), x.var(axis=axes), m


CHANNEL_CASES = [
    # (x shape, num_groups)
    ((2, 4), 2),
    ((3, 6, 5), 3),
    ((2, 6, 5), 1),
    ((2, 6, 5), 6),
    ((1, 4, 3, 2), 2),
    ((2, 8, 2, 2, 3), 4),
]


@pytest.mark.parametrize(("shape", "groups"), CHANNEL_CASES)
@pytest.mark.parametrize("affine", [False, True])
def test_group_norm_matches_reference(shape, groups, affine) -> None:
    rng = np.random.default_rng(sum(shape) * 7 + groups)
    x = rng.standard_normal(shape) * 2 - 1
    c = shape[1]
    w = rng.standard_normal(c) if affine else None
    b = rng.standard_normal(c) if affine else None
    for eps in (1e-5, 0.7):
        y = lnviz.group_norm(x, groups, w, b, eps)
        assert y.shape == x.shape
        np.testing.assert_allclose(y, ref_group_norm(x, groups, w, b, eps), atol=1e-12)


def test_group_norm_extremes_equal_layer_and_instance_norm() -> None:
    x = np.random.default_rng(0).standard_normal((3, 4, 5))
    # one group: layer norm over (C, L); C groups: instance norm
    np.testing.assert_allclose(lnviz.group_norm(x, 1), lnviz.layer_norm(x, (4, 5)), atol=1e-13)
    np.testing.assert_allclose(lnviz.group_norm(x, 4), lnviz.instance_norm(x), atol=1e-13)


@pytest.mark.parametrize("shape", [s for s, _ in CHANNEL_CASES if len(s) >= 3])
@pytest.mark.parametrize("affine", [False, True])
def test_instance_norm_matches_reference(shape, affine) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape) + 3
    c = shape[1]
    w = rng.standard_normal(c) if affine else None
    b = rng.standard_normal(c) if affine else None
    np.testing.assert_allclose(
        lnviz.instance_norm(x, w, b, 1e-3), ref_instance_norm(x, w, b, 1e-3), atol=1e-12
    )


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (3, 2, 2, 2)])
@pytest.mark.parametrize("momentum", [0.0, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("affine", [False, True])
def test_batch_norm_training(shape, momentum, affine) -> None:
    rng = np.random.default_rng(sum(shape) + int(10 * momentum))
    x = rng.standard_normal(shape) * 1.5 + 0.3
    c = shape[1]
    rm0, rv0 = rng.standard_normal(c), rng.uniform(0.5, 2, c)
    w = rng.standard_normal(c) if affine else None
    b = rng.standard_normal(c) if affine else None
    y, rm, rv = lnviz.batch_norm(x, rm0, rv0, w, b, training=True, momentum=momentum, eps=1e-4)
    mean, var, m = ref_batch_stats(x)
    yref = (x - _expand(mean, x.ndim)) / np.sqrt(_expand(var, x.ndim) + 1e-4)  # population
    if affine:
        yref = yref * _expand(w, x.ndim) + _expand(b, x.ndim)
    np.testing.assert_allclose(y, yref, atol=1e-12)
    np.testing.assert_allclose(rm, (1 - momentum) * rm0 + momentum * mean, atol=1e-14)
    unbiased = var * m / (m - 1)
    np.testing.assert_allclose(rv, (1 - momentum) * rv0 + momentum * unbiased, atol=1e-14)
    if momentum > 0:  # the running variance uses divisor m - 1, not m
        assert not np.allclose(rv, (1 - momentum) * rv0 + momentum * var, atol=1e-6)


def test_batch_norm_training_without_running_stats() -> None:
    x = np.array([[1.0, 10.0], [3.0, 20.0], [5.0, 60.0]])
    y, rm, rv = lnviz.batch_norm(x, training=True, eps=0.0)
    assert rm is None
    assert rv is None
    np.testing.assert_allclose(y[:, 0], [-math.sqrt(1.5), 0.0, math.sqrt(1.5)], atol=1e-15)
    np.testing.assert_allclose(y.mean(axis=0), 0.0, atol=1e-15)
    np.testing.assert_allclose(y.var(axis=0), 1.0, atol=1e-14)


def test_batch_norm_docstring_numbers() -> None:
    y, rm, rv = lnviz.batch_norm([[1.0], [3.0]], [0.0], [1.0], training=True, eps=0.0)
    np.testing.assert_allclose(y, [[-1.0], [1.0]])
    np.testing.assert_allclose(rm, [0.2])  # 0.9 * 0 + 0.1 * 2
    np.testing.assert_allclose(rv, [1.1])  # 0.9 * 1 + 0.1 * 2 (unbiased variance of 1, 3)


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)])
@pytest.mark.parametrize("affine", [False, True])
def test_batch_norm_eval_uses_running_stats(shape, affine) -> None:
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape)
    c = shape[1]
    rm0, rv0 = rng.standard_normal(c), rng.uniform(0.5, 2, c)
    w = rng.standard_normal(c) if affine else None
    b = rng.standard_normal(c) if affine else None
    y, rm, rv = lnviz.batch_norm(x, rm0, rv0, w, b, training=False, eps=1e-3)
    yref = (x - _expand(rm0, x.ndim)) / np.sqrt(_expand(rv0, x.ndim) + 1e-3)
    if affine:
        yref = yref * _expand(w, x.ndim) + _expand(b, x.ndim)
    np.testing.assert_allclose(y, yref, atol=1e-13)
    np.testing.assert_array_equal(rm, rm0)  # unchanged in evaluation
    np.testing.assert_array_equal(rv, rv0)
    # the result's statistics are independent of the batch: one example gives the same row
    y1, _, _ = lnviz.batch_norm(x[:1], rm0, rv0, w, b, training=False, eps=1e-3)
    np.testing.assert_allclose(y1, y[:1], atol=1e-15)


@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_norm_purity(training, dtype) -> None:
    rng = np.random.default_rng(9)
    args = [
        rng.standard_normal((4, 3, 2)).astype(dtype),
        rng.standard_normal(3).astype(dtype),
        rng.uniform(0.5, 1.5, 3).astype(dtype),
        rng.standard_normal(3).astype(dtype),
        rng.standard_normal(3).astype(dtype),
    ]
    copies = [a.copy() for a in args]
    for a in args:
        a.setflags(write=False)
    y, rm, rv = lnviz.batch_norm(*args, training=training)
    for a, c in zip(args, copies, strict=True):
        np.testing.assert_array_equal(a, c)
    for out in (y, rm, rv):
        assert out.dtype == dtype
        assert out.flags.writeable
        assert not any(np.shares_memory(out, a) for a in args)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_channel_norms_preserve_dtype_and_do_not_mutate(dtype) -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 4, 3)).astype(dtype)
    w, b = np.linspace(0.5, 2, 4).astype(dtype), np.linspace(-1, 1, 4).astype(dtype)
    copies = [a.copy() for a in (x, w, b)]
    for a in (x, w, b):
        a.setflags(write=False)
    tol = {np.float16: 5e-3, np.float32: 2e-6, np.float64: 1e-13}[dtype]
    gn = lnviz.group_norm(x, 2, w, b)
    inn = lnviz.instance_norm(x, w, b)
    for y, ref in ((gn, ref_group_norm(x, 2, w, b)), (inn, ref_instance_norm(x, w, b))):
        assert y.dtype == dtype
        assert not np.shares_memory(y, x)
        np.testing.assert_allclose(y.astype(np.float64), ref, rtol=tol, atol=tol)
    for a, c in zip((x, w, b), copies, strict=True):
        np.testing.assert_array_equal(a, c)


def test_eps_zero_zero_variance_groups_exactly_where_expected() -> None:
    x = np.array([[[4.0, 4.0], [1.0, 2.0]], [[4.0, 4.0], [3.0, 5.0]]])  # (N=2, C=2, L=2)
    inn = lnviz.instance_norm(x, bias=[0.5, 0.0], eps=0.0)
    np.testing.assert_array_equal(inn[:, 0], 0.5)  # torch's convention: 0, then the bias
    assert np.isfinite(inn[:, 1]).all()
    bn, _, _ = lnviz.batch_norm(x, training=True, eps=0.0)
    assert np.isnan(bn[:, 0]).all()  # 0/0 (torch refuses eps = 0 in training)
    assert np.isfinite(bn[:, 1]).all()
    gn = lnviz.group_norm(x, 2, eps=0.0)  # the same groups as instance norm here
    assert np.isnan(gn[:, 0]).all()  # 0/0, as torch's group_norm
    assert np.isfinite(gn[:, 1]).all()
    assert np.isfinite(lnviz.group_norm(x, 1, eps=0.0)).all()  # groups with spread are fine
    # with eps > 0 the constant channel is mapped to exactly 0
    np.testing.assert_array_equal(lnviz.instance_norm(x, eps=1e-5)[:, 0], 0.0)
