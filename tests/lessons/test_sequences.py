"""The simulated market of lnviz.lessons.sequences: reproducible, point-in-time, one leak."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lnviz.errors import LnvizError
from lnviz.lessons.sequences import (
    FEATURES,
    HISTORY,
    LEAK,
    describe_features,
    feature_jacobian,
    features,
    market,
    simulate_returns,
)


def test_shapes_names_and_the_leak_column() -> None:
    m = market(3, 10, seed=4, window=4)
    assert m.x.shape == (3, 10, 5)
    assert m.returns.shape == m.log_price.shape == (3, HISTORY + 11)
    assert m.names == FEATURES
    np.testing.assert_array_equal(m.x[..., LEAK], m.next_return)
    np.testing.assert_array_equal(m.next_return, m.returns[:, HISTORY + 1 :])
    honest = market(3, 10, seed=4, window=4, leak=False)
    assert honest.x.shape == (3, 10, 4) and honest.names == FEATURES[:LEAK]
    np.testing.assert_array_equal(honest.x, m.x[..., :LEAK])


def test_same_seed_same_data_other_seed_other_data() -> None:
    a, b = market(2, 8, seed=11), market(2, 8, seed=11)
    np.testing.assert_array_equal(a.x, b.x)
    assert not np.array_equal(a.returns, market(2, 8, seed=12).returns)


def test_series_do_not_depend_on_batch_size_and_longer_extends_shorter() -> None:
    small, big = simulate_returns(2, 30, seed=5), simulate_returns(6, 50, seed=5)
    np.testing.assert_array_equal(small, big[:2, :30])
    np.testing.assert_array_equal(market(1, 8, seed=5).x, market(4, 8, seed=5).x[:1])
    np.testing.assert_array_equal(market(2, 8, seed=5).x, market(2, 20, seed=5).x[:, :8])


def test_returns_look_like_daily_returns_in_percent() -> None:
    r = simulate_returns(8, HISTORY + 65, seed=0)
    assert np.isfinite(r).all()
    assert 0.5 < r.std() < 2.0  # long-run daily volatility 1 %
    assert not np.array_equal(r[0], r[1])


@pytest.mark.parametrize("window", [2, 3, 5, 16])
def test_features_match_direct_loops(window: int) -> None:
    m = market(2, 12, seed=3, window=window)
    r, h = m.returns, HISTORY
    for b in range(2):
        for t in range(12):
            win = r[b, h + t - window + 1 : h + t + 1]
            expected = [
                r[b, h + t],
                win.mean(),
                win.std(),
                r[b, h + 1 : h + t + 1].sum(),
                r[b, h + t + 1],
            ]
            np.testing.assert_allclose(m.x[b, t], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("leak", "last_unchanged_offset"), [(False, 0), (True, 1)])
@pytest.mark.parametrize("shocked", [1, 5, 9])
def test_honest_features_are_point_in_time(
    leak: bool, last_unchanged_offset: int, shocked: int
) -> None:
    """Changing the return at time s leaves every token before s bit-for-bit unchanged,
    except token s - 1 when the leaky feature (which holds r(t+1)) is present."""
    m = market(2, 10, seed=8, window=5, leak=leak)
    r = m.returns.copy()
    r[1, HISTORY + shocked] += 3.0
    x2 = features(r, 10, 5, leak)
    stop = shocked - last_unchanged_offset
    np.testing.assert_array_equal(x2[:, :stop], m.x[:, :stop])
    np.testing.assert_array_equal(x2[0], m.x[0])  # other series untouched
    assert not np.array_equal(x2[1, shocked], m.x[1, shocked])
    if leak:
        changed = np.flatnonzero(x2[1, shocked - 1] != m.x[1, shocked - 1])
        assert changed.tolist() == [LEAK]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    window=st.integers(2, 16),
    leak=st.booleans(),
    column=st.integers(0, HISTORY + 8),
)
def test_feature_jacobian_matches_finite_differences(
    seed: int, window: int, leak: bool, column: int
) -> None:
    m = market(2, 8, seed=seed, window=window, leak=leak)
    g = feature_jacobian(m)
    step = 1e-6
    up, down = m.returns.copy(), m.returns.copy()
    up[1, column] += step
    down[1, column] -= step
    fd = (features(up, 8, window, leak) - features(down, 8, window, leak)) / (2 * step)
    np.testing.assert_allclose(g[1, :, :, column], fd[1], atol=1e-6)
    np.testing.assert_array_equal(fd[0], 0.0)  # no dependence across series


def test_feature_jacobian_structure_is_causal_except_the_leak() -> None:
    m = market(2, 9, seed=1, window=3)
    g = feature_jacobian(m)
    tau = np.arange(g.shape[-1]) - HISTORY  # return time of each column
    for f in range(5):
        nonzero = np.abs(g[:, :, f, :]).max(axis=0) > 0  # (T, N)
        future = tau[None, :] > np.arange(9)[:, None]
        if f == LEAK:
            assert (nonzero == (tau[None, :] == np.arange(9)[:, None] + 1)).all()
        else:
            assert not (nonzero & future).any()


def test_describe_features_follows_window_and_leak() -> None:
    rows = describe_features(7)
    assert [r[0] for r in rows] == list(FEATURES)
    assert rows[2][2] == "t−6 … t"
    assert len(describe_features(7, leak=False)) == LEAK


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: market(0, 8, 0), "batch"),
        (lambda: market(9, 8, 0), "batch"),
        (lambda: market(2, 3, 0), "tokens"),
        (lambda: market(2, 65, 0), "tokens"),
        (lambda: market(2, 8, -1), "seed"),
        (lambda: market(2, 8, 0, window=1), "window"),
        (lambda: market(2, 8, 0, window=17), "window"),
        (lambda: market(2, 8.5, 0), "tokens"),  # type: ignore[arg-type]
        (lambda: market(True, 8, 0), "batch"),  # type: ignore[arg-type]
        (lambda: simulate_returns(1, 5, 0, first=-1), "first"),
        (lambda: features(np.zeros((1, 5)), 8, 3), "returns"),
        (lambda: describe_features(0), "window"),
    ],
)
def test_bad_arguments_name_the_field(call, name: str) -> None:
    with pytest.raises(LnvizError) as err:
        call()
    assert err.value.name == name
