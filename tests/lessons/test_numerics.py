"""Precision formats, the three variance algorithms, sweeps and recipes of lnviz.lessons.

The two known failures of the one-pass variance are asserted with their numbers; the
stable algorithms are held to error bounds that scale with the format's unit roundoff.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lnviz.errors import LnvizError
from lnviz.lessons import numerics as nm
from lnviz.lessons.numerics import recipes as rec
from lnviz.lessons.numerics import sweep as sw
from lnviz.lessons.numerics.precision import (
    PRECISIONS,
    SUMMATIONS,
    bfloat16_bits,
    get_format,
    round_bfloat16,
    store,
    total,
)
from tests.conftest import require_module

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True)


def f32(bits: int) -> np.float32:
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


# ------------------------------------------------------------------ bfloat16 rounding

# (float32 bit pattern in, bfloat16 bit pattern out, what it checks)
BF16_CASES = [
    (0x3F800000, 0x3F80, "1.0 is exact"),
    (0xBF800000, 0xBF80, "-1.0 is exact"),
    (0x40400000, 0x4040, "3.0 is exact"),
    (0x3F808000, 0x3F80, "1 + 2^-8: a tie, rounds to even (down)"),
    (0x3F818000, 0x3F82, "1 + 3*2^-8: a tie, rounds to even (up)"),
    (0x3F808001, 0x3F81, "just above the tie rounds up"),
    (0x3F807FFF, 0x3F80, "just below the tie rounds down"),
    (0x3FFFFFFF, 0x4000, "carry into the exponent: 1.99999988 -> 2.0"),
    (0x00000000, 0x0000, "+0"),
    (0x80000000, 0x8000, "-0 keeps its sign"),
    (0x00000001, 0x0000, "smallest subnormal rounds to 0"),
    (0x00008000, 0x0000, "subnormal tie rounds to even (0)"),
    (0x00018000, 0x0002, "subnormal tie rounds to even (up)"),
    (0x7F7F0000, 0x7F7F, "largest bfloat16 is exact"),
    (0x7F7FFFFF, 0x7F80, "largest float32 overflows to +inf"),
    (0x7F800000, 0x7F80, "+inf stays"),
    (0xFF800000, 0xFF80, "-inf stays"),
]


@pytest.mark.parametrize(("bits_in", "bits_out", "why"), BF16_CASES)
def test_bfloat16_rounding_bit_patterns(bits_in: int, bits_out: int, why: str) -> None:
    assert int(bfloat16_bits([f32(bits_in)])[0]) == bits_out, why


@pytest.mark.parametrize("bits_in", [0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0xFF80FFFF, 0x7FBFFFFF])
def test_bfloat16_nan_stays_nan_with_its_sign(bits_in: int) -> None:
    out = round_bfloat16([f32(bits_in)])
    assert np.isnan(out[0])
    assert np.signbit(out[0]) == bool(bits_in >> 31)
    assert int(out.view(np.uint32)[0]) & 0xFFFF == 0


def test_bfloat16_values_and_idempotence() -> None:
    assert round_bfloat16([1 + 2**-8, 1 + 3 * 2**-8, 2000.4]).tolist() == [1.0, 1.015625, 2000.0]
    rng = np.random.default_rng(3)
    x = rng.standard_normal(10_000).astype(np.float32) * 1e3  # (10000,)
    once = round_bfloat16(x)
    np.testing.assert_array_equal(round_bfloat16(once), once)
    assert np.all(np.abs(once - x) <= np.abs(x) * 2.0**-8)  # half a unit of 2^-7


def test_in_loop_rounding_equals_checked_rounding_on_arithmetic_results() -> None:
    """The loops skip the NaN check: arithmetic NaNs have no payload in the low bits."""
    from lnviz.lessons.numerics.precision import _round_bfloat16_arith

    rng = np.random.default_rng(1)
    a, b = (round_bfloat16(rng.standard_normal(50_000) * 1e30) for _ in range(2))
    with np.errstate(all="ignore"):
        results = [a * b, a + b, a / b, np.sqrt(a), a * b - a * b, np.float32(0) * (a * b * a)]
    for r in results:
        np.testing.assert_array_equal(
            _round_bfloat16_arith(r).view(np.uint32), round_bfloat16(r).view(np.uint32)
        )
    assert np.isnan(results[3]).any() and np.isnan(results[4]).all()


def test_bfloat16_rounding_matches_torch_on_random_bit_patterns() -> None:
    torch = require_module("torch")
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2**32, size=400_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    ours = round_bfloat16(x)
    theirs = torch.from_numpy(x.copy()).to(torch.bfloat16).to(torch.float32).numpy()
    nan = np.isnan(x)
    np.testing.assert_array_equal(ours[~nan].view(np.uint32), theirs[~nan].view(np.uint32))
    assert np.isnan(ours[nan]).all()


# ------------------------------------------------------------------ formats and sums

STORE_CASES = [
    ("float16", 70000.0, math.inf),  # beyond 65504
    ("float16", 2000.4, 2000.0),
    ("float32", 1e4 + 1e-3, 10000.0009765625),
    ("bfloat16", 2001.0, 2000.0),  # spacing 8 at 2000
    ("bfloat16", 3e38, (1 + 98 / 128) * 2.0**127),  # spacing 2^120 up there
    ("float64", 0.1, 0.1),
]


@pytest.mark.parametrize(("precision", "value", "expected"), STORE_CASES)
def test_store_rounds_into_the_format(precision: str, value: float, expected: float) -> None:
    got = float(store([value], precision)[0])
    assert got == pytest.approx(expected, rel=1e-7) or (math.isinf(got) and math.isinf(expected))


@pytest.mark.parametrize("precision", ["float16", "float32", "bfloat16"])
@given(data=arrays(np.float64, st.integers(1, 40), elements=st.floats(-500, 500)))
@SETTINGS
def test_sequential_total_is_a_rounded_left_to_right_loop(precision, data) -> None:
    fmt = get_format(precision)
    a = store(data, precision)[None, :]  # (1, n)
    s = np.zeros(1, dtype=fmt.dtype)
    for k in range(a.shape[1]):
        s = fmt.round(s + a[:, k])
    np.testing.assert_array_equal(total(a, fmt, "sequential"), s)


def test_pairwise_total_is_more_accurate_than_sequential() -> None:
    a = np.array([[1.0] + [2.0**-24] * 4], dtype=np.float32)  # exact sum 1 + 2^-22
    f = get_format("float32")
    assert float(total(a, f, "sequential")[0]) == 1.0
    assert float(total(a, f, "pairwise")[0]) == 1 + 2.0**-22


# ------------------------------------------------------------------ the two known failures


def test_noise_plus_2000_breaks_the_float32_one_pass_variance() -> None:
    x = sw.sample("noise", 1000, 0, 2000.0)
    truth = float(x.var())
    one = float(nm.moments(x, "one-pass", "float32").variance[0])
    assert one == -2.75  # negative, and off by about 3.7
    assert abs(one - truth) >= 1.0
    for algorithm in ("two-pass", "welford"):
        v = float(nm.moments(x, algorithm, "float32").variance[0])
        assert abs(v - truth) / truth < 1e-4, algorithm


@pytest.mark.parametrize("seed", range(8))
def test_noise_plus_2000_one_pass_error_is_order_one_for_every_seed(seed: int) -> None:
    x = sw.sample("noise", 1000, seed, 2000.0)
    one = float(nm.moments(x, "one-pass", "float32").variance[0])
    assert abs(one - x.var()) > 1.0


def test_sixteen_values_around_1e4_give_a_negative_float32_variance() -> None:
    x = sw.sample("grid", offset=1e4)
    assert x.size == 16
    np.testing.assert_allclose(np.diff(x), -1e-3, rtol=1e-8)
    truth = float(x.var())  # 2.125e-5
    assert truth == pytest.approx(2.125e-5, rel=1e-9)
    one = nm.moments(x, "one-pass", "float32")
    assert float(one.variance[0]) == -8.0  # error of order 1, and negative
    pairwise = float(nm.moments(x, "one-pass", "float32", "pairwise").variance[0])
    assert abs(pairwise - truth) >= 1.0  # +8: wrong the other way
    stored = one.stored[0]  # what float32 holds: spacing 2^-10 at 1e4
    for algorithm in ("two-pass", "welford"):
        v = float(nm.moments(x, algorithm, "float32").variance[0])
        assert abs(v - stored.var()) < 1e-5, algorithm


def test_clamping_divides_by_sqrt_eps_and_blows_up_the_output() -> None:
    c = sw.clamping(sw.sample("noise", 1000, 0, 2000.0), "float32", 1e-5)
    assert c.variance < 0
    assert np.isnan(c.unclamped).all()  # sqrt(v + eps) of a negative number
    dev = c.clamped * np.sqrt(np.float32(1e-5))  # undo the division by sqrt(eps)
    np.testing.assert_allclose(dev, c.x - c.x.mean(), atol=2e-3)
    assert c.blowup > 250  # about sqrt(v / eps) = 309
    assert np.max(np.abs(c.two_pass - c.truth)) < 1e-3


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_float16_overflow_gives_a_nan_blowup_without_numpy_warnings() -> None:
    """n = 2048 values near 56 sum past float16's 65504: every output is NaN (a reachable link)."""
    from lnviz.lessons.numerics.figures import clamping_alt

    c = sw.clamping(sw.sample("noise", 2048, 0, 56.23413251903491), "float16", 1e-5)
    assert np.isnan(c.clamped).all()
    assert math.isnan(c.blowup)
    assert "NaN for every entry as well" in clamping_alt(c)


