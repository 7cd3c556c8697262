"""Running statistics over a stream: PyTorch parity, the Keras formula, lag and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lnviz.channels import batch_norm
from lnviz.errors import LnvizError
from lnviz.lessons.batch_statistics.running import (
    MAX_STEPS,
    Stream,
    catch_up,
    gap_summary,
    keras_running,
    pytorch_running,
    sample_stream,
    steps_to_close,
    variance_ratio,
)
from tests.conftest import require_module

# (steps, batch, features, seed, shift_step, shift, spread, momentum)
STREAMS = [
    (40, 8, 3, 0, 20, 3.0, 2.0, 0.1),
    (25, 2, 1, 1, 10, -4.0, 0.5, 0.1),
    (30, 64, 8, 7, 0, 1.5, 1.0, 0.3),
    (12, 3, 5, 3, 12, 0.0, 1.0, 1.0),
    (15, 5, 2, 9, 5, 2.0, 4.0, 0.0),
]


@pytest.mark.torch
@pytest.mark.parametrize(("steps", "b", "f", "seed", "at", "shift", "spread", "m"), STREAMS)
def test_pytorch_convention_matches_torch_step_by_step(steps, b, f, seed, at, shift, spread, m):
    torch = require_module("torch")
    fn = torch.nn.functional
    s = sample_stream(steps, b, f, seed=seed, shift_step=at, shift=shift, spread=spread)
    run = pytorch_running(s.x, m, 1e-5)
    rm = torch.zeros(f, dtype=torch.float64)
    rv = torch.ones(f, dtype=torch.float64)
    for t in range(steps):
        xt = torch.from_numpy(s.x[t])
        y = fn.batch_norm(xt, rm, rv, training=True, momentum=m, eps=1e-5)  # updates rm, rv
        np.testing.assert_allclose(run.y_train[t], y.numpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(run.running_mean[t], rm.numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(run.running_var[t], rv.numpy(), rtol=1e-12, atol=1e-14)
        y_eval = fn.batch_norm(xt, rm, rv, training=False, eps=1e-5)
        np.testing.assert_allclose(run.y_eval[t], y_eval.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("steps", "b", "f", "seed", "at", "shift", "spread", "m"), STREAMS)
def test_one_kernel_call_equals_batch_norm_step_by_step(steps, b, f, seed, at, shift, spread, m):
    """All steps at once (one kernel call) give what lnviz.batch_norm gives one step at a
    time, in training and in evaluation mode, to the last bit or two."""
    s = sample_stream(steps, b, f, seed=seed, shift_step=at, shift=shift, spread=spread)
    run = pytorch_running(s.x, m, 1e-5)
    rm, rv = np.zeros(f), np.ones(f)
    for t in range(steps):
        y, rm, rv = batch_norm(s.x[t], rm, rv, training=True, momentum=m, eps=1e-5)
        np.testing.assert_allclose(run.y_train[t], y, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(run.running_mean[t], rm, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(run.running_var[t], rv, rtol=1e-13, atol=1e-15)
        y_eval = batch_norm(s.x[t], rm, rv, training=False, eps=1e-5)[0]
        np.testing.assert_allclose(run.y_eval[t], y_eval, rtol=1e-13, atol=1e-13)


@pytest.mark.torch
def test_torch_refuses_a_batch_of_one_in_training_like_lnviz() -> None:
    torch = require_module("torch")
    x = np.array([[[1.0, 2.0]]])  # one step, B = 1, F = 2
    with pytest.raises(ValueError, match="more than 1 value per channel"):
        torch.nn.functional.batch_norm(
            torch.from_numpy(x[0]), torch.zeros(2, dtype=torch.float64),
            torch.ones(2, dtype=torch.float64), training=True,
        )  # fmt: skip
    with pytest.raises(LnvizError, match="batch"):
        pytorch_running(x)
    with pytest.raises(LnvizError, match="batch"):
        keras_running(x)


def keras_reference(x: np.ndarray, m: float, eps: float):
    """Keras 3's update written out: moving = moving * m + batch * (1 - m), biased variance."""
    moving_mean, moving_var = np.zeros(x.shape[2]), np.ones(x.shape[2])
    means, variances, train, evals = [], [], [], []
    for batch in x:
        mean, var = batch.mean(axis=0), batch.var(axis=0)  # np.var: divisor B
        moving_mean = moving_mean * m + mean * (1 - m)
        moving_var = moving_var * m + var * (1 - m)
        means.append(moving_mean)
        variances.append(moving_var)
        train.append((batch - mean) / np.sqrt(var + eps))
        evals.append((batch - moving_mean) / np.sqrt(moving_var + eps))
    return np.array(means), np.array(variances), np.array(train), np.array(evals)


