"""The numerics lab's words and tables: numbers from the computation, true for the state."""

from __future__ import annotations

import re

from lnviz.lessons.numerics import notes as words
from lnviz.lessons.numerics import recipes as rec
from lnviz.lessons.numerics import sweep as sw
from lnviz.lessons.numerics.state import BFLOAT16_PRESET

NOISE = sw.SampleSpec("noise", 1000, 0)


def test_variance_columns_use_the_float_result_style() -> None:
    s = sw.run_sweep(sw.SweepSetup(NOISE, (2000.0,), 1e-5, True, "sequential"))
    cols = words.variance_columns(s, 0)
    assert cols["format"] == ("float64", "float32", "float16", "bfloat16")
    assert cols["one-pass"][1] == "−2.75" and cols["one-pass"][2] == "NaN"
    for column in cols.values():
        for cell in column:
            assert not re.search(r"\d\.\d{9,}", cell)  # no raw float noise


def test_float16_note_names_the_sum_of_squares_and_its_threshold() -> None:
    """The one-pass variance sums x², which overflows from √(65504/n), long before the plain
    sum Σx (65504/n): 8.09 against 65.5 for n = 1000, 64 against 4094 for the 16-value grid
    (the first of each is left to the question)."""
    noise = sw.run_sweep(sw.SweepSetup(NOISE, (10.0,), 1e-5, True, "sequential"))
    note = words.error_notes(noise, 0)[2]
    assert "adds up x², which overflows" in note and "√(65504/n), far sooner" in note
    assert "65504/n = 65.5" in note
    assert noise.cell("variance", "one-pass", "float16") == float("inf")  # at c = 10 > 8.09
    assert 0 < noise.cell("variance", "two-pass", "float16") < 2  # its mean's sum still fits
    grid = sw.run_sweep(sw.SweepSetup(sw.SampleSpec("grid"), (1e4,), 1e-5, True, "sequential"))
    note = words.error_notes(grid, 0)[2]
    assert "these n = 16 values" in note and "4094" in note


def test_sweep_notes_follow_the_summation_order() -> None:
    for summation, words_there in (
        ("sequential", "Switch the summation order to pairwise"),
        ("pairwise", "switch back to sequential"),
    ):
        s = sw.run_sweep(sw.SweepSetup(NOISE, (0.0, 20.0), 1e-5, True, summation))
        assert words_there in words.sweep_notes(s)[-1]


def test_sweep_notes_say_how_much_welford_and_two_pass_differ() -> None:
    """Not "equally accurate": in float32 with sequential sums Welford's error is about ten
    times two-pass's at c = 20 on the default sample (the chart shows it)."""
    s = sw.run_sweep(sw.SweepSetup(NOISE, (1.0, 20.0, 2000.0), 1e-5, True, "sequential"))
    ratio, at = words.welford_against_two_pass(s)
    assert ratio > 5 and at == 20.0
    note = words.sweep_notes(s)[1]
    assert f"reaches {ratio:.1f} times two-pass's" in note and "c = 20" in note
    w = s.cell("rel_error", "welford", "float32", 1)
    assert w > 5 * s.cell("rel_error", "two-pass", "float32", 1)


def test_clamping_notes_follow_the_bfloat16_preset() -> None:
    assert words.at_preset(BFLOAT16_PRESET, NOISE, 10.0, "bfloat16")
    assert not words.at_preset(BFLOAT16_PRESET, NOISE, 10.0, "float32")
    stalled = sw.run_clamping(sw.ClampSetup(NOISE, 10.0, "bfloat16", 1e-5, "sequential"))
    assert "try the bfloat16 preset" in words.clamping_notes(stalled, False)[-1]
    assert "mean comes out 4.09375" in words.clamping_notes(stalled, True)[-1]
    fixed = sw.run_clamping(sw.ClampSetup(NOISE, 10.0, "bfloat16", 1e-5, "pairwise"))
    assert "bfloat16 mean is 10" in words.clamping_notes(fixed, True)[-1]


def test_placement_notes_are_computed_for_the_vector() -> None:
    notes = words.placement_notes(rec.eps_placements([1.0, 0.0, 0.0, 0.0], 1e-6))
    assert "μ = 0.25 = 1/4, v = 0.1875 = 3/16" in notes[0] and "v′ = 0.25 = 1/4" in notes[0]


def test_recipe_columns_and_notes() -> None:
    runs = rec.run_recipes(NOISE.draw(5000.0))
    cols = words.recipe_columns(runs)
    assert cols["default ε"] == ("1e-05", "1e-06", "0.001", "0.001", "0.001")
    assert cols["output error"][4] == "NaN"  # Keras's NumPy backend: sqrt of v + eps < 0
    notes = words.recipe_notes(runs, 5000.0, largest=False)
    assert notes[0].startswith("At c = 5000 the one-pass recipes err by up to NaN")
    assert any(n.startswith("Move the offset up") for n in notes)
    assert not any(n.startswith("Move the offset up") for n in words.recipe_notes(runs, 1e8, True))
    assert "Keras 3.15.1, torch backend (F.layer_norm)" in words.recipe_sources()