def test_grid_clamped_output_is_the_deviations_over_sqrt_eps() -> None:
    y = nm.normalize(sw.sample("grid", offset=1e4), "one-pass", "float32", 1e-6, clamp=True)
    assert bool(y.negative[0]) and float(y.variance_used[0]) == 0.0
    dev = y.moments.stored[0] - y.moments.mean[0]
    np.testing.assert_allclose(y.output[0], dev / np.float32(1e-6) ** 0.5, rtol=1e-5)
    assert float(y.rel_error[0]) > 0.5


# ------------------------------------------------------------------ stable algorithms


@st.composite
def samples(draw) -> np.ndarray:
    n = draw(st.integers(2, 200))
    sigma = draw(st.floats(0.1, 10.0))
    shift = draw(st.floats(-2.0, 2.0)) * sigma  # |mean| up to 2 sigma
    seed = draw(st.integers(0, 2**16))
    return shift + sigma * np.random.default_rng(seed).standard_normal(n)


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("summation", SUMMATIONS)
@given(x=samples())
@SETTINGS
def test_two_pass_and_welford_agree_with_the_truth_to_the_formats_precision(
    precision: str, summation: str, x: np.ndarray
) -> None:
    """|v - v*| / v* <= 4 (m + 4) u (1 + mu^2 / v*), m = n (sequential) or log2 n (pairwise).

    v* is the float64 variance of the stored values; 1 + mu^2/v* is the variance's
    condition number squared (how much the offset amplifies rounding).
    """
    u = get_format(precision).unit_roundoff
    m = x.size if summation == "sequential" else math.ceil(math.log2(x.size))
    for algorithm in ("two-pass", "welford"):
        r = nm.moments(x, algorithm, precision, summation)
        stored = r.stored[0]
        truth = float(stored.var())
        if truth == 0:
            continue
        kappa2 = 1 + float(stored.mean()) ** 2 / truth
        err = abs(float(r.variance[0]) - truth) / truth
        assert err <= 4 * (m + 4) * u * kappa2, (algorithm, err)


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("summation", SUMMATIONS)
@given(x=arrays(np.float64, st.integers(2, 64), elements=st.floats(-100, 100)))
@SETTINGS
def test_two_pass_variance_is_never_negative(precision: str, summation: str, x) -> None:
    v = float(nm.moments(x, "two-pass", precision, summation).variance[0])
    assert v >= 0  # a sum of rounded squares; may overflow to +inf, never below 0


