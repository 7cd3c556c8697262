"""Parity with torch.nn.functional (CPU): same semantics, dtypes, defaults and running stats.

torch comes through conftest.require_module: skipped on a machine without it, a failure in CI.
"""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from tests.conftest import require_module

pytestmark = pytest.mark.torch

DTYPES = [np.float32, np.float64]
TOL = {np.float16: 4e-3, np.float32: 2e-5, np.float64: 1e-12}
SEEDS = range(6)


@pytest.fixture(scope="module")
def torch():
    return require_module("torch")


@pytest.fixture(scope="module")
def F(torch):
    return torch.nn.functional


def _t(torch, a):
    return None if a is None else torch.from_numpy(np.array(a, copy=True))


def _check(out: np.ndarray, ref, dtype) -> None:
    ref = ref.detach().numpy()
    assert out.dtype == dtype
    assert out.shape == ref.shape
    tol = TOL[dtype]
    np.testing.assert_allclose(out.astype(np.float64), ref.astype(np.float64), rtol=tol, atol=tol)


def _random_shape(rng: np.random.Generator, ndim: int, lo: int = 1, hi: int = 6) -> tuple:
    return tuple(int(n) for n in rng.integers(lo, hi, ndim))


def _case(seed: int, dtype, ndim_lo: int = 1, ndim_hi: int = 4):
    rng = np.random.default_rng(1000 + seed)
    shape = _random_shape(rng, int(rng.integers(ndim_lo, ndim_hi + 1)))
    x = (rng.standard_normal(shape) * rng.uniform(0.5, 3) + rng.uniform(-2, 2)).astype(dtype)
    return rng, x


def each_case(test):
    """Parametrize a test over every seed, both dtypes, and with and without weight and bias."""
    for name, values in (("affine", [False, True]), ("dtype", DTYPES), ("seed", SEEDS)):
        test = pytest.mark.parametrize(name, values)(test)
    return test


def _affine(rng: np.random.Generator, shape, dtype, affine: bool) -> tuple:
    """Random weight and bias of `shape` (drawn in that order), or (None, None)."""
    if not affine:
        return None, None
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)


def _purity(args, fn):
    """Run fn(*args) with read-only arguments and check they are unchanged."""
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    copies = [a.copy() for a in arrays]
    for a in arrays:
        a.setflags(write=False)
    out = fn(*args)
    for a, c in zip(arrays, copies, strict=True):
        np.testing.assert_array_equal(a, c)
    return out


@each_case
def test_layer_norm(torch, F, seed, dtype, affine) -> None:
    rng, x = _case(seed, dtype)
    k = int(rng.integers(1, x.ndim + 1))
    nshape = x.shape[x.ndim - k :]
    w, b = _affine(rng, nshape, dtype, affine)
    eps = float(rng.choice([1e-5, 1e-3, 0.5]))
    out = _purity([x, w, b], lambda x, w, b: lnviz.layer_norm(x, nshape, w, b, eps))
    ref = F.layer_norm(_t(torch, x), list(nshape), _t(torch, w), _t(torch, b), eps)
    _check(out, ref, dtype)


@each_case
@pytest.mark.parametrize("eps", [None, 1e-6, 0.25])
def test_rms_norm(torch, F, seed, dtype, affine, eps) -> None:
    rng, x = _case(seed, dtype)
    if eps is None:
        x = (x * 1e-4).astype(dtype)  # mean square near float32's eps: the default matters
    k = int(rng.integers(1, x.ndim + 1))
    nshape = x.shape[x.ndim - k :]
    w = rng.standard_normal(nshape).astype(dtype) if affine else None
    out = _purity([x, w], lambda x, w: lnviz.rms_norm(x, nshape, w, eps))
    ref = F.rms_norm(_t(torch, x), list(nshape), _t(torch, w), eps)
    _check(out, ref, dtype)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_rms_norm_default_eps_is_torchs(torch, F, dtype) -> None:
    """eps=None: machine eps of float32 for float16/float32 input, of float64 for float64."""
    x = np.array([[1e-4, -2e-4, 1.5e-4, 0.5e-4]], dtype=dtype)
    expected_eps = float(torch.finfo(torch.float64 if dtype == np.float64 else torch.float32).eps)
    assert lnviz.default_rms_eps(np.dtype(dtype)) == expected_eps
    ours = lnviz.rms_norm(x, 4)
    theirs = F.rms_norm(_t(torch, x), [4]).numpy()
    _check(ours, torch.from_numpy(theirs), dtype)
    # and it is not the other dtype's eps: the choice is visible at this magnitude
    other = float(np.finfo(np.float32 if dtype == np.float64 else np.float64).eps)
    wrong = lnviz.rms_norm(x.astype(np.float64), 4, eps=other)
    assert np.abs(wrong - theirs.astype(np.float64)).max() > 10 * TOL[dtype]


