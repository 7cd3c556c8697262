"""The numerics lab's words and tables: numbers from the computation, true for the state."""

from __future__ import annotations

import re

from lnviz.content import numerics_text as words
from lnviz.lessons import numerics_recipes as rec
from lnviz.lessons import numerics_sweep as sw

NOISE = sw.SampleSpec("noise", 1000, 0)


def test_variance_columns_use_the_float_result_style() -> None:
    s = sw.run_sweep(sw.SweepSetup(NOISE, (2000.0,), 1e-5, True, "sequential"))
    cols = words.variance_columns(s, 0)
    assert cols["format"] == ("float64", "float32", "float16", "bfloat16")
    assert cols["one-pass"][1] == "−2.75" and cols["one-pass"][2] == "NaN"
    for column in cols.values():
        for cell in column:
            assert not re.search(r"\d\.\d{9,}", cell)  # no raw float noise


def test_float16_note_gives_the_sum_overflow_for_this_n() -> None:
    grid = sw.run_sweep(sw.SweepSetup(sw.SampleSpec("grid"), (1e4,), 1e-5, True, "sequential"))
    note = words.error_notes(grid, 0)[2]
    assert "these 16 values" in note and "4094" in note


def test_sweep_notes_follow_the_summation_order() -> None:
    assert "Switch the summation order to pairwise" in words.sweep_notes("sequential")[2]
    assert "switch back to sequential" in words.sweep_notes("pairwise")[2]


def test_clamping_notes_follow_the_bfloat16_preset() -> None:
    assert words.at_preset(words.BFLOAT16_PRESET, NOISE, 10.0, "bfloat16")
    assert not words.at_preset(words.BFLOAT16_PRESET, NOISE, 10.0, "float32")
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