@given(
    x=samples(),
    offset=st.floats(-10.0, 10.0),
    summation=st.sampled_from(SUMMATIONS),
)
@SETTINGS
def test_one_pass_in_float64_is_close_to_the_truth_for_small_offsets(x, offset, summation):
    shifted = x / x.std() + offset if x.std() > 0 else x + offset  # spread 1, |mean| <= 12
    v = float(nm.moments(shifted, "one-pass", "float64", summation).variance[0])
    truth = float(shifted.var())
    assert abs(v - truth) <= 1e-10 * truth


# ------------------------------------------------------------------ epsilon placement

PLACEMENT_CASES = [
    # (x, eps, first coordinate for the four conventions)
    ([1, 0, 0, 0], 0.0, [math.sqrt(3), math.sqrt(3), 1.5, 1.5]),
    ([1, 0, 0, 0], 1e-6, [0.75 / math.sqrt(3 / 16 + 1e-6), 0.75 / (math.sqrt(3 / 16) + 1e-6),
                          0.75 / math.sqrt(0.25 + 1e-6), 0.75 / (0.5 + 1e-6)]),
    ([1, 2, 3], 1 / 3, [-1.0, -1 / (math.sqrt(2 / 3) + 1 / 3), -1 / math.sqrt(4 / 3), -0.75]),
]  # fmt: skip


@pytest.mark.parametrize(("x", "eps", "first"), PLACEMENT_CASES)
def test_eps_placements(x, eps, first) -> None:
    p = rec.eps_placements(x, eps)
    np.testing.assert_allclose(p.outputs[:, 0], first, rtol=1e-12)