@each_case
def test_group_norm(torch, F, seed, dtype, affine) -> None:
    rng = np.random.default_rng(2000 + seed)
    groups = int(rng.integers(1, 4))
    c = groups * int(rng.integers(1, 4))
    shape = (int(rng.integers(1, 4)), c, *_random_shape(rng, int(rng.integers(0, 3))))
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    w, b = _affine(rng, c, dtype, affine)
    if np.prod(shape[2:], dtype=int) * (c // groups) == 1:
        pytest.skip("a group of one value: variance 0 (checked elsewhere)")
    out = _purity([x, w, b], lambda x, w, b: lnviz.group_norm(x, groups, w, b, 1e-4))
    ref = F.group_norm(_t(torch, x), groups, _t(torch, w), _t(torch, b), 1e-4)
    _check(out, ref, dtype)


@each_case
def test_instance_norm(torch, F, seed, dtype, affine) -> None:
    rng = np.random.default_rng(3000 + seed)
    c = int(rng.integers(1, 5))
    spatial = _random_shape(rng, int(rng.integers(1, 4)), lo=2)  # torch needs > 1 position
    x = (rng.standard_normal((int(rng.integers(1, 4)), c, *spatial)) + 0.5).astype(dtype)
    w, b = _affine(rng, c, dtype, affine)
    out = _purity([x, w, b], lambda x, w, b: lnviz.instance_norm(x, w, b, 1e-5))
    ref = F.instance_norm(_t(torch, x), weight=_t(torch, w), bias=_t(torch, b), eps=1e-5)
    _check(out, ref, dtype)


def _bn_case(seed: int, dtype, affine: bool):
    rng = np.random.default_rng(4000 + seed)
    c = int(rng.integers(1, 5))
    shape = (int(rng.integers(2, 5)), c, *_random_shape(rng, int(rng.integers(0, 3))))
    x = (rng.standard_normal(shape) * 1.5 - 0.7).astype(dtype)
    rm = rng.standard_normal(c).astype(dtype)
    rv = rng.uniform(0.2, 3, c).astype(dtype)
    w, b = _affine(rng, c, dtype, affine)
    momentum = float(rng.choice([0.0, 0.1, 0.37, 1.0]))
    return x, rm, rv, w, b, momentum


@each_case
def test_batch_norm_training_updates_running_stats(torch, F, seed, dtype, affine) -> None:
    x, rm, rv, w, b, momentum = _bn_case(seed, dtype, affine)
    y, new_rm, new_rv = _purity(
        [x, rm, rv, w, b],
        lambda *a: lnviz.batch_norm(*a, training=True, momentum=momentum, eps=1e-5),
    )
    trm, trv = _t(torch, rm), _t(torch, rv)  # updated in place by torch
    ref = F.batch_norm(_t(torch, x), trm, trv, _t(torch, w), _t(torch, b), True, momentum, 1e-5)
    _check(y, ref, dtype)
    _check(new_rm, trm, dtype)
    _check(new_rv, trv, dtype)  # unbiased batch variance in the update


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_training_without_running_stats(torch, F, seed, dtype) -> None:
    x, _, _, w, b, momentum = _bn_case(seed, dtype, True)
    y, rm, rv = lnviz.batch_norm(x, None, None, w, b, training=True, momentum=momentum)
    assert rm is None
    assert rv is None
    ref = F.batch_norm(_t(torch, x), None, None, _t(torch, w), _t(torch, b), True, momentum)
    _check(y, ref, dtype)


@each_case
def test_batch_norm_eval(torch, F, seed, dtype, affine) -> None:
    x, rm, rv, w, b, momentum = _bn_case(seed, dtype, affine)
    y, new_rm, new_rv = _purity(
        [x, rm, rv, w, b], lambda *a: lnviz.batch_norm(*a, training=False, momentum=momentum)
    )
    trm, trv = _t(torch, rm), _t(torch, rv)
    ref = F.batch_norm(_t(torch, x), trm, trv, _t(torch, w), _t(torch, b), False, momentum)
    _check(y, ref, dtype)
    np.testing.assert_array_equal(new_rm, trm.numpy())  # evaluation leaves them as they were
    np.testing.assert_array_equal(new_rv, trv.numpy())
    np.testing.assert_array_equal(new_rm, rm)


FLOAT16_CALLS = {
    "layer_norm": (
        lambda x, w, b: lnviz.layer_norm(x, x.shape[-1], w, b),
        lambda F, x, w, b: F.layer_norm(x, [x.shape[-1]], w, b),
    ),
    "rms_norm": (
        lambda x, w, b: lnviz.rms_norm(x, x.shape[-1], w),
        lambda F, x, w, b: F.rms_norm(x, [x.shape[-1]], w),
    ),
    "group_norm": (
        lambda x, w, b: lnviz.group_norm(x, 2, w[:4], b[:4]),
        lambda F, x, w, b: F.group_norm(x, 2, w[:4], b[:4]),
    ),
}


@pytest.mark.parametrize("name", sorted(FLOAT16_CALLS))
def test_float16_dtype_preserved_and_close(torch, F, name) -> None:
    rng = np.random.default_rng(16)
    x = rng.standard_normal((3, 4, 6)).astype(np.float16)
    w = rng.uniform(0.5, 1.5, 6).astype(np.float16)
    b = rng.uniform(-0.5, 0.5, 6).astype(np.float16)
    ours_fn, theirs_fn = FLOAT16_CALLS[name]
    out = _purity([x, w, b], ours_fn)
    _check(out, theirs_fn(F, _t(torch, x), _t(torch, w), _t(torch, b)), np.float16)


def test_float16_batch_and_instance_norm_preserve_dtype(torch, F) -> None:
    rng = np.random.default_rng(17)
    x = rng.standard_normal((4, 3, 5)).astype(np.float16)
    y = lnviz.instance_norm(x)
    assert y.dtype == np.float16
    ref = F.instance_norm(_t(torch, x).float()).numpy()  # compare with float32 math
    np.testing.assert_allclose(y.astype(np.float64), ref, atol=4e-3, rtol=4e-3)
    rm, rv = np.zeros(3, np.float16), np.ones(3, np.float16)
    yb, nrm, nrv = lnviz.batch_norm(x, rm, rv, training=True)
    assert yb.dtype == nrm.dtype == nrv.dtype == np.float16
    trm, trv = torch.zeros(3), torch.ones(3)
    ref_b = F.batch_norm(_t(torch, x).float(), trm, trv, training=True).numpy()
    np.testing.assert_allclose(yb.astype(np.float64), ref_b, atol=4e-3, rtol=4e-3)
    np.testing.assert_allclose(nrm.astype(np.float64), trm.numpy(), atol=1e-3)
    np.testing.assert_allclose(nrv.astype(np.float64), trv.numpy(), atol=2e-3)


def test_eps_zero_constant_rows_are_nan_like_torch(torch, F) -> None:
    x = np.array([[2.0, 2.0, 2.0, 2.0], [1.0, 2.0, 3.0, 4.0]])
    ours = lnviz.layer_norm(x, 4, eps=0.0)
    theirs = F.layer_norm(_t(torch, x), [4], eps=0.0).numpy()
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
    np.testing.assert_allclose(ours[1], theirs[1], atol=1e-14)


@pytest.mark.parametrize("eps", [0.0, 1e-5])
def test_constant_rows_like_torch(torch, F, eps) -> None:
    """torch gives NaN at eps = 0 and exactly 0 otherwise for every constant row."""
    mismatched = []
    for c in (0.1, 0.3, 0.7, 1 / 3, -0.2, 1e6 + 0.3):
        for n in (3, 5, 7, 9, 11):
            x = np.full((1, n), c)
            ours = lnviz.layer_norm(x, n, eps=eps)
            theirs = F.layer_norm(_t(torch, x), [n], eps=eps).numpy()
            if not np.array_equal(ours, theirs, equal_nan=True):
                mismatched.append((c, n))
    assert mismatched == []


@pytest.mark.parametrize("n", [64, 4096])
def test_float32_far_from_zero_as_accurate_as_torch(torch, F, n) -> None:
    """1e4 + N(0, 1) in float32: both stay within a few 1e-3 of the float64 truth."""
    rng = np.random.default_rng(n)
    x = (1e4 + rng.standard_normal((16, n))).astype(np.float32)
    x64 = x.astype(np.float64)
    truth = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(x64.var(1, keepdims=True) + 1e-5)
    ours = np.abs(lnviz.layer_norm(x, n) - truth).max()
    theirs = np.abs(F.layer_norm(_t(torch, x), [n]).numpy() - truth).max()
    assert ours < 5e-3
    assert ours < 4 * theirs + 1e-3


# --- eps = 0 on a constant channel or row (torch 2.13, CPU) ----------------------------------
# Constants whose mean torch computes exactly in float64 (so its variance is exactly 0) and,
# in float32, every constant tried: there torch's instance_norm returns 0 (then the bias).
EXACT_CONSTANTS = (0.0, 1.0, -2.5, 0.5, 3.0, 1e6)
FLOAT32_CONSTANTS = (*EXACT_CONSTANTS, 0.1, 0.3, 1 / 3, -0.2, 1e6 + 0.3)


def _constant_channel_cases(dtype):
    consts = FLOAT32_CONSTANTS if dtype == np.float32 else EXACT_CONSTANTS
    for c in consts:
        for n in (2, 3, 5, 7, 16, 33):
            rng = np.random.default_rng(n)
            x = rng.standard_normal((2, 3, n)).astype(dtype)  # (N, C, L)
            x[:, 1] = dtype(c)  # channel 1 constant in every example
            yield c, n, x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("affine", [False, True])
def test_instance_norm_eps_zero_constant_channel_like_torch(torch, F, dtype, affine) -> None:
    """torch gives 0 (then the bias) where the channel is constant, not NaN."""
    w = np.array([1.5, -2.0, 0.75], dtype=dtype) if affine else None
    b = np.array([0.25, 0.5, -1.0], dtype=dtype) if affine else None
    for c, n, x in _constant_channel_cases(dtype):
        ours = lnviz.instance_norm(x, w, b, eps=0.0)
        theirs = F.instance_norm(_t(torch, x), weight=_t(torch, w), bias=_t(torch, b), eps=0.0)
        theirs = theirs.numpy()
        assert not np.isnan(theirs).any()
        np.testing.assert_array_equal(ours[:, 1], theirs[:, 1], err_msg=f"c={c}, n={n}")
        np.testing.assert_array_equal(ours[:, 1], 0.0 if b is None else b[1])
        tol = TOL[dtype]
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


def test_instance_norm_eps_zero_where_torch_rounds(torch, F) -> None:
    """float64 0.1 three times: torch's mean rounds, its 'variance' is noise, its output -1.

    The documented difference: lnviz sees the constant exactly and returns 0.
    """
    x = np.full((1, 1, 3), 0.1)
    theirs = F.instance_norm(_t(torch, x), eps=0.0).numpy()
    ours = lnviz.instance_norm(x, eps=0.0)
    assert np.all(np.abs(theirs) > 0.5)  # torch: rounding error divided by its square root
    np.testing.assert_array_equal(ours, 0.0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_training_eps_zero_is_a_documented_difference(torch, F, dtype) -> None:
    """torch refuses eps = 0 in training; lnviz accepts it: NaN on a constant channel only."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 3, 5)).astype(dtype)  # (N, C, L)
    x[:, 1] = dtype(0.5)
    with pytest.raises(ValueError, match="eps must be positive during training"):
        F.batch_norm(_t(torch, x), None, None, training=True, eps=0.0)
    y, _, _ = lnviz.batch_norm(x, training=True, eps=0.0)
    assert np.isnan(y[:, 1]).all()
    # the other channels are torch's own kernel at eps = 0 (which sets 0 for channel 1)
    aten = torch.batch_norm(_t(torch, x), None, None, None, None, True, 0.1, 0.0, False)
    np.testing.assert_array_equal(aten.numpy()[:, 1], 0.0)
    keep = [0, 2]
    tol = TOL[dtype]
    np.testing.assert_allclose(y[:, keep], aten.numpy()[:, keep], rtol=tol, atol=tol)
    assert "deliberate difference" in lnviz.batch_norm.__doc__


@pytest.mark.parametrize("dtype", DTYPES)
def test_group_and_layer_norm_eps_zero_constant_nan_like_torch(torch, F, dtype) -> None:
    """Unlike instance_norm, torch's group_norm and layer_norm give 0/0 = NaN there."""
    for c, n, x in _constant_channel_cases(dtype):
        gn = lnviz.group_norm(x, 3, eps=0.0)
        tgn = F.group_norm(_t(torch, x), 3, eps=0.0).numpy()
        np.testing.assert_array_equal(np.isnan(gn), np.isnan(tgn), err_msg=f"c={c}, n={n}")
        assert np.isnan(gn[:, 1]).all()
        ln = lnviz.layer_norm(x, n, eps=0.0)
        tln = F.layer_norm(_t(torch, x), [n], eps=0.0).numpy()
        np.testing.assert_array_equal(np.isnan(ln), np.isnan(tln), err_msg=f"c={c}, n={n}")
        assert np.isnan(ln[:, 1]).all()
