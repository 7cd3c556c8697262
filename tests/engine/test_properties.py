"""Property tests (hypothesis) of the seeds' identities, on bounded random inputs.

Tolerances scale with the magnitudes involved: an entry of z carries a rounding error of
about |z| * 2^-52, and the core divides it by sqrt(q + eps).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lnviz

EPS64 = float(np.finfo(np.float64).eps)
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)

dims = st.integers(min_value=2, max_value=12)
epsilons = st.floats(min_value=1e-6, max_value=1e2)
scales = st.floats(min_value=1e-2, max_value=1e2)


@st.composite
def vectors(draw, lo: float = -1e3, hi: float = 1e3, d=None) -> np.ndarray:
    n = draw(dims) if d is None else d
    return draw(arrays(np.float64, n, elements=st.floats(lo, hi, allow_subnormal=False)))


@st.composite
def weights(draw) -> np.ndarray:
    n = draw(dims)
    a = draw(arrays(np.float64, n, elements=st.floats(0.0, 10.0, allow_subnormal=False)))
    assume(a.sum() > 1e-3)
    return a


def _tol(z: np.ndarray, eps: float, extra: float = 0.0) -> float:
    """Rounding bound for the core: magnitudes of the inputs over sqrt(q + eps)."""
    q = float(np.var(z))
    mag = float(np.abs(z).max()) + extra
    return 64 * EPS64 * math.sqrt(z.size) * (mag + 1.0) / math.sqrt(q + eps) + 1e-13


@SETTINGS
@given(z=vectors(), c=st.floats(-1e4, 1e4), eps=epsilons)
def test_common_shift_invariance(z, c, eps) -> None:
    tol = _tol(z, eps, abs(c))
    np.testing.assert_allclose(
        lnviz.normalized_core(z + c, eps), lnviz.normalized_core(z, eps), rtol=0, atol=tol
    )
    d = z.size
    np.testing.assert_allclose(
        lnviz.layer_norm(z + c, d, eps=eps), lnviz.layer_norm(z, d, eps=eps), rtol=0, atol=tol
    )


@SETTINGS
@given(
    z=arrays(np.float64, st.integers(2, 12), elements=st.integers(-1000, 1000).map(float)),
    c=st.integers(-(10**6), 10**6).map(float),
    eps=epsilons,
)
def test_common_shift_invariance_is_exact_when_shift_is_exact(z, c, eps) -> None:
    """Integer data: z + c is exact, so the core is bit-for-bit unchanged (C9)."""
    np.testing.assert_array_equal(lnviz.normalized_core(z + c, eps), lnviz.normalized_core(z, eps))


@SETTINGS
@given(z=vectors(), eps=epsilons, a=scales)
def test_scaling_identity(z, eps, a) -> None:
    s = lnviz.scaling_identity(z, eps, a)
    q = float(np.var(z))
    tol = 64 * EPS64 * math.sqrt(z.size) * (float(np.abs(z).max()) + 1) / math.sqrt(q + eps / a**2)
    assert s.identity_error <= tol + 1e-13
    np.testing.assert_allclose(
        lnviz.normalized_core(a * z, eps),
        lnviz.normalized_core(z, eps / a**2),
        rtol=0,
        atol=tol + 1e-13,
    )


@SETTINGS
@given(z=vectors(), eps=epsilons)
def test_core_mean_zero_and_variance(z, eps) -> None:
    r = lnviz.analyze_core(z, eps)
    u = r.core
    tol = _tol(z, eps)
    assert abs(u.mean()) <= tol
    expected = float(r.q) / (float(r.q) + eps)
    assert math.isclose(float(np.mean(u**2)), expected, rel_tol=1e-10, abs_tol=tol)
    assert math.isclose(float(r.core_var), expected, rel_tol=1e-15)
    assert np.all(np.abs(u) <= math.sqrt(z.size - 1) * (1 + 1e-12))  # |u_i| <= sqrt(d - 1)


@SETTINGS
@given(z=vectors(-10.0, 10.0), eps=st.floats(1e-2, 10.0))
def test_jacobian_against_central_differences(z, eps) -> None:
    jac = lnviz.jacobian(z, eps)
    step = 1e-5
    eye = np.eye(z.size)
    fd = np.column_stack(
        [
            (lnviz.normalized_core(z + step * e, eps) - lnviz.normalized_core(z - step * e, eps))
            / (2 * step)
            for e in eye
        ]
    )
    # truncation ~ step^2 * eps^(-3/2), rounding ~ 2^-52 * 10 / step
    np.testing.assert_allclose(jac, fd, rtol=0, atol=1e-6 * max(1.0, eps**-1.5))


@SETTINGS
@given(z=vectors(-50.0, 50.0), eps=epsilons)
def test_three_eigenvalues_and_operator_norm(z, eps) -> None:
    spec = lnviz.jacobian_spectrum(z, eps)
    d = z.size
    v = z - z.mean()
    s = float(v @ v) / d + eps
    bound = eps**-0.5
    if np.ptp(z) > 0:
        expected = [0.0, eps / s**1.5] + [s**-0.5] * (d - 2)
    else:
        expected = [0.0] + [s**-0.5] * (d - 1)
    atol = 1e-11 * bound
    np.testing.assert_allclose(spec.eigenvalues, np.sort(expected), rtol=1e-9, atol=atol)
    for direction in spec.directions:
        np.testing.assert_allclose(direction.measured, direction.value, rtol=1e-9, atol=atol)
    assert spec.operator_norm <= bound * (1 + 1e-12)
    assert np.linalg.norm(spec.matrix, 2) <= bound * (1 + 1e-12)
    np.testing.assert_allclose(spec.matrix @ np.ones(d), 0.0, atol=atol * d)


@SETTINGS
@given(z1=vectors(-20.0, 20.0, d=5), z2=vectors(-20.0, 20.0, d=5), eps=epsilons)
def test_core_is_lipschitz_with_constant_eps_to_minus_half(z1, z2, eps) -> None:
    gap = np.linalg.norm(lnviz.normalized_core(z1, eps) - lnviz.normalized_core(z2, eps))
    assert gap <= eps**-0.5 * np.linalg.norm(z1 - z2) * (1 + 1e-9) + 1e-12


@SETTINGS
@given(a=weights(), data=st.data())
def test_weighted_centering_projection(a, data) -> None:
    n = a.size
    w = a / a.sum()
    p = lnviz.weighted_centering_matrix(a)
    atol = 1e-12
    np.testing.assert_allclose(p @ p, p, atol=atol)  # idempotent
    np.testing.assert_allclose(p @ np.ones(n), 0.0, atol=atol)  # P_a 1 = 0
    np.testing.assert_allclose(w @ p, 0.0, atol=atol)  # range in ker a^T
    assert np.linalg.matrix_rank(p) == n - 1
    dp = np.diag(w) @ p
    np.testing.assert_allclose(dp, dp.T, atol=atol)  # D-symmetric
    np.testing.assert_allclose(dp, np.diag(w) - np.outer(w, w), atol=atol)
    # every y with zero weighted mean is fixed: range = ker a^T
    y = data.draw(arrays(np.float64, n, elements=st.floats(-100, 100, allow_subnormal=False)))
    y0 = y - (w @ y) / (w @ w) * w
    np.testing.assert_allclose(p @ y0, y0, atol=1e-10)
    r = lnviz.weighted_centering(a, y)
    np.testing.assert_allclose(r.centered, y - (w @ y), atol=1e-12)
    assert abs(r.weighted_mean) <= 1e-12 * (1 + np.abs(y).max())
    assert r.rank == n - 1
    assert r.degenerate == bool((a == 0).any())