def test_one_zero_zero_zero_numbers() -> None:
    p = rec.eps_placements([1.0, 0.0, 0.0, 0.0], 1e-6)
    assert (p.mean, p.variance, p.unbiased_variance) == (0.25, 3 / 16, 0.25)
    assert round(float(p.outputs[0, 0]), 3) == 1.732
    assert round(float(p.outputs[2, 0]), 3) == 1.5
    torch = require_module("torch")
    t = torch.tensor([1.0, 0.0, 0.0, 0.0], dtype=torch.float64)
    ln = torch.nn.functional.layer_norm(t, (4,), eps=1e-6)
    assert float(ln[0]) == pytest.approx(float(p.outputs[0, 0]), rel=1e-12)
    unbiased = (t - t.mean()) / (t.std() + 1e-6)  # the hand-written pattern
    assert float(unbiased[0]) == pytest.approx(float(p.outputs[3, 0]), rel=1e-12)


# ------------------------------------------------------------------ sweeps and recipes


def test_offset_sweep_shapes_and_the_one_pass_gap() -> None:
    s = sw.offset_sweep(sw.sample("noise", 256, 2), [0.0, 1e4], 1e-5)
    assert s.rel_error.shape == s.variance.shape == (3, 4, 2)
    assert s.input_error.shape == (4, 2)
    assert s.cell("rel_error", "one-pass", "float32", 1) > 1e3 * s.cell(
        "rel_error", "two-pass", "float32", 1
    )
    assert s.cell("rel_error", "two-pass", "float64", 0) < 1e-14
    assert float(s.input_error[0, 1]) == 0.0  # float64 stores the input exactly
    assert math.isnan(s.cell("rel_error", "one-pass", "float16", 1))  # x^2 overflows


def test_recipes_reproduce_each_framework_formula() -> None:
    runs = {r.recipe.key: r for r in rec.run_recipes(sw.sample("noise", 1000, 0, 5000.0))}
    assert runs["pytorch"].rel_error < 1e-3 and runs["pytorch"].gap_to_first == 0
    assert runs["flax"].variance < 0 and runs["flax"].rel_error > 100  # clamped, blown up
    assert math.isnan(runs["keras-numpy"].rel_error)  # unclamped: sqrt of v + eps < 0
    assert runs["keras-torch"].rel_error < 1e-3
    assert runs["keras-jax"].rel_error < 1e-3  # jnp.var / tf.nn.moments: two-pass
    assert [r.eps for r in rec.RECIPES] == [1e-5, 1e-6, 1e-3, 1e-3, 1e-3]


def test_recipes_name_each_keras_backend_and_pytorchs_welford_kernel() -> None:
    """Keras's E[x²] − E[x]² is the NumPy backend's, not Keras's in general (Keras 3.15.1)."""
    by_key = {r.key: r for r in rec.RECIPES}
    assert by_key["pytorch"].algorithm == "welford"
    assert (by_key["keras-jax"].algorithm, by_key["keras-jax"].clamp) == ("two-pass", False)
    assert "JAX or TensorFlow" in by_key["keras-jax"].framework
    assert (
        by_key["keras-numpy"].algorithm == "one-pass" and "NumPy" in by_key["keras-numpy"].framework
    )
    for r in rec.RECIPES:
        if r.key.startswith("keras"):
            assert "backend" in r.framework and "3.15.1" in r.framework


def test_torch_float32_layer_norm_behaves_like_welford_not_like_one_pass() -> None:
    torch = require_module("torch")
    x = sw.sample("noise", 1000, 0, 5000.0)
    truth = nm.reference(x, 1e-5)[0]
    y = torch.nn.functional.layer_norm(torch.tensor(x, dtype=torch.float32), (1000,), eps=1e-5)
    torch_err = float(nm.relative_error(y.double().numpy()[None], truth[None])[0])
    ours = nm.normalize(x, "welford", "float32", 1e-5, summation="pairwise")
    one = nm.normalize(x, "one-pass", "float32", 1e-5, summation="pairwise")
    assert torch_err < 2 * float(ours.rel_error[0]) + 1e-6
    assert float(one.rel_error[0]) > 1e3 * torch_err


def test_ulp_and_truth_gap() -> None:
    assert nm.ulp(2000.0, "float32") == 2.0**-13
    assert nm.ulp(1e4, "float16") == 8.0
    assert nm.ulp(0.0, "float32") == 0.0
    assert rec.truth_gap([1.0, 0.0, 0.0, 0.0], 1e-5, 1e-5) == 0.0


# ------------------------------------------------------------------ validation

