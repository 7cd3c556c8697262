"""Batch size and batch companions: facts about batch norm that layer norm does not share."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lnviz import batch_norm, layer_norm
from lnviz.errors import LnvizError
from lnviz.lessons.batch_statistics.batchmates import (
    batch_size_effect,
    companions,
    estimator_spread,
)
from lnviz.lessons.batch_statistics.running import sample_stream
from tests.conftest import require_module

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)


# (two examples, eps, expected batch-norm output)
PAIRS = [
    ([[0.0, 4.0], [2.0, 1.0]], 0.0, [[-1.0, 1.0], [1.0, -1.0]]),
    ([[5.0, -3.0, 7.0], [1.0, 3.0, 7.5]], 0.0, [[1.0, -1.0, -1.0], [-1.0, 1.0, 1.0]]),
    ([[0.0], [2.0]], 1.0, [[-1 / math.sqrt(2)], [1 / math.sqrt(2)]]),  # d = 1: 1/sqrt(1 + 1)
    ([[3.0, 3.0]], 0.0, None),  # a single example: refused
]


@pytest.mark.parametrize(("pair", "eps", "expected"), PAIRS)
def test_batch_of_two_is_plus_minus_one_up_to_eps(pair, eps, expected) -> None:
    x = np.array(pair)
    if expected is None:
        with pytest.raises(LnvizError, match="more than one value per channel"):
            batch_norm(x, training=True, eps=eps)
        return
    y = batch_norm(x, training=True, eps=eps)[0]
    np.testing.assert_allclose(y, expected, rtol=1e-12)


@given(pair=arrays(np.float64, (2, 4), elements=finite), eps=st.sampled_from([0.0, 1e-5, 0.1]))
def test_batch_of_two_any_inputs(pair: np.ndarray, eps: float) -> None:
    """Each entry is sign(x_i - x_other) * d / sqrt(d^2 + eps), d = |a - b| / 2."""
    y = batch_norm(pair, training=True, eps=eps)[0]
    d = np.abs(pair[0] - pair[1]) / 2  # (F,)
    with np.errstate(invalid="ignore", divide="ignore"):
        size = np.where(d > 0, d / np.sqrt(d * d + eps), 0.0)  # (F,)
    expected = np.sign(pair - pair[::-1]) * size  # (2, F)
    if eps == 0.0:
        ok = d > 1e-6  # eps = 0 and equal values: 0 / 0
        np.testing.assert_allclose(y[:, ok], np.sign(pair - pair[::-1])[:, ok], rtol=1e-9)
    else:
        np.testing.assert_allclose(y, expected, rtol=1e-8, atol=1e-12)


@pytest.mark.torch
def test_torch_agrees_on_the_batch_of_two() -> None:
    torch = require_module("torch")
    x = np.array([[0.3, -2.0, 5.0], [1.1, 4.0, -5.0]])
    y = torch.nn.functional.batch_norm(  # torch refuses eps = 0 in training
        torch.from_numpy(x), None, None, training=True, eps=1e-12
    ).numpy()
    np.testing.assert_allclose(y, [[-1, -1, 1], [1, 1, -1]], rtol=1e-9)
    np.testing.assert_allclose(y, batch_size_effect(x, 1e-12).pair, rtol=1e-12)


def test_batch_size_effect_rows() -> None:
    s = sample_stream(1, 64, 5, seed=2)
    bs = batch_size_effect(s.x[0], 1e-5, s.mean[0], s.var[0])
    assert bs.sizes.tolist() == list(range(1, 65))
    assert np.isnan(bs.bn[0]).all() and "more than one value" in bs.refused
    for b in (2, 7, 64):
        np.testing.assert_array_equal(bs.bn[b - 1], batch_norm(s.x[0][:b], training=True)[0][0])
    d = np.abs(s.x[0][0] - s.x[0][1]) / 2  # (F,) half the distance of the two examples
    np.testing.assert_allclose(np.abs(bs.pair), np.tile(d / np.sqrt(d * d + 1e-5), (2, 1)))
    assert np.abs(np.abs(bs.pair) - 1).max() < 1e-3
    # layer norm: one output for example 0, whatever the batch (the kernel's BLAS path may
    # depend on the number of rows, so equal up to a few units in the last place)
    assert np.ptp(bs.ln, axis=0).max() < 1e-14
    np.testing.assert_array_equal(bs.ln[0], layer_norm(s.x[0][:1], 5)[0])
    np.testing.assert_allclose(
        bs.population, (s.x[0][0] - s.mean[0]) / np.sqrt(s.var[0] + 1e-5), rtol=1e-14
    )
    # batch norm moves towards the population value as B grows (64 vs 2), on average
    far = np.abs(bs.bn[1] - bs.population).mean()
    near = np.abs(bs.bn[63] - bs.population).mean()
    assert near < far


def test_batch_size_effect_refuses_bad_input() -> None:
    with pytest.raises(LnvizError, match="pool"):
        batch_size_effect([[1.0, 2.0]])
    with pytest.raises(LnvizError, match="pool"):
        batch_size_effect([[1.0, np.nan], [2.0, 3.0]])
    with pytest.raises(LnvizError, match="mean/var"):
        batch_size_effect([[1.0, 2.0], [2.0, 3.0]], 1e-5, [0.0], [1.0])
    with pytest.raises(LnvizError, match="mean/var"):
        batch_size_effect([[1.0, 2.0], [2.0, 3.0]], 1e-5, [0.0, 0.0], [1.0, -1.0])


def test_estimator_spread_means_and_the_bessel_factor() -> None:
    sp = estimator_spread((2, 3, 8, 64), repeats=5000, seed=1)
    np.testing.assert_allclose(sp.expected_biased, [1 / 2, 2 / 3, 7 / 8, 63 / 64])
    np.testing.assert_allclose(sp.unbiased, sp.biased * (sp.sizes / (sp.sizes - 1))[:, None])
    np.testing.assert_allclose(sp.biased.mean(axis=1), sp.expected_biased, rtol=0.05)
    np.testing.assert_allclose(sp.unbiased.mean(axis=1), 1.0, rtol=0.05)
    np.testing.assert_allclose(sp.mean.std(axis=1), 1 / np.sqrt(sp.sizes), rtol=0.05)
    with pytest.raises(LnvizError, match="size"):
        estimator_spread((1, 4))


def test_companions_change_batch_norm_and_never_layer_norm() -> None:
    s = sample_stream(60, 4, 3, seed=0, shift_step=30, shift=3.0)
    c = companions(s, sets=4)
    assert c.steps.tolist() == [0, 20, 39, 59]
    assert (c.batches[:, 0] == s.x[0, 0]).all()
    np.testing.assert_array_equal(c.batches[1, 1:], s.x[20, 1:])
    for r in range(4):
        np.testing.assert_array_equal(c.bn[r], batch_norm(c.batches[r], training=True)[0][0])
    assert c.ln_range.max() < 1e-14  # 0 up to rounding
    assert c.bn_range.min() > 0.5  # companions after a 3-sigma shift move every feature
    np.testing.assert_allclose(c.batch_var, c.batches.var(axis=1), rtol=1e-12)
    with pytest.raises(LnvizError, match="batch"):
        companions(sample_stream(5, 1, 3))


@given(
    example=arrays(np.float64, (5,), elements=finite),
    first=arrays(np.float64, (3, 5), elements=finite),
    second=arrays(np.float64, (6, 5), elements=finite),
)
def test_layer_norm_of_an_example_ignores_its_companions(example, first, second) -> None:
    a = layer_norm(np.vstack([example, first]), 5, eps=1e-5)[0]
    b = layer_norm(np.vstack([example, second]), 5, eps=1e-5)[0]
    alone = layer_norm(example[None], 5, eps=1e-5)[0]
    # mathematically equal; the row kernel may round differently for other row counts
    np.testing.assert_allclose(a, b, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(a, alone, rtol=1e-14, atol=1e-14)


@given(x=arrays(np.float64, (6, 3), elements=finite), data=st.data())
@settings(max_examples=60)
def test_batch_norm_training_output_follows_a_permutation_of_the_batch(x, data) -> None:
    perm = list(data.draw(st.permutations(range(6))))
    y = batch_norm(x, training=True, eps=1e-3)[0]
    y_perm = batch_norm(x[perm], training=True, eps=1e-3)[0]
    np.testing.assert_allclose(y_perm, y[perm], rtol=1e-9, atol=1e-9)
