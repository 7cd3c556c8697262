"""Dependence of normalized tokens on input tokens: exact Jacobians, structure, leaks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lnviz
from lnviz.errors import LnvizError
from lnviz.lessons.sequences import HISTORY, feature_jacobian, features, market
from lnviz.lessons.sequences.causality import SCHEMES, dependence, jacobian_row, normalize
from tests.conftest import require_module


def sample(shape: tuple[int, int, int], seed: int, scale: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return scale * rng.standard_normal(shape) + rng.uniform(-3, 3)  # (B, T, F)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("eps", [1e-5, 0.1, 2.0])
def test_output_is_the_formula_with_the_recorded_statistics(scheme: str, eps: float) -> None:
    x = sample((3, 7, 4), seed=1)
    n = normalize(x, scheme, eps)
    np.testing.assert_allclose(n.y, (x - n.mean) / np.sqrt(n.var + eps), rtol=1e-12, atol=1e-12)


def test_schemes_agree_with_the_engines_kernels() -> None:
    x, eps = sample((3, 7, 4), seed=2), 1e-3
    np.testing.assert_allclose(normalize(x, "token", eps).y, lnviz.layer_norm(x, 4, eps=eps))
    seq = lnviz.instance_norm(x.transpose(0, 2, 1), eps=eps).transpose(0, 2, 1)
    np.testing.assert_allclose(normalize(x, "sequence", eps).y, seq)
    bn = lnviz.batch_norm(x.transpose(0, 2, 1), training=True, eps=eps)[0].transpose(0, 2, 1)
    np.testing.assert_allclose(normalize(x, "batch", eps).y, bn)


def test_causal_token_t_is_the_sequence_norm_of_the_prefix() -> None:
    x, eps = sample((2, 9, 3), seed=3), 1e-4
    causal = normalize(x, "causal", eps)
    for t in range(9):
        prefix = normalize(x[:, : t + 1], "sequence", eps)
        np.testing.assert_allclose(causal.y[:, t], prefix.y[:, t], rtol=1e-12, atol=1e-12)
        assert (causal.count[:, t] == t + 1).all()
    np.testing.assert_array_equal(causal.y[:, 0], 0.0)  # a group of one centres to 0


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("entry", [(0, 0, 0), (1, 3, 2), (2, 6, 3)])
def test_jacobian_row_matches_central_differences(scheme: str, entry: tuple) -> None:
    x, eps, h = sample((3, 7, 4), seed=4), 0.01, 1e-6
    row = jacobian_row(normalize(x, scheme, eps), entry)
    fd = np.zeros_like(x)
    for j in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[j] += h
        down[j] -= h
        fd[j] = (normalize(up, scheme, eps).y[entry] - normalize(down, scheme, eps).y[entry]) / (
            2 * h
        )
    np.testing.assert_allclose(row, fd, atol=2e-7 * max(1.0, np.abs(row).max()))


def pattern(scheme: str, t: int) -> np.ndarray:
    """The expected (T, T) dependence of output token t (rows) on input token s."""
    full = np.ones((t, t), dtype=bool)
    if scheme == "token":
        return np.eye(t, dtype=bool)
    if scheme == "causal":
        low = np.tril(full)
        low[0] = False  # token 0's group holds one value: its output is constant 0
        return low
    return full


@settings(max_examples=40, deadline=None)
@given(
    b=st.integers(1, 3),
    t=st.integers(2, 10),
    f=st.integers(2, 5),
    seed=st.integers(0, 2**31),
    scale=st.sampled_from([1e-2, 1.0, 100.0]),
    eps=st.sampled_from([1e-6, 1e-3, 1.0]),
)
def test_property_dependency_patterns(b, t, f, seed, scale, eps) -> None:
    """Causal: lower-triangular; token-wise: diagonal; pooled and batch: full. ε scales with
    the values: a group of two values d apart depends on them only through ε/d², which at
    ε = 10⁻⁶ and values of 100 fell below TOLERANCE (seed 6: a true 6e-13 read as 0)."""
    x = sample((b, t, f), seed, scale)
    eps = eps * scale**2
    for scheme in SCHEMES:
        dep = dependence(normalize(x, scheme, eps))
        np.testing.assert_array_equal(dep.depends, pattern(scheme, t), err_msg=scheme)
        assert dep.future_pairs == (t * (t - 1) // 2 if scheme in ("sequence", "batch") else 0)
        assert dep.cross_examples == (b * (b - 1) if scheme == "batch" else 0)
    assert np.triu(dependence(normalize(x, "causal", eps)).token, 1).max() == 0.0  # exact zeros


@pytest.mark.parametrize("scheme", SCHEMES)
def test_aggregated_map_is_the_max_of_the_jacobian_rows(scheme: str) -> None:
    x = sample((2, 5, 3), seed=6)
    n = normalize(x, scheme, 0.01)
    rows = np.array([jacobian_row(n, e) for e in np.ndindex(*x.shape)]).reshape(2, 5, 3, 2, 5, 3)
    dep = dependence(n)
    np.testing.assert_allclose(dep.token, np.abs(rows).max(axis=(0, 2, 3, 5)), rtol=1e-13)
    np.testing.assert_allclose(dep.example, np.abs(rows).max(axis=(1, 2, 4, 5)), rtol=1e-13)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("leak", [False, True])
def test_dependence_on_returns_matches_finite_differences(scheme: str, leak: bool) -> None:
    """Chain rule through the features against differences of the whole pipeline."""
    b, t, w, eps, h = 2, 6, 3, 1e-3, 1e-6
    m = market(b, t, seed=9, window=w, leak=leak)
    n = normalize(m.x, scheme, eps)
    first = HISTORY - (w - 1)
    dep = dependence(n, feature_jacobian(m), first)
    cols = m.returns.shape[1]
    fd = np.zeros((b, t, n.x.shape[2], b, cols))  # (B, T, F, B', N)
    for bb in range(b):
        for c in range(cols):
            up, down = m.returns.copy(), m.returns.copy()
            up[bb, c] += h
            down[bb, c] -= h
            yu = normalize(features(up, t, w, leak), scheme, eps).y
            yd = normalize(features(down, t, w, leak), scheme, eps).y
            fd[:, :, :, bb, c] = (yu - yd) / (2 * h)
    tok = np.abs(fd).max(axis=(0, 2, 3))[:, first:]  # (T, S)
    np.testing.assert_allclose(dep.token, tok, atol=1e-6 * max(1.0, tok.max()))
    np.testing.assert_allclose(dep.example, np.abs(fd).max(axis=(1, 2, 4)), atol=1e-5)
    np.testing.assert_array_equal(dep.columns, np.arange(first, cols) - HISTORY)


@pytest.mark.parametrize(
    ("scheme", "leak", "future"),
    [
        ("token", True, 16),  # one per token: the leaky r(t+1)
        ("token", False, 0),
        ("causal", True, 15),  # token 0 is constant, so 15 of 16
        ("causal", False, 0),
        ("sequence", False, 16 * 15 // 2),  # every later return up to r(T-1)
        ("sequence", True, 16 * 15 // 2 + 16),  # and r(T), read by the leak at token T-1
        ("batch", False, 16 * 15 // 2),
    ],
)
def test_future_dependencies_on_returns(scheme: str, leak: bool, future: int) -> None:
    m = market(3, 16, seed=2, window=4, leak=leak)
    n = normalize(m.x, scheme, 1e-5)
    dep = dependence(n, feature_jacobian(m), HISTORY - 3)
    assert dep.future_pairs == future


def test_the_leak_appears_exactly_one_step_ahead() -> None:
    m = market(2, 12, seed=0, window=5, leak=True)
    dep = dependence(normalize(m.x, "token"), feature_jacobian(m), HISTORY - 4)
    ahead = dep.columns[None, :] - np.arange(12)[:, None]  # (T, S) tau - t
    assert (ahead[dep.depends & dep.future] == 1).all()
    assert not (dep.depends & (ahead > 1)).any()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: normalize(np.ones((2, 3)), "token"), "x"),
        (lambda: normalize(np.full((1, 2, 2), np.nan), "token"), "x"),
        (lambda: normalize(np.ones((1, 2, 2)), "instance"), "scheme"),
        (lambda: normalize(np.ones((1, 1, 2)), "batch"), "x"),
        (lambda: normalize(np.ones((1, 2, 2)), "causal", 0.0), "eps"),
        (lambda: normalize(np.ones((1, 2, 2)), "token", -1.0), "eps"),
        (lambda: jacobian_row(normalize(np.ones((1, 2, 2)), "token"), (0, 2, 0)), "entry"),
        (
            lambda: dependence(normalize(np.ones((1, 2, 2)), "token"), np.zeros((1, 2, 2))),
            "feature_jacobian",
        ),
        (
            lambda: dependence(normalize(np.ones((1, 2, 2)), "token"), np.zeros((1, 2, 2, 3)), 3),
            "first",
        ),
    ],
)
def test_bad_arguments_name_the_field(call, name: str) -> None:
    with pytest.raises(LnvizError) as err:
        call()
    assert err.value.name == name


def _torch_normalize(torch, x, scheme: str, eps: float):
    """The four schemes written with torch's own kernels (causal: cumulative sums)."""
    F = torch.nn.functional
    if scheme == "token":
        return F.layer_norm(x, x.shape[-1:], eps=eps)
    if scheme == "sequence":
        return F.instance_norm(x.transpose(1, 2), eps=eps).transpose(1, 2)
    if scheme == "batch":
        return F.batch_norm(x.transpose(1, 2), None, None, training=True, eps=eps).transpose(1, 2)
    n = torch.arange(1, x.shape[1] + 1, dtype=x.dtype)[None, :, None]
    mean = x.cumsum(1) / n
    dev = x[:, None, :, :] - mean[:, :, None, :]  # (B, T, S, F)
    mask = torch.tril(torch.ones(x.shape[1], x.shape[1], dtype=x.dtype))[None, :, :, None]
    var = (mask * dev**2).sum(2) / n
    return (x - mean) / torch.sqrt(var + eps)


@pytest.mark.torch
@pytest.mark.parametrize("scheme", SCHEMES)
def test_outputs_and_jacobian_match_torch_autograd(scheme: str) -> None:
    torch = require_module("torch")
    x, eps = sample((2, 5, 3), seed=7), 0.01
    n = normalize(x, scheme, eps)
    xt = torch.tensor(x, dtype=torch.float64)
    np.testing.assert_allclose(_torch_normalize(torch, xt, scheme, eps).numpy(), n.y, atol=1e-12)
    jac = torch.autograd.functional.jacobian(lambda v: _torch_normalize(torch, v, scheme, eps), xt)
    jac = jac.numpy()  # (B, T, F, B, T, F)
    for entry in [(0, 0, 0), (1, 2, 1), (0, 4, 2)]:
        np.testing.assert_allclose(jacobian_row(n, entry), jac[entry], atol=1e-12)