BAD_CALLS = [
    (lambda: nm.moments([1.0, 2.0], "three-pass", "float32"), "algorithm"),
    (lambda: nm.moments([1.0, 2.0], "one-pass", "float8"), "precision"),
    (lambda: nm.moments([1.0, 2.0], "welford", "float32", "random"), "summation"),
    (lambda: nm.moments([1.0], "one-pass", "float32"), "x"),
    (lambda: nm.moments(np.zeros(nm.MAX_N + 1), "one-pass", "float32"), "x"),
    (lambda: nm.moments([1.0, math.nan], "one-pass", "float32"), "x"),
    (lambda: nm.moments([1.0, 1e10], "one-pass", "float32"), "x"),
    (lambda: nm.normalize([1.0, 2.0], "one-pass", "float32", -1.0), "eps"),
    (lambda: sw.sample("noise", 1, 0), "n"),
    (lambda: sw.sample("noise", 10, -1), "seed"),
    (lambda: sw.sample("noise", 10, 0, 2e8), "offset"),
    (lambda: sw.sample("uniform"), "sample"),
    (lambda: sw.offset_sweep([0.0, 1.0], [math.inf], 1e-5), "offsets"),
    (lambda: sw.clamping(np.zeros((2, 4)), "float32", 1e-5), "x"),
    (lambda: rec.eps_placements([1.0], 1e-5), "x"),
]


@pytest.mark.parametrize(("call", "field"), BAD_CALLS)
def test_bad_arguments_name_the_field(call, field: str) -> None:
    with pytest.raises(LnvizError) as info:
        call()
    assert info.value.name == field


def test_typed_setups_give_the_same_results_as_the_functions() -> None:
    spec = sw.SampleSpec("noise", 64, 3)
    np.testing.assert_array_equal(spec.draw(7.0), sw.sample("noise", 64, 3, 7.0))
    got = sw.run_sweep(sw.SweepSetup(spec, (0.0, 2000.0), 1e-5, False, "pairwise"))
    want = sw.offset_sweep(spec.draw(), [0.0, 2000.0], 1e-5, clamp=False, summation="pairwise")
    np.testing.assert_array_equal(got.rel_error, want.rel_error)
    c = sw.run_clamping(sw.ClampSetup(spec, 2000.0, "bfloat16", 1e-3, "pairwise"))
    d = sw.clamping(spec.draw(2000.0), "bfloat16", 1e-3, "pairwise")
    assert (c.variance, c.mean, c.blowup) == (d.variance, d.mean, d.blowup)
    assert hash(sw.SweepSetup(spec, (1.0,), 1e-5, True, "sequential"))  # cacheable


@pytest.mark.parametrize("summation", ["sequential", "pairwise"])
def test_a_sweep_from_shared_moments_is_the_sweep_normalize_gives(summation: str) -> None:
    """The page computes the moments once per sample and reuses them for every ε and clamp:
    each sweep must equal the one that runs normalize() for every cell, bit for bit."""
    base, offsets = sw.sample("noise", 96, 5), [0.0, 30.0, 2000.0, 1e6]
    parts = sw.sweep_moments(base, offsets, summation)
    for eps, clamp in [(1e-5, True), (1e-5, False), (1e-2, True), (10.0, False)]:
        got = sw.offset_sweep(base, offsets, eps, clamp=clamp, summation=summation, parts=parts)
        for i, alg in enumerate(nm.ALGORITHMS):
            for j, prec in enumerate(PRECISIONS):
                r = nm.normalize(
                    np.add.outer(offsets, base), alg, prec, eps, clamp=clamp, summation=summation
                )
                np.testing.assert_array_equal(got.rel_error[i, j], r.rel_error)
                np.testing.assert_array_equal(got.variance[i, j], r.moments.variance)
                np.testing.assert_array_equal(got.negative[i, j], r.negative)
        assert (got.eps, got.clamp, got.summation) == (eps, clamp, summation)
    with pytest.raises(ValueError, match="read-only"):
        parts.moments[0].variance[0] = 0.0  # shared between visitors: nobody may write it
    other = "pairwise" if summation == "sequential" else "sequential"
    for wrong in (  # moments of another sweep are refused, never used silently
        dict(base=base, offsets=offsets[:3], summation=summation),
        dict(base=base + 1.0, offsets=offsets, summation=summation),
        dict(base=base, offsets=offsets, summation=other),
    ):
        with pytest.raises(LnvizError) as info:
            sw.offset_sweep(
                wrong["base"], wrong["offsets"], 1e-5, summation=wrong["summation"], parts=parts
            )
        assert info.value.name == "parts"
