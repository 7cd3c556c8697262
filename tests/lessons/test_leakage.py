"""Leak survival, the future-shock experiment and train/inference statistics."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.errors import LnvizError
from lnviz.lessons.sequences import HISTORY, MAX_BATCH, features, market, simulate_returns
from lnviz.lessons.sequences.causality import SCHEMES, normalize
from lnviz.lessons.sequences.leakage import correlations, future_shock, inference_check, leak_table
from tests.conftest import require_module

TOKEN, SEQUENCE, CAUSAL, BATCH = range(4)


@pytest.mark.parametrize(
    ("target", "column", "expected"),
    [
        ([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], 1.0),
        ([1.0, 2.0, 3.0], [3.0, 2.0, 1.0], -1.0),
        ([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0], 0.8),
        ([1.0, -1.0, 1.0, -1.0], [1.0, 1.0, -1.0, -1.0], 0.0),
        ([1.0, 2.0, 3.0], [5.0, 5.0, 5.0], np.nan),
        ([1e9, 1e9 + 1, 1e9 + 2], [1.0, 2.0, 3.0], 1.0),
    ],
)
def test_correlation_cases(target, column, expected) -> None:
    got = correlations(np.array([target]), np.array(column)[None, :, None])[0]
    np.testing.assert_allclose(got, expected, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_leak_survives_token_wise_normalization(seed: int) -> None:
    t = leak_table(market(8, 64, seed=seed), 1e-5)
    assert t.value("next return", "raw") == pytest.approx(1.0, abs=1e-12)
    chance = 4 / t.samples**0.5  # two standard errors of a zero correlation, doubled
    assert t.value("next return", "token") > max(0.4, chance)  # far from removed
    assert t.value("next return", "causal") > max(0.4, chance)
    for honest in ("return", "mean", "volatility", "level"):
        assert abs(t.value(honest, "raw")) < 0.25  # a random walk: nothing to predict


def test_token_statistics_spread_the_leak_into_honest_features() -> None:
    """The mean of a token's features includes r(t+1), so centred honest features pick it up."""
    spread = [
        leak_table(market(8, 64, seed=s), 1e-5).value("mean", "token")
        - leak_table(market(8, 64, seed=s, leak=False), 1e-5).value("mean", "token")
        for s in range(4)
    ]
    assert all(d < -0.2 for d in spread), spread


def test_table_layout_and_batch_column_equals_raw_correlation_for_affine_maps() -> None:
    m = market(4, 32, seed=5, leak=False)
    t = leak_table(m)
    assert t.names == m.names and t.columns == ("raw", *SCHEMES)
    assert t.corr.shape == (4, 5) and t.samples == 128
    # batch norm is one affine map per feature: correlations are unchanged
    np.testing.assert_allclose(t.corr[:, 4], t.corr[:, 0], atol=1e-12)


@pytest.mark.parametrize("shocked", [1, 7, 15])
def test_shock_moves_no_earlier_token_for_token_wise_and_causal(shocked: int) -> None:
    s = future_shock(market(3, 16, seed=4, leak=False), 1e-5, shocked, 2.0, example=1)
    assert s.first_moved[TOKEN] == s.first_moved[CAUSAL] == shocked
    assert s.past[TOKEN] == s.past[CAUSAL] == 0.0  # bit for bit
    assert s.first_moved[SEQUENCE] == s.first_moved[BATCH] == 0
    assert s.past[SEQUENCE] > 1e-6 and s.past[BATCH] > 1e-6
    assert s.others[:3].tolist() == [0.0, 0.0, 0.0] and s.others[BATCH] > 1e-6
    assert s.input_change[:shocked].max() == 0.0


def test_with_the_leak_the_token_before_the_shock_moves() -> None:
    s = future_shock(market(2, 16, seed=4, leak=True), 1e-5, 10, 2.0)
    assert s.first_moved[TOKEN] == s.first_moved[CAUSAL] == 9
    assert s.change[TOKEN, :9].max() == 0.0 and s.change[TOKEN, 9] > 0.01


def test_batch_of_one_has_no_other_series() -> None:
    s = future_shock(market(1, 8, seed=0), 1e-5, 4, 1.0)
    assert s.others.tolist() == [0.0] * 4


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"token": 0, "size": 1.0}, "token/example"),
        ({"token": 8, "size": 1.0}, "token/example"),
        ({"token": 3, "size": 1.0, "example": 2}, "token/example"),
        ({"token": 3, "size": float("nan")}, "size"),
        ({"token": 3, "size": 1e3}, "size"),
    ],
)
def test_shock_arguments_are_checked(kwargs, name: str) -> None:
    with pytest.raises(LnvizError) as err:
        future_shock(market(2, 8, seed=0), 1e-5, **kwargs)
    assert err.value.name == name