@pytest.mark.parametrize(("steps", "b", "f", "seed", "at", "shift", "spread", "_m"), STREAMS)
@pytest.mark.parametrize("m", [0.99, 0.9, 0.5, 0.0, 1.0])
def test_keras_convention_matches_its_formula(steps, b, f, seed, at, shift, spread, _m, m):
    s = sample_stream(steps, b, f, seed=seed, shift_step=at, shift=shift, spread=spread)
    run = keras_running(s.x, m, 1e-3)
    means, variances, train, evals = keras_reference(s.x, m, 1e-3)
    np.testing.assert_allclose(run.running_mean, means, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(run.running_var, variances, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(run.y_train, train, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(run.y_eval, evals, rtol=1e-10, atol=1e-10)
    assert run.weight_new == pytest.approx(1 - m) and not run.unbiased
    np.testing.assert_allclose(run.fed_var, s.x.var(axis=1), rtol=1e-12, atol=1e-14)


def test_equal_weights_differ_only_by_the_variance_estimator() -> None:
    """torch m = 0.1 and Keras m = 0.9: same means; the variances differ by an EMA of var/(B-1)."""
    s = sample_stream(80, 4, 3, seed=2, shift_step=40, shift=2.0, spread=3.0)
    torch_like, keras = pytorch_running(s.x, 0.1), keras_running(s.x, 0.9)
    np.testing.assert_allclose(torch_like.running_mean, keras.running_mean, rtol=1e-12, atol=1e-13)
    extra, expected = np.zeros(3), []
    for var in s.x.var(axis=1):  # biased batch variance
        extra = 0.9 * extra + 0.1 * var / 3  # unbiased - biased = biased / (B - 1)
        expected.append(extra)
    diff = torch_like.running_var - keras.running_var
    np.testing.assert_allclose(diff, np.array(expected), rtol=1e-9, atol=1e-12)
    assert (diff > 0).all()


def test_keras_momentum_zero_uses_this_batch_so_train_and_eval_agree() -> None:
    s = sample_stream(20, 6, 4, seed=5, shift_step=10, shift=3.0)
    run = keras_running(s.x, 0.0)
    assert run.gap.max() < 1e-12
    torch_like = pytorch_running(s.x, 1.0, eps=0.0)  # same stats, but the unbiased variance
    ratio = torch_like.y_eval / torch_like.y_train  # sqrt(biased / unbiased) = sqrt(5/6)
    np.testing.assert_allclose(ratio, math.sqrt(5 / 6), rtol=1e-12)


def test_momentum_zero_pytorch_never_moves_from_the_initial_state() -> None:
    s = sample_stream(10, 4, 2, seed=0)
    run = pytorch_running(s.x, 0.0)
    assert (run.running_mean == 0).all() and (run.running_var == 1).all()
    np.testing.assert_allclose(run.y_eval, s.x / math.sqrt(1 + 1e-5), rtol=1e-14)


def test_stream_shift_changes_only_later_steps_and_true_statistics() -> None:
    base = sample_stream(30, 4, 3, seed=11, shift_step=30)
    moved = sample_stream(30, 4, 3, seed=11, shift_step=12, shift=2.0, spread=3.0)
    np.testing.assert_array_equal(base.x[:12], moved.x[:12])
    assert not np.allclose(base.x[12:], moved.x[12:])
    sigma = np.sqrt(base.var[0])
    np.testing.assert_allclose(moved.mean[12:] - base.mean[0], np.tile(2 * sigma, (18, 1)))
    np.testing.assert_allclose(moved.var[12:], np.tile(9 * base.var[0], (18, 1)), rtol=1e-12)
    np.testing.assert_array_equal(moved.var[:12], base.var[:12])


def test_same_feature_distribution_whatever_the_shape() -> None:
    a, b = sample_stream(5, 2, 4, seed=3), sample_stream(300, 64, 4, seed=3)
    np.testing.assert_array_equal(a.mean[0], b.mean[0])
    np.testing.assert_array_equal(a.var[0], b.var[0])


# (weight of the new value, fraction to close, expected steps)
CLOSE = [(0.1, 0.9, 22), (0.01, 0.9, 230), (0.5, 0.5, 1), (0.5, 0.75, 2), (0.5, 0.76, 3)]
CLOSE += [(1.0, 0.9, 1), (0.0, 0.9, None), (0.2, 0.0, 0), (0.1, 0.99, 44)]


@pytest.mark.parametrize(("w", "fraction", "n"), CLOSE)
def test_steps_to_close(w: float, fraction: float, n: int | None) -> None:
    assert steps_to_close(w, fraction) == n


@given(w=st.floats(0.001, 0.999), fraction=st.floats(0.01, 0.999))
def test_steps_to_close_is_the_first_step_past_the_fraction(w: float, fraction: float) -> None:
    n = steps_to_close(w, fraction)
    assert n is not None and n >= 1
    assert (1 - w) ** n <= (1 - fraction) * (1 + 1e-9)
    assert n == 1 or (1 - w) ** (n - 1) > (1 - fraction) * (1 - 1e-9)


def noiseless_stream(steps: int, at: int, before: float, after: float) -> Stream:
    """A batch of 2 identical rows per step: the batch mean is the true mean exactly."""
    mean = np.where(np.arange(steps) >= at, after, before)[:, None]  # (S, 1)
    x = np.repeat(mean[:, None, :], 2, axis=1)  # (S, 2, 1)
    return Stream(x, mean, np.zeros_like(mean), 0, at, after - before, 1.0)


@pytest.mark.parametrize(("m", "expected"), [(0.1, 22), (0.3, 7), (0.05, 45), (1.0, 1)])
def test_catch_up_on_a_noiseless_stream_equals_the_formula(m: float, expected: int) -> None:
    s = noiseless_stream(120, 30, 1.0, 5.0)
    assert catch_up(pytorch_running(s.x, m), s) == steps_to_close(m) == expected
    assert catch_up(keras_running(s.x, 1 - m), s) == expected


def test_catch_up_is_none_without_a_shift_or_when_too_slow() -> None:
    s = noiseless_stream(50, 50, 1.0, 1.0)
    assert catch_up(pytorch_running(s.x), s) is None
    s = noiseless_stream(50, 10, 1.0, 4.0)
    assert catch_up(keras_running(s.x, 0.99), s) is None  # needs 230 steps, 40 given
    assert catch_up(pytorch_running(s.x, 0.1), s) == 22


@pytest.mark.parametrize("b", [2, 4, 16])
def test_running_variance_settles_at_the_estimators_expectation(b: int) -> None:
    """EMA of the biased variance -> (B - 1)/B of the truth; of the unbiased one -> the truth."""
    s = sample_stream(MAX_STEPS, b, 8, seed=4)
    torch_like, keras = pytorch_running(s.x, 0.1), keras_running(s.x, 0.9)
    for run, limit in ((torch_like, 1.0), (keras, (b - 1) / b)):
        ratios = [variance_ratio(run, s, f) for f in range(8)]
        assert all(r[1] == limit and r[2:] == (225, 299) for r in ratios)
        measured = np.mean([r[0] for r in ratios])  # 8 features x 75 steps
        assert measured == pytest.approx(limit, rel=0.12)


def test_gap_summary_before_and_after_the_shift() -> None:
    s = sample_stream(100, 16, 4, seed=1, shift_step=50, shift=4.0)
    run = pytorch_running(s.x)
    before, after = gap_summary(run, s)
    assert before == pytest.approx(float(np.median(run.gap[25:50])))
    assert after == pytest.approx(float(run.gap[50:].max())) and after > 3 * before
    assert gap_summary(run, sample_stream(100, 16, 4, seed=1))[1] is None


@given(seed=st.integers(0, 10_000), data=st.data())
@settings(max_examples=25, deadline=None)
def test_running_statistics_ignore_the_order_inside_each_batch(seed: int, data) -> None:
    s = sample_stream(6, 5, 3, seed=seed, shift_step=3, shift=1.0)
    perm = data.draw(st.permutations(range(5)))
    shuffled = s.x[:, list(perm), :]
    for fn in (pytorch_running, keras_running):
        a, b = fn(s.x), fn(shuffled)
        np.testing.assert_allclose(a.running_mean, b.running_mean, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.running_var, b.running_var, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.y_train[:, list(perm)], b.y_train, rtol=1e-9, atol=1e-9)


BAD_STREAMS = [
    ({"steps": 0}, "steps"),
    ({"steps": MAX_STEPS + 1}, "steps"),
    ({"batch": 65}, "batch"),
    ({"features": 9}, "features"),
    ({"features": True}, "features"),
    ({"steps": 2.5}, "steps"),
    ({"seed": -1}, "seed"),
    ({"shift_step": 11}, "shift_step"),
    ({"shift": float("nan")}, "shift"),
    ({"shift": "3"}, "shift"),
    ({"spread": 0.0}, "spread"),
    ({"spread": float("inf")}, "spread"),
]


@pytest.mark.parametrize(("change", "name"), BAD_STREAMS)
def test_bad_stream_arguments_name_the_field(change: dict, name: str) -> None:
    args = {"steps": 10, "batch": 4, "features": 2} | change
    rest = {k: v for k, v in args.items() if k not in ("steps", "batch", "features")}
    with pytest.raises(LnvizError) as err:
        sample_stream(args["steps"], args["batch"], args["features"], **rest)
    assert err.value.name == name


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda x: pytorch_running(x, 1.5), "momentum"),
        (lambda x: keras_running(x, -0.1), "momentum"),
        (lambda x: pytorch_running(x, eps=-1.0), "eps"),
        (lambda x: keras_running(x[0]), "x"),
        (lambda x: pytorch_running(np.where(x > 0, np.nan, x)), "x"),
    ],
)
def test_bad_running_arguments_name_the_field(call, name: str) -> None:
    x = sample_stream(5, 3, 2, seed=0).x
    with pytest.raises(LnvizError) as err:
        call(x)
    assert err.value.name == name
