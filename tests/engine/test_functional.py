"""layer_norm, rms_norm and default_rms_eps against plain NumPy references (no torch here)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz

F64_EPS = float(np.finfo(np.float64).eps)
F32_EPS = float(np.finfo(np.float32).eps)


def ref_layer_norm(x, shape, weight=None, bias=None, eps=1e-5):
    """float64 two-pass reference over the trailing len(shape) axes."""
    x = np.asarray(x, dtype=np.float64)
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    if weight is not None:
        y = y * np.asarray(weight, dtype=np.float64)
    if bias is not None:
        y = y + np.asarray(bias, dtype=np.float64)
    return y


def ref_rms_norm(x, shape, weight=None, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    y = x / np.sqrt((x**2).mean(axis=axes, keepdims=True) + eps)
    return y if weight is None else y * np.asarray(weight, dtype=np.float64)


# (x shape, normalized_shape)
SHAPES = [
    ((5,), (5,)),
    ((3, 4), (4,)),
    ((2, 3, 4), (4,)),
    ((2, 3, 4), (3, 4)),
    ((2, 3, 4), (2, 3, 4)),
    ((1, 1, 1, 7), (1, 7)),
    ((6, 1), (1,)),
    ((4, 2000), (2000,)),  # rows longer than one kernel block
    ((3000, 3), (3,)),  # many rows: several kernel blocks
]


@pytest.mark.parametrize(("xshape", "nshape"), SHAPES)
@pytest.mark.parametrize("affine", [False, True])
@pytest.mark.parametrize("eps", [1e-5, 0.5])
def test_layer_norm_matches_reference(xshape, nshape, affine, eps) -> None:
    rng = np.random.default_rng(hash((xshape, nshape)) % 2**32)
    x = rng.standard_normal(xshape) * 3 + 1
    w = rng.standard_normal(nshape) if affine else None
    b = rng.standard_normal(nshape) if affine else None
    y = lnviz.layer_norm(x, nshape, w, b, eps)
    assert y.shape == x.shape
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, ref_layer_norm(x, nshape, w, b, eps), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("xshape", "nshape"), SHAPES)
@pytest.mark.parametrize("affine", [False, True])
def test_rms_norm_matches_reference(xshape, nshape, affine) -> None:
    rng = np.random.default_rng(1 + hash((xshape, nshape)) % 2**32)
    x = rng.standard_normal(xshape) * 2 + 0.5
    w = rng.standard_normal(nshape) if affine else None
    for eps in (1e-6, 0.3):
        y = lnviz.rms_norm(x, nshape, w, eps)
        np.testing.assert_allclose(y, ref_rms_norm(x, nshape, w, eps), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("nshape", [3, (3,), [3], (np.int64(3),)])
def test_normalized_shape_spellings(nshape) -> None:
    x = np.array([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]])
    np.testing.assert_allclose(lnviz.layer_norm(x, nshape), ref_layer_norm(x, (3,)), atol=1e-13)


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        (np.float16, F32_EPS),  # accumulates in float32
        (np.float32, F32_EPS),
        (np.float64, F64_EPS),
    ],
)
def test_default_rms_eps(dtype, expected) -> None:
    assert lnviz.default_rms_eps(np.dtype(dtype)) == expected


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_rms_norm_eps_none_uses_default(dtype) -> None:
    # tiny values: the mean square (1.4e-8) is comparable with float32's eps (1.2e-7)
    x = np.array([[1e-4, -2e-4, 1.5e-4]], dtype=dtype)
    eps = lnviz.default_rms_eps(np.dtype(dtype))
    y = lnviz.rms_norm(x, 3)
    assert y.dtype == dtype
    tol = {np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-14}[dtype]
    np.testing.assert_allclose(y.astype(np.float64), ref_rms_norm(x, (3,), eps=eps), rtol=tol)
    np.testing.assert_array_equal(y, lnviz.rms_norm(x, 3, eps=eps))
    if dtype == np.float64:  # float64 does not use float32's eps
        assert not np.allclose(y, ref_rms_norm(x, (3,), eps=F32_EPS), rtol=1e-3)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("fn", ["layer_norm", "rms_norm"])
def test_dtype_preserved(dtype, fn) -> None:
    x = np.random.default_rng(3).standard_normal((4, 8)).astype(dtype)
    w = np.linspace(0.5, 2, 8).astype(dtype)
    y = getattr(lnviz, fn)(x, 8, w)
    assert y.dtype == dtype
    tol = {np.float16: 5e-3, np.float32: 2e-6, np.float64: 1e-13}[dtype]
    if fn == "layer_norm":
        ref = ref_layer_norm(x, (8,), w)
    else:
        ref = ref_rms_norm(x, (8,), w, lnviz.default_rms_eps(np.dtype(dtype)))
    np.testing.assert_allclose(y.astype(np.float64), ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("x", [[1, 2, 4], [True, False, True], np.array([1, 2, 4], dtype=np.int8)])
def test_non_float_input_is_computed_in_float64(x) -> None:
    y = lnviz.layer_norm(x, 3)
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, ref_layer_norm(np.asarray(x, dtype=float), (3,)), atol=1e-13)


def test_layouts_do_not_matter() -> None:
    x = np.random.default_rng(4).standard_normal((5, 6, 7))
    expected = lnviz.layer_norm(x, (6, 7))
    for view in (np.asfortranarray(x), x[::-1][::-1], x.transpose(2, 1, 0).T):
        np.testing.assert_allclose(lnviz.layer_norm(view, (6, 7)), expected, atol=1e-15)
    flipped = x[:, ::-1, :]
    np.testing.assert_allclose(
        lnviz.layer_norm(flipped, (6, 7)), lnviz.layer_norm(flipped.copy(), (6, 7)), atol=1e-15
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arguments_never_mutated_and_output_is_new(dtype) -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4)).astype(dtype)
    w, b = rng.standard_normal(4).astype(dtype), rng.standard_normal(4).astype(dtype)
    copies = [a.copy() for a in (x, w, b)]
    for a in (x, w, b):
        a.setflags(write=False)  # an in-place write would raise
    y1 = lnviz.layer_norm(x, 4, w, b)
    y2 = lnviz.rms_norm(x, 4, w)
    for a, c in zip((x, w, b), copies, strict=True):
        np.testing.assert_array_equal(a, c)
    for y in (y1, y2):
        assert not np.shares_memory(y, x)
        assert y.flags.writeable


def test_eps_zero_constant_row_is_nan() -> None:
    """Zero-variance row with eps = 0: 0/0, reported as NaN, not as an error."""
    x = np.array([[2.0, 2.0, 2.0], [1.0, 2.0, 3.0]])
    y = lnviz.layer_norm(x, 3, eps=0.0)
    assert np.isnan(y[0]).all()
    np.testing.assert_allclose(y[1], [-math.sqrt(1.5), 0.0, math.sqrt(1.5)], atol=1e-15)
    r = lnviz.rms_norm(np.zeros((1, 4)), 4, eps=0.0)
    assert np.isnan(r).all()


# A constant row whose rounded mean is inexact, e.g. (0.1, 0.1, 0.1) with mean
# 0.10000000000000002, must still centre to exactly 0: NaN at eps = 0 (as torch), exactly
# beta otherwise (claim C1). The kernel checks candidate rows entry by entry.
CONSTANTS = [0.1, 0.3, 0.7, 1 / 3, 2 / 3, -0.2, 1e-3, 1e6 + 0.3]
LENGTHS = [3, 5, 6, 7, 9, 10, 11, 13]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_constant_rows_eps_zero_are_nan(dtype) -> None:
    """Every constant row is 0/0 at eps = 0, whatever its value and length (torch: NaN)."""
    defined = [
        (c, n)
        for c in CONSTANTS
        for n in LENGTHS
        if not np.isnan(lnviz.layer_norm(np.full((1, n), c, dtype=dtype), n, eps=0.0)).all()
    ]
    assert defined == []


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_constant_rows_give_exactly_beta(dtype) -> None:
    """C1: the core of a constant row is exactly 0, so the output is exactly beta."""
    wrong = []
    for c in CONSTANTS:
        for n in LENGTHS:
            beta = np.linspace(-1, 2, n).astype(dtype)
            y = lnviz.layer_norm(np.full((2, n), c, dtype=dtype), n, np.ones(n, dtype), beta)
            if not np.array_equal(y, np.broadcast_to(beta, (2, n))):
                wrong.append((c, n))
    assert wrong == []


def test_constant_rows_with_exact_mean_give_exactly_beta() -> None:
    beta = np.array([0.5, -1.0, 2.0, 7.0])
    for const in (0.0, 3.0, -0.25, 1e6):
        y = lnviz.layer_norm(np.full((2, 4), const), 4, np.full(4, 3.0), beta)
        np.testing.assert_array_equal(y, np.broadcast_to(beta, (2, 4)))


@pytest.mark.parametrize("n", [16, 1024])
def test_float32_accuracy_far_from_zero(n) -> None:
    """float32 input 1e4 + N(0,1): two-pass statistics keep ~3 digits; E[x^2]-E[x]^2 keeps none."""
    rng = np.random.default_rng(n)
    x = (1e4 + rng.standard_normal((64, n))).astype(np.float32)
    y = lnviz.layer_norm(x, n)
    assert y.dtype == np.float32
    ref = ref_layer_norm(x.astype(np.float64), (n,))
    err = float(np.abs(y - ref).max())
    assert err < 5e-3
    m = x.mean(axis=1, keepdims=True)
    naive_var = (x * x).mean(axis=1, keepdims=True) - m * m  # all float32
    with np.errstate(invalid="ignore"):
        naive = (x - m) / np.sqrt(naive_var + np.float32(1e-5))
    naive_err = float(np.nan_to_num(np.abs(naive - ref), nan=np.inf).max())
    assert naive_err > 0.5
    assert naive_err > 100 * err


@pytest.mark.parametrize("n", [3, 8, 64, 100, 256, 1024])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_row_normalizes_bit_identically_alone_or_in_any_batch(n: int, dtype) -> None:
    """Layer and RMS norm of one example must not depend on its batch companions at all."""
    rng = np.random.default_rng(n)
    x = (3.0 + rng.standard_normal((37, n))).astype(dtype)
    w, b = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    together = lnviz.layer_norm(x, n, w, b)
    rms_together = lnviz.rms_norm(x, n, w)
    for i in (0, 1, 17, 36):
        np.testing.assert_array_equal(lnviz.layer_norm(x[i : i + 1], n, w, b)[0], together[i])
        np.testing.assert_array_equal(lnviz.rms_norm(x[i], n, w), rms_together[i])