@pytest.mark.parametrize(("batch", "example", "steps"), [(4, 0, 0), (4, 3, 5), (1, 0, 20)])
def test_layer_norm_ignores_company_and_mode(batch: int, example: int, steps: int) -> None:
    r = inference_check(market(batch, 16, seed=2), 1e-5, example, steps)
    assert r.gap("ln_batch", "ln_alone") == 0.0
    assert r.gap("ln_batch", "ln_mates") == 0.0
    assert r.gap("ln_batch", "ln_stream") == 0.0
    assert r.gap("bn_eval", "bn_eval_alone") == 0.0  # evaluation mode ignores company too
    np.testing.assert_allclose(r.bn_stream, r.bn_eval, atol=1e-15)
    np.testing.assert_allclose(r.bn_alone, r.seq_alone, atol=1e-12)  # a batch of one
    assert r.gap("bn_batch", "bn_eval") > 0.05
    if batch > 1:
        assert r.gap("bn_batch", "bn_alone") > 0.05
        assert r.gap("bn_batch", "bn_mates") > 0.05
    else:
        assert r.gap("bn_batch", "bn_alone") == 0.0


def test_running_statistics_follow_the_momentum_recursion() -> None:
    m, steps, mom = market(3, 12, seed=6), 4, 0.1
    r = inference_check(m, 1e-5, 0, steps, mom)
    rm, rv = np.zeros(5), np.ones(5)
    for k in range(steps):
        xk = features(simulate_returns(3, HISTORY + 13, 6, first=MAX_BATCH * (k + 1)), 12, 5)
        flat = xk.reshape(-1, 5)
        rm = (1 - mom) * rm + mom * flat.mean(axis=0)
        rv = (1 - mom) * rv + mom * flat.var(axis=0, ddof=1)
    np.testing.assert_allclose(r.running_mean, rm, rtol=1e-12)
    np.testing.assert_allclose(r.running_var, rv, rtol=1e-12)
    np.testing.assert_allclose(r.bn_eval, (m.x[0] - rm) / np.sqrt(rv + 1e-5), rtol=1e-12)


def test_no_training_means_fresh_statistics() -> None:
    m = market(2, 8, seed=1)
    r = inference_check(m, 1e-5, 1, 0)
    np.testing.assert_allclose(r.bn_eval, m.x[1] / np.sqrt(1 + 1e-5), rtol=1e-14)


def test_inference_arguments_are_checked() -> None:
    with pytest.raises(LnvizError):
        inference_check(market(2, 8, seed=0), 1e-5, example=2)
    with pytest.raises(LnvizError):
        inference_check(market(2, 8, seed=0), 1e-5, steps=201)


@pytest.mark.torch
def test_torch_modules_agree_layer_norm_has_no_mode_batch_norm_does() -> None:
    torch = require_module("torch")
    m, steps = market(4, 16, seed=3), 5
    r = inference_check(m, 1e-5, 2, steps)
    ln = torch.nn.LayerNorm(5, eps=1e-5, elementwise_affine=False).double()
    bn = torch.nn.BatchNorm1d(5, eps=1e-5, momentum=0.1, affine=False).double()
    x = torch.tensor(m.x)
    ln.train()
    train_out = ln(x)
    ln.eval()
    eval_out = ln(x[2:3])
    assert torch.equal(train_out[2:3], eval_out) or torch.allclose(train_out[2:3], eval_out)
    np.testing.assert_allclose(eval_out[0].detach().numpy(), r.ln_batch, atol=1e-12)
    bn.train()
    for k in range(steps):
        xk = features(simulate_returns(4, HISTORY + 17, 3, first=MAX_BATCH * (k + 1)), 16, 5)
        bn(torch.tensor(xk).transpose(1, 2))
    np.testing.assert_allclose(bn.running_mean.numpy(), r.running_mean, rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), r.running_var, rtol=1e-12)
    bn.eval()
    out = bn(x.transpose(1, 2)).transpose(1, 2)[2].detach().numpy()
    np.testing.assert_allclose(out, r.bn_eval, atol=1e-12)
    np.testing.assert_allclose(normalize(m.x, "batch").y[2], r.bn_batch, atol=0)
