"""Every checkable claim of the seeds (shared/seeds/CLAIMS.md), one test per claim id.

Notation as in CLAIMS.md: z in R^d, mu = mean(z), v = z - mu 1, q = |v|^2 / d (population
variance), u_eps(z) = v / sqrt(q + eps), y = gamma * u_eps(z) + beta.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import lnviz

SQRT2 = math.sqrt(2.0)
SQRT17 = math.sqrt(17.0)
SQRT_3_2 = math.sqrt(1.5)
RNG_SEEDS = (0, 1, 2, 3)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


# --------------------------------------------------------------------------- definitions


def test_D1_core_and_affine_output_follow_the_definition() -> None:
    z = np.array([0.5, -1.0, 2.0, 4.0])
    gamma, beta, eps = np.array([1.0, -2.0, 0.5, 3.0]), np.array([0.0, 1.0, -1.0, 2.0]), 0.7
    v = z - z.mean()
    q = (v**2).sum() / z.size
    expected_core = v / math.sqrt(q + eps)  # eps inside the square root, added to q
    np.testing.assert_allclose(lnviz.normalized_core(z, eps), expected_core, rtol=0, atol=1e-15)
    st = lnviz.affine_stages(z, gamma, beta, eps)
    np.testing.assert_allclose(st.output.values, gamma * expected_core + beta, atol=1e-15)
    ln = lnviz.layer_norm(z, z.size, gamma, beta, eps)
    np.testing.assert_allclose(ln, gamma * expected_core + beta, atol=1e-14)
    # the other placement, v / (sqrt(q) + eps), is *not* what is computed
    assert not np.allclose(ln, gamma * v / (math.sqrt(q) + eps) + beta, atol=1e-3)


def test_D2_statistics_come_from_the_current_input_only() -> None:
    """No running averages: layer norm of one input does not depend on earlier calls."""
    z = np.array([[1.0, 2.0, 4.0]])
    first = lnviz.layer_norm(z, 3)
    for other in ([[100.0, -50.0, 3.0]], [[0.0, 0.0, 1e6]]):
        lnviz.layer_norm(np.array(other), 3)
    np.testing.assert_array_equal(lnviz.layer_norm(z, 3), first)


def test_D3_token_wise_statistics_ignore_the_rest_of_the_batch() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5))
    base = lnviz.layer_norm(x, 5)
    x2 = x.copy()
    x2[0, 1] += 1000.0 * rng.standard_normal(5)  # change one (batch, token) row only
    x2[2] += 3.0  # and shift a whole other batch member by a common amount per row
    out = lnviz.layer_norm(x2, 5)
    changed = ~np.isclose(out, base, rtol=0, atol=1e-12).all(axis=-1)  # (B, T)
    expected = np.zeros((3, 4), dtype=bool)
    expected[0, 1] = True
    np.testing.assert_array_equal(changed, expected)
    # each row equals the single-vector core of that row
    for b, t in [(0, 0), (1, 3), (2, 2)]:
        np.testing.assert_allclose(base[b, t], lnviz.normalized_core(x[b, t], 1e-5), atol=1e-12)


# --------------------------------------------------------------------------- C1 - C14


@pytest.mark.parametrize("const", [0.0, 5.0, -3.75, 0.1, 1e6 + 0.3, -7e-9])
@pytest.mark.parametrize("d", [1, 2, 3, 17])
def test_C1_constant_input_gives_beta(const: float, d: int) -> None:
    eps = 1e-5
    z = np.full(d, const)
    gamma = np.linspace(-2.0, 3.0, d)
    beta = np.arange(d, dtype=float) - 0.5
    core = lnviz.analyze_core(z, eps)
    assert np.all(core.v == 0.0)
    assert core.q == 0.0
    assert np.all(core.core == 0.0)
    st = lnviz.affine_stages(z, gamma, beta, eps)
    assert st.constant_input
    assert st.defined
    np.testing.assert_array_equal(st.output.values, beta)
    # the framework kernel too: a constant row centres to exactly 0, so the output is beta
    np.testing.assert_array_equal(lnviz.layer_norm(z, d, gamma, beta, eps), beta)


@pytest.mark.parametrize(
    ("z", "eps"),
    [
        ([1.0, 2.0, 3.0], 1 / 3),
        ([1.0, 2.0, 3.0], 2 / 3),  # q = eps: variance 1/2
        ([0.0, 10.0, -4.0, 7.5], 1e-5),
        ([1.0, 1.001], 1e3),
        ([3.0, -1.0, 2.0, 0.0, 5.0], 0.0),
    ],
)
def test_C2_core_mean_zero_and_variance_q_over_q_plus_eps(z: list[float], eps: float) -> None:
    r = lnviz.analyze_core(z, eps)
    assert abs(r.core.mean()) < 1e-15
    expected = r.q / (r.q + eps)
    assert math.isclose(r.core.var(), expected, rel_tol=1e-12)  # np.var: divisor d
    assert math.isclose(float(r.core_var), expected, rel_tol=1e-15)


def test_C2_variance_ratio_limits() -> None:
    ratio = lnviz.core_variance_ratio([0.0, 1e-12, 1.0, 3.0, 1e12])
    assert ratio[0] == 0.0
    assert ratio[1] < 1e-11  # -> 0 as q/eps -> 0
    assert ratio[2] == 0.5  # = 1/2 at q = eps
    assert ratio[3] == 0.75
    assert 1 - ratio[4] < 1e-11  # -> 1 as q/eps -> inf
    assert np.all(np.diff(ratio) > 0)
    q = lnviz.analyze_core([1.0, 2.0, 3.0], 2 / 3)  # q = 2/3 = eps
    assert math.isclose(float(q.core_var), 0.5, rel_tol=1e-15)


@pytest.mark.parametrize(
    ("eps", "expected"),
    [
        (1 / 3, [-1.0, 0.0, 1.0]),
        (4 / 3, [-1 / SQRT2, 0.0, 1 / SQRT2]),
        (0.0, [-SQRT_3_2, 0.0, SQRT_3_2]),
    ],
)
def test_C3_eps_changes_the_core(eps: float, expected: list[float]) -> None:
    z = [1.0, 2.0, 3.0]
    np.testing.assert_allclose(lnviz.normalized_core(z, eps), expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(lnviz.layer_norm(z, 3, eps=eps), expected, rtol=0, atol=1e-15)


def test_C3_the_two_cores_differ_by_sqrt2() -> None:
    a = lnviz.normalized_core([1.0, 2.0, 3.0], 1 / 3)
    b = lnviz.normalized_core([1.0, 2.0, 3.0], 4 / 3)
    np.testing.assert_allclose(a, b * SQRT2, atol=1e-15)
    assert not np.allclose(a, b)


@pytest.mark.parametrize("a", [0.01, 0.5, 2.0, 37.0])
@pytest.mark.parametrize("eps", [1e-3, 1 / 3, 5.0])
def test_C4_no_exact_scale_invariance_with_positive_eps(a: float, eps: float) -> None:
    z = np.array([1.0, 2.0, 4.0, -0.5])
    s = lnviz.scaling_identity(z, eps, a)
    v = z - z.mean()
    q = v.var()
    np.testing.assert_allclose(s.core_az, a * v / math.sqrt(a * a * q + eps), atol=1e-13)
    assert s.identity_error < 1e-13  # u_eps(a z) = u_{eps/a^2}(z)
    assert s.change > 1e-6  # ... but not u_eps(z): a != 1, q > 0, eps > 0
    assert not s.invariant


def test_C4_scale_invariance_holds_at_a_equal_1_eps_0_or_constant_input() -> None:
    z = [1.0, 2.0, 4.0, -0.5]
    assert lnviz.scaling_identity(z, 0.1, 1.0).change == 0.0
    for a in (1e-3, 0.5, 3.0, 1e4):
        s0 = lnviz.scaling_identity(z, 0.0, a)
        assert s0.invariant
        assert s0.change < 1e-12
        assert lnviz.scaling_identity([2.0, 2.0, 2.0], 0.1, a).change == 0.0  # q = 0


@pytest.mark.parametrize(
    ("z", "eps"),
    [([1.0, 2.0, 3.0], 1 / 3), ([0.3, -1.2, 5.0, 2.2, 2.2], 0.05), ([4.0, 4.0, 4.0], 0.25)],
)
def test_C5_jacobian_formula(z: list[float], eps: float) -> None:
    zv = np.array(z)
    d = zv.size
    v = zv - zv.mean()
    q = v @ v / d
    p = np.eye(d) - np.ones((d, d)) / d
    expected = (p - np.outer(v, v) / (d * (q + eps))) / math.sqrt(q + eps)
    jac = lnviz.jacobian(zv, eps)
    np.testing.assert_allclose(jac, expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(jac, jac.T, rtol=0, atol=0)  # symmetric
    # central differences, column by column
    step = 1e-6
    fd = np.column_stack(
        [
            (lnviz.normalized_core(zv + step * e, eps) - lnviz.normalized_core(zv - step * e, eps))
            / (2 * step)
            for e in np.eye(d)
        ]
    )
    np.testing.assert_allclose(jac, fd, rtol=0, atol=1e-8)


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_C6_eigenvalues(seed: int) -> None:
    rng = np.random.default_rng(seed)
    d = 3 + seed
    z = rng.standard_normal(d) * 2
    eps = float(rng.uniform(0.01, 2.0))
    v = z - z.mean()
    q = v @ v / d
    s = q + eps
    jac = lnviz.jacobian(z, eps)
    ones = np.ones(d)
    np.testing.assert_allclose(jac @ ones, 0.0, atol=1e-14)  # 1 -> 0
    np.testing.assert_allclose(jac @ v, eps / s**1.5 * v, atol=1e-14)  # radial
    # a direction orthogonal to 1 and v
    w = rng.standard_normal(d)
    basis = np.linalg.qr(np.column_stack([ones, v]))[0]
    w -= basis @ (basis.T @ w)
    np.testing.assert_allclose(jac @ w, w / math.sqrt(s), atol=1e-13)
    expected = np.sort([0.0, eps / s**1.5] + [1 / math.sqrt(s)] * (d - 2))
    np.testing.assert_allclose(np.linalg.eigvalsh(jac), expected, atol=1e-13)
    spec = lnviz.jacobian_spectrum(z, eps)
    np.testing.assert_allclose(spec.eigenvalues, expected, atol=1e-13)
    assert [dr.label for dr in spec.directions] == ["common offset", "radial", "tangential"]
    for direction in spec.directions:
        np.testing.assert_allclose(direction.measured, direction.value, atol=1e-13)
        assert direction.basis.shape[0] == d
        np.testing.assert_allclose(
            direction.basis.T @ direction.basis, np.eye(direction.basis.shape[1]), atol=1e-13
        )
    assert sum(dr.basis.shape[1] for dr in spec.directions) == d


@pytest.mark.parametrize(("d", "eps"), [(2, 0.25), (3, 1.0), (6, 1e-4)])
def test_C6_constant_input_jacobian_is_P_over_sqrt_eps(d: int, eps: float) -> None:
    jac = lnviz.jacobian(np.full(d, -2.5), eps)
    np.testing.assert_allclose(jac, lnviz.centering_matrix(d) / math.sqrt(eps), atol=1e-12)


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_C7_operator_norm_bound_and_lipschitz(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    d = 2 + 2 * seed
    eps = float(10 ** rng.uniform(-3, 1))
    gamma = rng.uniform(-3, 3, d)
    bound = eps**-0.5
    for _ in range(20):
        z = rng.standard_normal(d) * rng.uniform(0.01, 5)
        spec = lnviz.jacobian_spectrum(z, eps, gamma)
        assert spec.operator_norm <= bound * (1 + 1e-12)
        assert math.isclose(spec.core_bound, bound, rel_tol=1e-15)
        assert math.isclose(spec.output_bound, np.abs(gamma).max() * bound, rel_tol=1e-15)
        assert np.linalg.norm(lnviz.jacobian(z, eps), 2) <= bound * (1 + 1e-12)
        z2 = z + rng.standard_normal(d) * rng.uniform(1e-3, 3)
        gap_in = np.linalg.norm(z2 - z)
        gap_core = np.linalg.norm(lnviz.normalized_core(z2, eps) - lnviz.normalized_core(z, eps))
        assert gap_core <= bound * gap_in * (1 + 1e-12)
        y1 = lnviz.layer_norm(z, d, gamma, None, eps)
        y2 = lnviz.layer_norm(z2, d, gamma, None, eps)
        assert np.linalg.norm(y2 - y1) <= np.abs(gamma).max() * bound * gap_in * (1 + 1e-9)


@pytest.mark.parametrize(("d", "eps"), [(2, 0.25), (3, 1e-2), (8, 4.0)])
def test_C7_bound_attained_at_constant_input_in_centered_directions(d: int, eps: float) -> None:
    z = np.full(d, 1.5)
    spec = lnviz.jacobian_spectrum(z, eps)
    assert spec.attained
    assert math.isclose(spec.operator_norm, eps**-0.5, rel_tol=1e-12)
    w = np.arange(d, dtype=float) ** 2
    w -= w.mean()  # centered direction
    assert math.isclose(
        np.linalg.norm(spec.matrix @ w), np.linalg.norm(w) / math.sqrt(eps), rel_tol=1e-12
    )
    # finite differences: the core moves eps^(-1/2) times as far as the input
    t = 1e-7 * _unit(w)
    moved = np.linalg.norm(lnviz.normalized_core(z + t, eps) - lnviz.normalized_core(z, eps))
    assert math.isclose(moved, 1e-7 / math.sqrt(eps), rel_tol=1e-6)
    # away from constant inputs the bound is not attained
    assert not lnviz.jacobian_spectrum(np.arange(d, dtype=float), eps).attained


def test_C7_d_equal_1_bound_not_attained() -> None:
    spec = lnviz.jacobian_spectrum([3.0], 0.5)
    assert spec.operator_norm == 0.0
    assert not spec.attained


@pytest.mark.parametrize("eps", [1e-2, 1 / 3, 1.0, 7.0])
def test_C8_family_h_and_dh(eps: float) -> None:
    t = np.concatenate([np.linspace(-6, 6, 49), [1e-9, -3e-4]])
    third = np.array([lnviz.normalized_core([-ti, 0.0, ti], eps)[2] for ti in t])
    np.testing.assert_allclose(lnviz.h(t, eps), t / np.sqrt(2 * t**2 / 3 + eps), atol=1e-15)
    np.testing.assert_allclose(lnviz.h(t, eps), third, rtol=1e-13, atol=1e-15)
    expected_dh = eps / (2 * t**2 / 3 + eps) ** 1.5
    np.testing.assert_allclose(lnviz.dh(t, eps), expected_dh, rtol=1e-14)
    step = 1e-6
    fd = (lnviz.h(t + step, eps) - lnviz.h(t - step, eps)) / (2 * step)
    np.testing.assert_allclose(lnviz.dh(t, eps), fd, rtol=1e-6, atol=1e-7)
    assert math.isclose(float(lnviz.dh([0.0], eps)[0]), eps**-0.5, rel_tol=1e-15)
    fam = lnviz.epsilon_family(eps, 4.0, 101)
    assert math.isclose(fam.peak_slope, eps**-0.5, rel_tol=1e-15)
    np.testing.assert_allclose(fam.h, lnviz.h(fam.t, eps), rtol=0, atol=0)
    np.testing.assert_allclose(fam.dh, lnviz.dh(fam.t, eps), rtol=0, atol=0)


def test_C8_limits_are_plus_minus_sqrt_3_2() -> None:
    assert lnviz.ASYMPTOTE == SQRT_3_2
    for eps in (1e-3, 1.0, 100.0):
        big = lnviz.h([-1e9, 1e9], eps)
        np.testing.assert_allclose(big, [-SQRT_3_2, SQRT_3_2], rtol=1e-12)
        mid = lnviz.h(np.linspace(-50, 50, 11), eps)
        assert np.all(np.abs(mid) < SQRT_3_2)  # approached from inside
        assert lnviz.epsilon_family(eps).asymptote == SQRT_3_2


def test_C9_common_shift_is_removed_exactly() -> None:
    eps = 1 / 3
    a = lnviz.normalized_core([1.0, 2.0, 3.0], eps)
    b = lnviz.normalized_core([101.0, 102.0, 103.0], eps)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(a, [-1.0, 0.0, 1.0], atol=1e-15)
    np.testing.assert_array_equal(
        lnviz.layer_norm([1.0, 2.0, 3.0], 3, eps=eps),
        lnviz.layer_norm([101.0, 102.0, 103.0], 3, eps=eps),
    )
    r = lnviz.compare_shift([1.0, 2.0, 3.0], 100.0, eps)
    assert r.common
    assert r.change == 0.0
    assert r.rms_change > 0.1  # RMS norm has no centring and no shift invariance
    ra, rb = (
        lnviz.analyze_core([1.0, 2.0, 3.0], eps),
        lnviz.analyze_core([101.0, 102.0, 103.0], eps),
    )
    assert rb.mu == ra.mu + 100
    assert rb.q == ra.q


def test_C10_unequal_shift_is_not_removed() -> None:
    eps = 1 / 3
    expected = np.array([-4.0, -1.0, 5.0]) / SQRT17
    np.testing.assert_allclose(lnviz.normalized_core([1.0, 2.0, 4.0], eps), expected, atol=1e-15)
    np.testing.assert_allclose(lnviz.layer_norm([1.0, 2.0, 4.0], 3, eps=eps), expected, atol=1e-15)
    r = lnviz.compare_shift([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], eps)
    assert not r.common
    np.testing.assert_allclose(r.core_shifted, expected, atol=1e-15)
    assert r.change > 0.1


def test_C11_affine_redundancy() -> None:
    rng = np.random.default_rng(11)
    d, n = 5, 3
    w = rng.standard_normal((d, n))
    b = rng.standard_normal(d)
    xs = rng.standard_normal((8, n))
    r_vec = rng.standard_normal(n)
    s_vec = np.array([1.0, -2.0, 0.5])
    red = lnviz.affine_redundancy(w, b, xs, c=7.5, r=r_vec, s=s_vec, eps=1e-3)
    assert red.bias_change < 1e-12  # b + c 1: removed for every x
    assert red.weight_change < 1e-12  # W + 1 r^T adds (r^T x) 1: removed per input
    assert red.input_change > 1e-2  # a raw-input shift adds W s ...
    np.testing.assert_allclose(red.added_by_input_shift, w @ s_vec, atol=1e-15)
    assert np.ptp(red.added_by_input_shift) > 0.1  # ... which is not a common shift
    # W + 1 r^T adds exactly (r^T x) 1 before normalization
    x = xs[0]
    np.testing.assert_allclose(
        (w + np.outer(np.ones(d), r_vec)) @ x - w @ x, (r_vec @ x) * np.ones(d)
    )
    np.testing.assert_allclose(red.base, lnviz.normalized_core(xs @ w.T + b, 1e-3), atol=1e-15)
    # if W s happens to be a common shift, the raw-input shift is removed too
    w_common = np.column_stack([np.ones(d), rng.standard_normal((d, n - 1))])
    red2 = lnviz.affine_redundancy(w_common, b, xs, c=-2.0, r=r_vec, s=[3.0, 0.0, 0.0], eps=1e-3)
    assert red2.input_change < 1e-12


def test_C12_population_variance_not_unbiased() -> None:
    z = np.array([1.0, 2.0, 3.0, 7.0])
    r = lnviz.analyze_core(z, 0.0)
    assert math.isclose(float(r.q), float(np.var(z, ddof=0)), rel_tol=1e-15)
    assert not math.isclose(float(r.q), float(np.var(z, ddof=1)), rel_tol=1e-3)
    # the untitled note's toy: q = 2/3 gives (-1, 0, 1) at eps = 1/3;
    # ddof = 1 would give (-1, 0, 1)/sqrt(4/3)
    out = lnviz.layer_norm([1.0, 2.0, 3.0], 3, eps=1 / 3)
    np.testing.assert_allclose(out, [-1.0, 0.0, 1.0], atol=1e-15)
    unbiased = (np.array([1.0, 2.0, 3.0]) - 2.0) / math.sqrt(
        np.var([1.0, 2.0, 3.0], ddof=1) + 1 / 3
    )
    assert np.abs(out - unbiased).max() > 0.1
    # every framework normalization uses divisor d in its output
    x = np.random.default_rng(12).standard_normal((4, 6))
    pop = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True, ddof=0) + 1e-5)
    np.testing.assert_allclose(lnviz.layer_norm(x, 6), pop, atol=1e-12)
    np.testing.assert_allclose(lnviz.group_norm(x, 1), pop, atol=1e-12)
    bn, _, _ = lnviz.batch_norm(x.T, training=True)  # channels = rows of x
    np.testing.assert_allclose(bn.T, pop, atol=1e-12)


def test_C13_eps_zero_toy_output_is_not_standardized() -> None:
    st = lnviz.affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], eps=0.0)
    np.testing.assert_allclose(st.core.values, [-SQRT_3_2, 0.0, SQRT_3_2], atol=1e-15)
    np.testing.assert_allclose(st.output.values, [-SQRT_3_2, 1.0, SQRT_3_2], atol=1e-15)
    assert math.isclose(st.output.mean, 1 / 3, rel_tol=1e-15)
    assert math.isclose(st.output.var, 11 / 9, rel_tol=1e-14)
    assert math.isclose(st.core.mean, 0.0, abs_tol=1e-16)
    assert math.isclose(st.core.var, 1.0, rel_tol=1e-15)  # the core is standardized at eps = 0
    assert st.defined
    assert not st.constant_input
    assert st.core_lipschitz == math.inf
    y = lnviz.layer_norm([1.0, 2.0, 3.0], 3, [1.0, 2.0, 1.0], [0.0, 1.0, 0.0], eps=0.0)
    np.testing.assert_allclose(y, [-SQRT_3_2, 1.0, SQRT_3_2], atol=1e-15)


@pytest.mark.parametrize(
    ("z", "eps", "expected_var"),
    [([1.0, 2.0, 3.0], 1 / 3, 2 / 3), ([1.0, 2.0, 3.0], 4 / 3, 1 / 3), ([0.0, 2.0], 1.0, 0.5)],
)
def test_C14_pre_affine_variance_is_q_over_q_plus_eps(
    z: list[float], eps: float, expected_var: float
) -> None:
    st = lnviz.affine_stages(z, eps=eps)
    assert math.isclose(st.core.var, expected_var, rel_tol=1e-14)
    assert math.isclose(st.core.var, st.q / (st.q + eps), rel_tol=1e-14)
    assert st.core.var < 1.0
    assert np.var(lnviz.layer_norm(z, len(z), eps=eps)) == pytest.approx(expected_var, rel=1e-14)


# --------------------------------------------------------------------------- W1 - W6

A_EX = np.array([0.25, 0.75])
X_EX = np.array([4.0, 2.0])
WEIGHTS = [
    [0.25, 0.75],
    [0.1, 0.2, 0.3, 0.4],
    [3.0, 1.0, 0.0, 2.0],  # a zero weight, unnormalized
    [1.0, 1.0, 1.0],
]


@pytest.mark.parametrize("a", WEIGHTS)
def test_W1_weighted_mean_removed(a: list[float]) -> None:
    w = np.asarray(a) / np.sum(a)
    x = np.random.default_rng(len(a)).standard_normal(len(a)) * 3 + 1
    r = lnviz.weighted_centering(a, x)
    np.testing.assert_allclose(r.centered, x - (w @ x) * np.ones(len(a)), atol=1e-15)
    np.testing.assert_allclose(lnviz.weighted_centering_matrix(a) @ x, r.centered, atol=1e-15)
    assert abs(w @ r.centered) < 1e-15
    assert abs(r.weighted_mean) < 1e-15
    assert math.isclose(r.c, float(w @ x), rel_tol=1e-15)


def test_W1_unweighted_sum_need_not_vanish() -> None:
    r = lnviz.weighted_centering(A_EX, X_EX)
    assert r.weighted_mean == 0.0
    assert r.centered.sum() == 1.0


@pytest.mark.parametrize("a", WEIGHTS)
def test_W2_projection_properties(a: list[float]) -> None:
    n = len(a)
    w = np.asarray(a) / np.sum(a)
    p = lnviz.weighted_centering_matrix(a)
    np.testing.assert_allclose(p @ p, p, atol=1e-15)  # idempotent
    np.testing.assert_allclose(p @ np.ones(n), 0.0, atol=1e-15)  # P_a 1 = 0
    np.testing.assert_allclose(w @ p, 0.0, atol=1e-15)  # range in ker a^T
    assert np.linalg.matrix_rank(p) == n - 1
    # kernel is exactly span{1}: the one null singular vector is +-1/sqrt(n)
    _, sv, vt = np.linalg.svd(p)
    assert sv[-1] < 1e-14 < sv[-2]
    np.testing.assert_allclose(np.abs(vt[-1]), np.full(n, 1 / math.sqrt(n)), atol=1e-14)
    # range is all of ker a^T: P_a fixes every vector with zero weighted mean
    y = np.random.default_rng(n).standard_normal(n)
    y -= (w @ y) / (w @ w) * w
    np.testing.assert_allclose(p @ y, y, atol=1e-14)
    assert lnviz.weighted_centering(a, np.arange(n, dtype=float)).rank == n - 1


@pytest.mark.parametrize("a", [[0.25, 0.75], [0.1, 0.2, 0.3, 0.4], [3.0, 1.0, 0.0, 2.0]])
def test_W3_oblique_for_unequal_weights(a: list[float]) -> None:
    n = len(a)
    p = lnviz.weighted_centering_matrix(a)
    assert not np.allclose(p, p.T)
    x = np.arange(1.0, n + 1) ** 2
    r = lnviz.weighted_centering(a, x)
    assert not r.symmetric
    # along 1: x - P_a x is a multiple of 1, not of a (the Euclidean normal of ker a^T)
    np.testing.assert_allclose(x - r.centered, r.c * np.ones(n), atol=1e-14)
    assert abs(r.angle_euclidean - 90.0) > 1e-3  # residual not orthogonal to 1 in R^n
    assert not np.allclose(r.centered, r.euclidean)


def test_W4_worked_example() -> None:
    r = lnviz.weighted_centering(A_EX, X_EX)
    assert r.c == 2.5
    np.testing.assert_array_equal(r.centered, [1.5, -0.5])
    assert r.weighted_mean == 0.0
    assert r.ordinary_mean == 0.5
    np.testing.assert_allclose(r.euclidean, [3.0, -1.0], atol=1e-15)
    # the Euclidean projection lies on the same line a^T y = 0 and is orthogonal to it
    assert abs(A_EX @ r.euclidean) < 1e-15
    assert abs((X_EX - r.euclidean) @ r.euclidean) < 1e-14
    np.testing.assert_array_equal(r.matrix, [[0.75, -0.75], [-0.25, 0.25]])


@pytest.mark.parametrize("a", [[0.25, 0.75], [0.1, 0.2, 0.3, 0.4], [5.0, 1.0, 2.0]])
def test_W5_D_orthogonality_and_weighted_least_squares(a: list[float]) -> None:
    w = np.asarray(a) / np.sum(a)
    dm = np.diag(w)
    p = lnviz.weighted_centering_matrix(a)
    np.testing.assert_allclose(dm @ p, dm - np.outer(w, w), atol=1e-15)
    np.testing.assert_allclose(p.T @ dm, dm - np.outer(w, w), atol=1e-15)
    x = np.random.default_rng(5).standard_normal(len(a)) * 4
    r = lnviz.weighted_centering(a, x)
    assert math.isclose(r.angle_d, 90.0, abs_tol=1e-9)  # <P_a x, c 1>_D = 0
    assert abs(r.centered @ dm @ (x - r.centered)) < 1e-14
    # c = a^T x minimizes sum a_i (x_i - c)^2
    grid = np.linspace(r.c - 3, r.c + 3, 601)
    obj = r.objective(grid)
    assert obj.shape == grid.shape
    assert np.all(obj >= r.objective(r.c) - 1e-15)
    assert math.isclose(float(r.objective(r.c)), float(w @ (x - w @ x) ** 2), rel_tol=1e-14)
    h = 1e-6
    slope = (r.objective(r.c + h) - r.objective(r.c - h)) / (2 * h)
    assert abs(slope) < 1e-8
    # the residuals of that fit are P_a x
    np.testing.assert_allclose(x - r.c, r.centered, atol=1e-15)


def test_W6_zero_weights_degenerate_and_equal_weights_usual_centering() -> None:
    a = [0.0, 2.0, 2.0]
    r = lnviz.weighted_centering(a, [10.0, 1.0, 3.0])
    assert r.degenerate
    p = r.matrix
    np.testing.assert_allclose(p @ p, p, atol=1e-15)  # the algebra survives
    np.testing.assert_allclose(p @ np.ones(3), 0.0, atol=1e-15)
    assert r.rank == 2
    dm = np.diag(r.a)
    e0 = np.array([1.0, 0.0, 0.0])
    assert e0 @ dm @ e0 == 0.0  # a nonzero vector of zero D-length: degenerate
    assert not lnviz.weighted_centering([1.0, 2.0, 2.0], [10.0, 1.0, 3.0]).degenerate
    for n in (1, 2, 3, 7):
        eq = lnviz.weighted_centering(np.ones(n), np.arange(n, dtype=float))
        assert eq.symmetric
        assert not eq.degenerate
        np.testing.assert_allclose(eq.matrix, lnviz.centering_matrix(n), atol=1e-15)
        np.testing.assert_allclose(
            lnviz.weighted_centering_matrix(np.full(n, 1 / n)),
            lnviz.centering_matrix(n),
            atol=1e-15,
        )
