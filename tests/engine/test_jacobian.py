"""lnviz.jacobian: centering matrix, Du_eps(z) and its labelled spectrum."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz


@pytest.mark.parametrize("d", [1, 2, 3, 10, 512])
def test_centering_matrix(d) -> None:
    p = lnviz.centering_matrix(d)
    assert p.shape == (d, d)
    if d <= 10:
        np.testing.assert_allclose(p @ p, p, atol=1e-15)
        z = np.arange(d, dtype=float) ** 2
        np.testing.assert_allclose(p @ z, z - z.mean(), atol=1e-13)
    np.testing.assert_array_equal(p, p.T)
    np.testing.assert_allclose(p.sum(axis=1), 0.0, atol=1e-12)  # P 1 = 0
    assert math.isclose(np.trace(p), d - 1, rel_tol=1e-12, abs_tol=1e-12)


def test_centering_matrix_accepts_numpy_int() -> None:
    np.testing.assert_array_equal(lnviz.centering_matrix(np.int64(3)), lnviz.centering_matrix(3))


def test_jacobian_cases() -> None:
    np.testing.assert_allclose(lnviz.jacobian([5.0, 5.0], 0.25), [[1.0, -1.0], [-1.0, 1.0]])
    # d = 2, eps = 0: u is (-1, 1) or (1, -1), locally constant, so Du = 0
    np.testing.assert_allclose(lnviz.jacobian([0.0, 2.0], 0.0), np.zeros((2, 2)), atol=1e-16)
    # z = (0, 2), eps = 1: q = 1, s = 2, v v^T = 2P, so Du = (P - 2P / 4) / sqrt 2 = P / (2 sqrt 2)
    expected = lnviz.centering_matrix(2) / (2 * math.sqrt(2))
    np.testing.assert_allclose(lnviz.jacobian([0.0, 2.0], 1.0), expected, atol=1e-15)
    # the untitled note's toy: z = (1, 2, 3), eps = 1/3, s = 1: Du = P - v v^T / 3
    v = np.array([-1.0, 0.0, 1.0])
    expected3 = lnviz.centering_matrix(3) - np.outer(v, v) / 3
    np.testing.assert_allclose(lnviz.jacobian([1.0, 2.0, 3.0], 1 / 3), expected3, atol=1e-15)


def test_spectrum_toy_numbers() -> None:
    s = lnviz.jacobian_spectrum([1.0, 2.0, 3.0], 1 / 3, gamma=[1.0, -4.0, 2.0])
    values = {dr.label: dr.value for dr in s.directions}
    assert values["common offset"] == 0.0
    assert math.isclose(values["radial"], 1 / 3, rel_tol=1e-14)
    assert math.isclose(values["tangential"], 1.0, rel_tol=1e-14)
    np.testing.assert_allclose(s.eigenvalues, [0.0, 1 / 3, 1.0], atol=1e-15)
    assert math.isclose(s.operator_norm, 1.0, rel_tol=1e-14)
    assert math.isclose(s.core_bound, math.sqrt(3), rel_tol=1e-15)
    assert math.isclose(s.output_bound, 4 * math.sqrt(3), rel_tol=1e-15)
    assert s.q == pytest.approx(2 / 3, rel=1e-15)
    assert not s.attained
    for dr in s.directions:
        assert dr.formula  # a LaTeX string for the page


def test_spectrum_directions_by_case() -> None:
    # d = 2, nonconstant: only offset and radial
    s2 = lnviz.jacobian_spectrum([0.0, 1.0], 0.5)
    assert [dr.label for dr in s2.directions] == ["common offset", "radial"]
    # constant input: no radial direction, tangential is everything centred
    sc = lnviz.jacobian_spectrum([2.0, 2.0, 2.0, 2.0], 0.04)
    assert [dr.label for dr in sc.directions] == ["common offset", "tangential"]
    assert sc.directions[1].basis.shape == (4, 3)
    np.testing.assert_allclose(sc.directions[1].measured, 5.0, rtol=1e-12)
    assert sc.attained
    # eps = 0, nonconstant: bound infinite, never attained; radial eigenvalue 0
    s0 = lnviz.jacobian_spectrum([1.0, 2.0, 4.0], 0.0)
    assert s0.core_bound == math.inf
    assert not s0.attained
    assert s0.directions[1].value == 0.0
    np.testing.assert_allclose(s0.directions[1].measured, 0.0, atol=1e-15)


def test_jacobian_matches_finite_differences_of_layer_norm() -> None:
    rng = np.random.default_rng(8)
    z = rng.standard_normal(6)
    eps = 0.3
    jac = lnviz.jacobian(z, eps)
    step = 1e-6
    for j in range(6):
        e = np.zeros(6)
        e[j] = step
        col = (lnviz.layer_norm(z + e, 6, eps=eps) - lnviz.layer_norm(z - e, 6, eps=eps)) / (
            2 * step
        )
        np.testing.assert_allclose(jac[:, j], col, atol=1e-8)


@pytest.mark.parametrize("scale", [1.0, 1e-155, 1e-160])
def test_spectrum_basis_is_orthonormal_for_tiny_spread(scale) -> None:
    """|v|^2 underflows for tiny spreads: the radial unit vector must still have length 1."""
    s = lnviz.jacobian_spectrum(np.array([1.0, 0.0, -2.0]) * scale, 1.0)
    for direction in s.directions:
        b = direction.basis
        np.testing.assert_allclose(b.T @ b, np.eye(b.shape[1]), atol=1e-14)
        np.testing.assert_allclose(direction.measured, direction.value, rtol=1e-12, atol=1e-15)
