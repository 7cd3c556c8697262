"""Notes of the epsilon, gain-and-bias and invariance pages: true for the state they describe.

Fast (no AppTest): each case builds the engine result of one state and checks what its
bullets may and may not say.
"""

from __future__ import annotations

import re

import pytest

from lnviz import affine_redundancy, affine_stages, analyze_core, jacobian_spectrum
from lnviz.content import closed_forms
from lnviz.lessons import explorers
from lnviz.lessons.epsilon import notes as epsilon_notes
from lnviz.lessons.gain_and_bias import notes as affine_notes
from lnviz.lessons.invariance import notes as invariance_notes
from lnviz.lessons.symmetry import common_shift, scale, seeded_layer, unequal_shift

PRIVATE = re.compile(r"seed|the notes|\bC\d+\b|\bW\d\b|toy", re.IGNORECASE)
RAW_FLOAT = re.compile(r"\d\.\d{9,}")  # e.g. 0.33333333333333337
SLASHED = "u_ε/a²"  # reads as u_ε divided by a²


def clean(notes: tuple[str, ...] | str) -> str:
    joined = "\n".join(notes) if isinstance(notes, tuple) else notes
    assert not PRIVATE.search(joined), joined
    assert not RAW_FLOAT.search(joined), joined
    assert SLASHED not in joined
    return joined


def test_closed_forms_never_call_a_near_value_exact() -> None:
    assert closed_forms.exact(1e-17) is None  # not 0
    assert closed_forms.exact(1 - 1e-12) is None  # not 1 (text.exact would say "1")
    assert closed_forms.exact(11 / 9) == "11/9"
    assert closed_forms.with_exact(1 / 3 + 1e-12) == "0.333333"
    assert affine_notes.exact_help(7.4e-17) is None
    assert affine_notes.exact_help(1 - 1e-12) is None


# --- epsilon -------------------------------------------------------------------------------


def test_core_notes_quote_the_shortfall_not_a_wrong_one() -> None:
    near = clean(epsilon_notes.core_notes(analyze_core([-1000.0, 1000.0], 1e-6)))
    assert "1 − 1e−12" in near and "falls short of 1 by ε/(q+ε) = 1e−12" in near
    const = clean(epsilon_notes.core_notes(analyze_core([2.0, 2.0, 2.0], 0.01)))
    assert "This z is constant" in const
    worked = clean(epsilon_notes.core_notes(analyze_core([1.0, 2.0, 3.0], 1 / 3)))
    assert "(−1, 0, 1)" in worked and "(−1/√2, 0, 1/√2)" in worked


def test_jacobian_notes_name_only_directions_that_exist() -> None:
    three = clean(epsilon_notes.jacobian_notes(jacobian_spectrum([1.0, 2.0, 3.0], 1 / 3)))
    assert "orthogonal to 𝟏 and v" in three and "try the 'Constant input' preset" in three
    two = clean(epsilon_notes.jacobian_notes(jacobian_spectrum([1.0, 2.0], 1 / 3)))
    assert "d = 2" in two and "orthogonal to 𝟏 and v" not in two
    const = clean(epsilon_notes.jacobian_notes(jacobian_spectrum([2.0, 2.0, 2.0], 0.01)))
    assert "no radial direction" in const and "radial direction v has" not in const
    assert "try" not in const and "reaches the bound ε^(−1/2) = 10" in const
    assert epsilon_notes.bound_message(jacobian_spectrum([2.0, 2.0, 2.0], 0.01))


def test_scaling_notes_follow_a_and_z() -> None:
    seen = clean(epsilon_notes.scaling_notes(explorers.scaling_check([1.0, 2.0, 3.0], 1 / 3, 10)))
    assert "moves by up to 0.2217" in seen and "u_(ε/a²)" in seen
    same = clean(epsilon_notes.scaling_notes(explorers.scaling_check([1.0, 2.0, 3.0], 1 / 3, 1)))
    assert "a = 1" in same and "moves by" not in same
    const = clean(epsilon_notes.scaling_notes(explorers.scaling_check([2.0, 2.0], 0.1, 10)))
    assert "constant" in const and "0/0" in const


