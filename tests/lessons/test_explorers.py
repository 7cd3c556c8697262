"""lnviz.lessons.explorers: tables and the facts behind the notes of three pages."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lnviz import affine_redundancy, affine_stages, jacobian_spectrum
from lnviz.lessons.explorers import (
    Table,
    affine_check,
    compare_families,
    contrast,
    jacobian_table,
    layer_tables,
    redundancy_check,
    rounding_level,
    scaling_check,
    shift_check,
)
from lnviz.lessons.symmetry import common_shift, scale, seeded_layer, unequal_shift


def test_table_as_dict_keeps_names_and_order() -> None:
    t = Table(("a", "b"), ((1, 2), ("x", "y")))
    assert t.as_dict() == {"a": [1, 2], "b": ["x", "y"]}
    with pytest.raises(ValueError):
        Table(("a",), ((1,), (2,))).as_dict()  # a column without a name


def test_rounding_level_grows_with_the_inputs_magnitude_over_their_spread() -> None:
    small = rounding_level([1, 2, 3], [101, 102, 103], 1 / 3)
    large = rounding_level([0.1, 0.2, 0.3], [1000.1, 1000.2, 1000.3], 1 / 3)
    assert 0 < small < 1e-12 < large < 1e-9
    assert math.isnan(rounding_level([2, 2, 2], [3, 3, 3], 0.0))  # 0/0: no level


def test_common_shift_rounding_is_within_the_level() -> None:
    """The computed change of a common shift is rounding only, and the level covers it."""
    for z, c in (([0.1, 0.2, 0.3], 1000.0), ([0.1, 0.2, 0.7], -1000.0), ([1, 2, 3], 100.0)):
        check = shift_check(common_shift(z, c, 1 / 3))
        assert check.sym.ln_change <= check.noise and not check.visible
        assert check.split.common


def test_jacobian_table_columns() -> None:
    spec = jacobian_spectrum([1.0, 2.0, 3.0], 1 / 3)
    t = jacobian_table(spec).as_dict()
    assert t["direction"] == ["common offset", "radial", "tangential"]
    assert "measured bᵀJb" in t and not any("vᵀJv" in name for name in t)
    np.testing.assert_allclose(t["from the formula"], [0, 1 / 3, 1], atol=1e-12)
    np.testing.assert_allclose(t["measured bᵀJb"], t["from the formula"], atol=1e-12)
    two = jacobian_table(jacobian_spectrum([1.0, 2.0], 1 / 3)).as_dict()
    assert two["direction"] == ["common offset", "radial"]  # d = 2: no tangential direction


def test_scaling_check_separates_effects_from_rounding() -> None:
    seen = scaling_check([1.0, 2.0, 3.0], 1 / 3, 10.0)
    assert seen.visible and seen.at_zero is not None and seen.at_zero.change <= seen.noise
    assert not scaling_check([1.0, 2.0, 3.0], 1 / 3, 1.0).visible  # a = 1
    const = scaling_check([2.0, 2.0, 2.0], 0.01, 10.0)
    assert const.constant and const.at_zero is None and not const.visible
    tiny = scaling_check([-1000.0, 1000.0], 1e-6, 10.0)  # ε/q = 1e-12: small but real
    assert tiny.visible and tiny.scaling.change < 1e-11


@pytest.mark.parametrize(("eps", "a"), [(1 / 3, 10.0), (1e-3, 0.1), (0.0, 3.0), (10.0, 1.0)])
def test_equivalent_eps_gives_the_core_of_the_scaled_input(eps: float, a: float) -> None:
    """u_eps(a z) = u_(eps/a^2)(z): the core at equivalent_eps is the scaled input's core."""
    check = scaling_check([1.0, 2.0, 4.0], eps, a)
    assert check.equivalent_eps == pytest.approx(eps / a**2, rel=1e-15)
    rescaled = scaling_check([1.0, 2.0, 4.0], check.equivalent_eps, 1.0).scaling.core_z
    np.testing.assert_allclose(rescaled, check.scaling.core_az, rtol=0, atol=1e-14)


def test_compare_families() -> None:
    assert [f.eps for f in compare_families(1.0, (1e-3, 1.0, 10.0))] == [1e-3, 10.0]


def test_affine_check_worked_example_and_tiny_mean() -> None:
    worked = affine_check(affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], 0.0))
    assert worked.worked and worked.zero_entries == (1,)
    assert not worked.centred and not worked.unit_variance and worked.formula_agrees
    plain = affine_check(affine_stages([1, 2, 4], None, None, 0.0))
    assert plain.plain and plain.centred and plain.unit_variance and not plain.worked
    assert plain.zero_entries == ()
    const = affine_check(affine_stages([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.01))
    assert const.zero_entries == () and const.core_var == 0.0
    undefined = affine_check(affine_stages([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.0))
    assert not undefined.centred and undefined.zero_entries == ()


def test_shift_check_kept_part_along_the_centred_vector() -> None:
    along = shift_check(unequal_shift([1, 2, 3], [-1, 0, 1], 0.0))  # (0, 2, 4)
    assert along.parallel and not along.visible
    across = shift_check(unequal_shift([1, 2, 3], [0, 0, 1], 1 / 3))
    assert not across.parallel and across.visible
    assert across.split.c == pytest.approx(1 / 3)


def test_layer_tables_match_the_layer() -> None:
    layer = seeded_layer(3)
    w, x = (t.as_dict() for t in layer_tables(layer))
    assert w["row"] == ["z1", "z2", "z3", "z4"]
    np.testing.assert_array_equal(w["W col 2"], layer.w[:, 1])
    np.testing.assert_array_equal(w["b"], layer.b)
    assert x["entry"] == ["x[1]", "x[2]", "x[3]"]
    np.testing.assert_array_equal(x["x5"], layer.xs[4])


def test_contrast_mean_squares_and_level() -> None:
    c = contrast(common_shift([1, 2, 3], -1, 1 / 3), scale([1, 2, 3], 10, 1 / 3))
    assert (c.m, c.m_shifted) == pytest.approx((14 / 3, 5 / 3))  # m shrinks for c = −1
    assert 0 < c.noise < 1e-12
    assert c.shift.ln_change <= c.noise < c.shift.rms_change


def test_redundancy_check_noise_band() -> None:
    layer = seeded_layer(0)
    args = (layer.w, layer.b, layer.xs)
    moved = redundancy_check(affine_redundancy(*args, c=5.0, r=[1, -2, 0.5], s=[1, 0, 0], eps=1))
    assert moved.input_visible and moved.inputs == 5
    assert moved.red.bias_change <= moved.noise and moved.red.weight_change <= moved.noise
    still = redundancy_check(affine_redundancy(*args, c=5.0, r=[1, -2, 0.5], s=[0, 0, 0], eps=1))
    assert not still.input_visible and still.split.common
