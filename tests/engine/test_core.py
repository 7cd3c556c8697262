"""lnviz.core: analyze_core, normalized_core, core_variance_ratio, affine_stages, scaling."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz

S32 = math.sqrt(1.5)

# (z, eps, mu, q, core)
CORE_CASES = [
    ([1.0, 2.0, 3.0], 1 / 3, 2.0, 2 / 3, [-1.0, 0.0, 1.0]),
    ([1.0, 2.0, 3.0], 4 / 3, 2.0, 2 / 3, [-1 / math.sqrt(2), 0.0, 1 / math.sqrt(2)]),
    ([1.0, 2.0, 3.0], 0.0, 2.0, 2 / 3, [-S32, 0.0, S32]),
    ([101.0, 102.0, 103.0], 1 / 3, 102.0, 2 / 3, [-1.0, 0.0, 1.0]),
    (
        [1.0, 2.0, 4.0],
        1 / 3,
        7 / 3,
        14 / 9,
        [-4 / math.sqrt(17), -1 / math.sqrt(17), 5 / math.sqrt(17)],
    ),
    ([3.0, 5.0], 0.0, 4.0, 1.0, [-1.0, 1.0]),
    ([3.0, 5.0], 3.0, 4.0, 1.0, [-0.5, 0.5]),
    ([7.0], 1.0, 7.0, 0.0, [0.0]),
    ([2, 2, 2, 2], 0.5, 2.0, 0.0, [0.0, 0.0, 0.0, 0.0]),
]


@pytest.mark.parametrize(("z", "eps", "mu", "q", "core"), CORE_CASES)
def test_analyze_core_cases(z, eps, mu, q, core) -> None:
    r = lnviz.analyze_core(z, eps)
    assert r.eps == eps
    assert math.isclose(float(r.mu), mu, rel_tol=1e-15)
    assert math.isclose(float(r.q), q, rel_tol=1e-14, abs_tol=0.0)
    np.testing.assert_allclose(r.core, core, rtol=0, atol=1e-15)
    np.testing.assert_allclose(r.v, np.asarray(z, dtype=float) - mu, atol=1e-14)
    np.testing.assert_allclose(lnviz.normalized_core(z, eps), core, rtol=0, atol=1e-15)
    assert r.finite
    assert r.z.dtype == np.float64


def test_analyze_core_is_batched_over_leading_axes() -> None:
    rng = np.random.default_rng(0)
    z = rng.standard_normal((3, 4, 5)) * 4
    r = lnviz.analyze_core(z, 0.2)
    assert r.core.shape == (3, 4, 5)
    assert r.mu.shape == r.q.shape == r.core_var.shape == (3, 4)
    for idx in [(0, 0), (2, 3), (1, 1)]:
        one = lnviz.analyze_core(z[idx], 0.2)
        np.testing.assert_allclose(r.core[idx], one.core, atol=1e-15)
        assert math.isclose(float(r.q[idx]), float(one.q), rel_tol=1e-15)
    np.testing.assert_allclose(r.core, lnviz.layer_norm(z, 5, eps=0.2), atol=1e-13)


def test_analyze_core_float32_input_computed_in_float64() -> None:
    z = np.array([0.1, 0.7, -0.3], dtype=np.float32)
    r = lnviz.analyze_core(z, 1e-3)
    assert r.core.dtype == np.float64
    zz = z.astype(np.float64)
    np.testing.assert_allclose(r.core, (zz - zz.mean()) / math.sqrt(zz.var() + 1e-3), atol=1e-15)


@pytest.mark.parametrize(
    ("r", "expected"), [(0.0, 0.0), (1.0, 0.5), (3.0, 0.75), (9.0, 0.9), (1e12, 1.0 - 1e-12)]
)
def test_core_variance_ratio(r, expected) -> None:
    assert math.isclose(float(lnviz.core_variance_ratio([r])[0]), expected, rel_tol=1e-12)


def test_affine_stages_fields() -> None:
    st = lnviz.affine_stages([1.0, 2.0, 3.0], [2.0, -3.0, 1.0], [1.0, 0.0, -1.0], eps=1 / 3)
    assert [s.name for s in st.stages] == ["input z", "core u", "output y"]
    assert st.input.mean == 2.0
    assert math.isclose(st.input.var, 2 / 3, rel_tol=1e-15)
    np.testing.assert_allclose(st.core.values, [-1.0, 0.0, 1.0], atol=1e-15)
    np.testing.assert_allclose(st.output.values, [-1.0, 0.0, 0.0], atol=1e-15)
    assert math.isclose(st.q, 2 / 3, rel_tol=1e-15)
    assert math.isclose(st.core_lipschitz, math.sqrt(3), rel_tol=1e-15)
    assert math.isclose(st.output_lipschitz, 3 * math.sqrt(3), rel_tol=1e-15)
    assert not st.constant_input
    assert st.defined


def test_affine_stages_defaults_and_zero_gain() -> None:
    st = lnviz.affine_stages([0.0, 4.0], eps=1.0)
    np.testing.assert_array_equal(st.gamma, [1.0, 1.0])
    np.testing.assert_array_equal(st.beta, [0.0, 0.0])
    np.testing.assert_allclose(st.output.values, st.core.values)
    zero = lnviz.affine_stages([0.0, 4.0], [0.0, 0.0], [1.0, 2.0], eps=0.0)
    assert zero.output_lipschitz == 0.0  # no gain: the output is constant
    assert zero.core_lipschitz == math.inf


@pytest.mark.parametrize(
    "z", [[2.0, 2.0, 2.0], [0.1, 0.1, 0.1], [0.1] * 7, [-1e6 - 0.3] * 4, [5.0], [1e-300] * 3]
)
def test_eps_zero_constant_input_is_flagged_undefined(z) -> None:
    core = lnviz.analyze_core(z, 0.0)
    assert not core.finite
    assert np.isnan(core.core).all()
    assert np.isnan(core.core_var)
    assert core.q == 0.0
    st = lnviz.affine_stages(z, None, np.arange(len(z), dtype=float), eps=0.0)
    assert not st.defined
    assert st.constant_input
    assert np.isnan(st.output.values).all()
    # eps > 0 defines it: core 0, output beta
    ok = lnviz.affine_stages(z, None, np.arange(len(z), dtype=float), eps=1e-8)
    assert ok.defined
    np.testing.assert_array_equal(ok.output.values, np.arange(len(z), dtype=float))


def test_eps_zero_flags_in_a_batch() -> None:
    r = lnviz.analyze_core([[1.0, 1.0], [1.0, 2.0]], 0.0)
    assert not r.finite
    assert np.isnan(r.core[0]).all()
    np.testing.assert_allclose(r.core[1], [-1.0, 1.0])


# (z, eps, a)
SCALING_CASES = [
    ([1.0, 2.0, 3.0], 1 / 3, 2.0),
    ([1.0, 2.0, 3.0], 1 / 3, 0.5),
    ([-5.0, 0.1, 2.0, 2.0], 1e-3, 10.0),
    ([0.0, 1.0], 4.0, 1e-2),
]


@pytest.mark.parametrize(("z", "eps", "a"), SCALING_CASES)
def test_scaling_identity_cases(z, eps, a) -> None:
    s = lnviz.scaling_identity(z, eps, a)
    assert s.a == a
    assert s.eps == eps
    np.testing.assert_allclose(s.core_z, lnviz.normalized_core(z, eps), atol=0)
    np.testing.assert_allclose(s.core_az, lnviz.normalized_core(np.multiply(a, z), eps), atol=0)
    np.testing.assert_allclose(s.core_rescaled_eps, lnviz.normalized_core(z, eps / a**2), atol=0)
    assert s.identity_error < 1e-13
    assert math.isclose(s.change, float(np.abs(s.core_az - s.core_z).max()), rel_tol=1e-15)
    assert not s.invariant
    # a > 1 shrinks the effective eps: the scaled core is larger in magnitude
    bigger = np.abs(s.core_az).max() > np.abs(s.core_z).max()
    assert bigger == (a > 1)


@pytest.mark.parametrize(
    "fn",
    [
        lambda z, g, b: lnviz.analyze_core(z, 0.1),
        lambda z, g, b: lnviz.affine_stages(z, g, b, 0.1),
        lambda z, g, b: lnviz.scaling_identity(z, 0.1, 3.0),
        lambda z, g, b: lnviz.jacobian_spectrum(z, 0.1, g),
        lambda z, g, b: lnviz.compare_shift(z, g, 0.1),
    ],
    ids=["analyze_core", "affine_stages", "scaling_identity", "jacobian_spectrum", "compare_shift"],
)
def test_single_vector_functions_do_not_mutate(fn) -> None:
    z, g, b = np.array([1.0, 5.0, 2.0]), np.array([2.0, 1.0, -1.0]), np.array([0.0, 1.0, 3.0])
    copies = [a.copy() for a in (z, g, b)]
    for a in (z, g, b):
        a.setflags(write=False)
    fn(z, g, b)
    for a, c in zip((z, g, b), copies, strict=True):
        np.testing.assert_array_equal(a, c)
