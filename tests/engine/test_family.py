"""lnviz.family: h_eps(t), h'_eps(t) and the sampled family for z(t) = (-t, 0, t)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz

# (t, eps, h, dh): h = t / sqrt(2 t^2 / 3 + eps), dh = eps / (2 t^2 / 3 + eps)^(3/2)
POINTS = [
    (0.0, 1.0, 0.0, 1.0),
    (0.0, 0.25, 0.0, 2.0),
    (1.0, 1 / 3, 1.0, 1 / 3),
    (-1.0, 1 / 3, -1.0, 1 / 3),
    (3.0, 3.0, 3.0 / 3.0, 3.0 / 27.0),  # 2*9/3 + 3 = 9
    (1.5, 0.0, math.sqrt(1.5), 0.0),  # eps = 0: h is the sign times sqrt(3/2)
    (-2.0, 0.0, -math.sqrt(1.5), 0.0),
]


@pytest.mark.parametrize(("t", "eps", "h", "dh"), POINTS)
def test_h_and_dh_values(t, eps, h, dh) -> None:
    assert math.isclose(float(lnviz.h(t, eps)), h, rel_tol=1e-15, abs_tol=1e-300)
    assert math.isclose(float(lnviz.dh(t, eps)), dh, rel_tol=1e-15, abs_tol=1e-300)


def test_h_odd_dh_even_and_h_increasing() -> None:
    t = np.linspace(0, 8, 33)
    for eps in (1e-4, 0.5, 9.0):
        np.testing.assert_array_equal(lnviz.h(-t, eps), -lnviz.h(t, eps))
        np.testing.assert_array_equal(lnviz.dh(-t, eps), lnviz.dh(t, eps))
        assert np.all(np.diff(lnviz.h(t, eps)) > 0)
        assert np.all(lnviz.dh(t, eps) > 0)
        assert np.all(np.diff(lnviz.dh(t, eps)) < 0)  # the slope peaks at t = 0


def test_h_at_zero_with_eps_zero_is_undefined() -> None:
    assert np.isnan(lnviz.h([0.0], 0.0)).all()
    fam = lnviz.epsilon_family(0.0, 2.0, 5)
    assert fam.peak_slope == math.inf
    assert np.isnan(fam.h[fam.t == 0]).all()


def test_h_shape_follows_t() -> None:
    t = np.arange(6.0).reshape(2, 3)
    assert lnviz.h(t, 1.0).shape == (2, 3)
    assert lnviz.dh(t, 1.0).shape == (2, 3)
    assert lnviz.h(2.0, 1.0).shape == ()


@pytest.mark.parametrize(("eps", "t_max", "n"), [(1.0, 3.0, 5), (0.01, 5.0, 401), (2.0, 0.5, 4)])
def test_epsilon_family_grid(eps, t_max, n) -> None:
    fam = lnviz.epsilon_family(eps, t_max, n)
    assert fam.eps == eps
    assert fam.t.shape == fam.h.shape == fam.dh.shape == (n,)
    assert fam.t[0] == -t_max
    assert fam.t[-1] == t_max
    assert np.all(np.diff(fam.t) > 0)
    np.testing.assert_allclose(fam.t, -fam.t[::-1], atol=1e-15)  # symmetric about 0
    if n % 2:
        assert 0.0 in fam.t
    np.testing.assert_allclose(fam.h, lnviz.h(fam.t, eps), atol=0)
    np.testing.assert_allclose(fam.dh, lnviz.dh(fam.t, eps), atol=0)
    assert fam.asymptote == math.sqrt(1.5)
    assert math.isclose(fam.peak_slope, 1 / math.sqrt(eps), rel_tol=1e-15)
    assert np.all(fam.dh <= fam.peak_slope * (1 + 1e-15))


def test_epsilon_family_default_grid() -> None:
    fam = lnviz.epsilon_family(0.5)
    assert fam.t[0] == -5.0
    assert fam.t[-1] == 5.0
    assert fam.t.size >= 3