# --- gain and bias -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("z", "gamma", "beta", "eps"),
    [
        ([1, 2, 3], [1, 2, 1], [0, 1, 0], 0.0),
        ([1, 2, 3], [1, 2, 1], [0, 1, 0], 1 / 3),
        ([1, 2, 3], [1, 1, 1], [0, 0, 0], 0.0),
        ([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.01),
        ([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.0),
        ([1, 2, 4], [1, 1, 1], [0, 0, 0], 0.0),
        ([-1000, 1000], [1, 1], [0, 0], 1e-6),
    ],
)
def test_affine_notes_are_clean_in_every_state(z, gamma, beta, eps) -> None:
    res = affine_stages(z, gamma, beta, eps)
    check = explorers.affine_check(res)
    clean(affine_notes.stage_notes(res, check))
    clean(affine_notes.moment_notes(res, check))
    clean(affine_notes.sensitivity_notes())
    if res.defined:
        clean(affine_notes.stage_lines(res))
        table = affine_notes.stage_table(res)
        clean("\n".join(table.mean + table.variance))


def test_affine_notes_describe_the_state_not_the_worked_example() -> None:
    res = affine_stages([1, 2, 4], [1, 1, 1], [0, 0, 0], 0.0)  # core mean ~ 7e-17
    check = explorers.affine_check(res)
    stage = "\n".join(affine_notes.stage_notes(res, check))
    assert "no entry is 0" in stage and "gain 2" not in stage
    moments = "\n".join(affine_notes.moment_notes(res, check))
    assert "centred, and of variance 1" in moments
    assert "γ = 1 and β = 0 here" in moments and f"'{affine_notes.PLAIN_PRESET}'" not in moments
    assert "1/3" in moments and "11/9" in moments  # the worked example, recomputed


# --- invariance ----------------------------------------------------------------------------


def test_common_shift_notes_call_rounding_rounding() -> None:
    noisy = explorers.shift_check(common_shift([0.1, 0.2, 0.3], 1000.0, 1 / 3))
    text = clean(invariance_notes.common_shift_notes(noisy))
    assert noisy.sym.ln_change > 0 and "rounding" in text and "not just approximately" not in text
    exact = clean(invariance_notes.common_shift_notes(explorers.shift_check(common_shift(
        [1, 2, 3], 100.0, 1 / 3))))  # fmt: skip
    assert "computed change" not in exact


def test_unequal_shift_notes_follow_s() -> None:
    def notes(z, s, eps):
        return clean(invariance_notes.unequal_shift_notes(
            explorers.shift_check(unequal_shift(z, s, eps))))  # fmt: skip

    assert "Try s with equal entries" in notes([1, 2, 3], [0, 0, 1], 1 / 3)
    common = notes([1, 2, 3], [7, 7, 7], 1 / 3)
    assert "Try" not in common and "equal entries" in common
    along = notes([1, 2, 3], [-1, 0, 1], 0.0)
    assert "rescal" in along and "Try" not in along


def test_rms_notes_follow_c_a_and_eps() -> None:
    def notes(c, a, eps):
        both = explorers.contrast(common_shift([1, 2, 3], c, eps), scale([1, 2, 3], a, eps))
        return clean(invariance_notes.rms_notes(both))

    assert "grows" in notes(100.0, 10.0, 1 / 3)
    assert "shrinks" in notes(-1.0, 10.0, 1 / 3)
    at_zero = notes(100.0, 10.0, 0.0)
    assert invariance_notes.EXACT_SCALING_PRESET not in at_zero and "try" not in at_zero.lower()
    assert invariance_notes.EXACT_SCALING_PRESET in notes(100.0, 10.0, 1.0)
    for text in (notes(100.0, 10.0, 1 / 3), at_zero):
        assert "mean 0" not in text and "variance" not in text and "bias" not in text


def test_redundancy_notes_follow_dx() -> None:
    layer = seeded_layer(0)

    def check(dx):
        red = affine_redundancy(layer.w, layer.b, layer.xs, c=5.0, r=[1, -2, 0.5], s=dx, eps=1)
        return explorers.redundancy_check(red)

    moved = clean(invariance_notes.redundancy_notes(check([1, 0, 0])))
    assert "Red diamonds leave the diagonal" in moved and "all 5 inputs" in moved
    still = check([0, 0, 0])
    text = clean(invariance_notes.redundancy_notes(still))
    assert "leave the diagonal" not in text and "stay on the diagonal" in text
    assert "all of it is a common shift" in invariance_notes.ws_line(still)
