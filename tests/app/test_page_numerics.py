"""AppTest of the numerics lab: defaults, presets, every control, URL state, hostile URLs."""

from __future__ import annotations

import re

import pytest

from tests import apptest_helpers as ah

PRESETS = ["noise + 2000", "16 values around 1e4", "(1, 0, 0, 0)", "bfloat16"]


def frame(at, first_column: str):
    """The dataframe whose first column is `first_column`."""
    return next(d.value for d in at.dataframe if d.value.columns[0] == first_column)


def variance_cell(at, precision: str, algorithm: str) -> str:
    df = frame(at, "format")
    return str(df.loc[df["format"] == precision, algorithm].iloc[0])


def heatmap_text(at) -> list[list[str]]:
    """Cell texts of the error heatmap: rows float64..bfloat16, columns one-pass..Welford."""
    return ah.figures(at)[0]["data"][0]["text"]


def sweep_data(at) -> list:
    return [ah.values(trace["y"]) for trace in ah.figures(at)[1]["data"]]


def test_default_state_reproduces_noise_plus_2000() -> None:
    at = ah.page("numerics")
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 4
    assert variance_cell(at, "float32", "one-pass") == "−2.75"  # negative: the failure
    assert variance_cell(at, "float64", "two-pass") == "0.954046"
    ah.assert_metrics(at, {"one-pass variance": "−2.75", "mean in float32": "1999.95"})
    assert "true variance **0.95404635**" in ah.texts(at)
    assert "the clamp replaced it by 0" in ah.texts(at)
    assert heatmap_text(at)[2][0] == "NaN"  # float16 one-pass: x^2 overflows
    placements = frame(at, "denominator")
    assert round(float(placements["first coordinate"][0]), 3) == 1.732
    assert round(float(placements["first coordinate"][2]), 3) == 1.5


@pytest.mark.parametrize("index", range(len(PRESETS)))
def test_every_preset_runs_clean(index: int) -> None:
    at = ah.pressed("numerics", f"num-presets-{index}")
    assert len(ah.figures(at)) == 4


def test_grid_preset_gives_a_negative_float32_variance() -> None:
    at = ah.pressed("numerics", "num-presets-1")
    assert at.radio(key="data").value == "grid"
    assert variance_cell(at, "float32", "one-pass") == "−8"
    assert "**16 values**" in ah.texts(at)
    assert ah.metric(at, "one-pass variance") == "−8"


def test_one_zero_zero_zero_preset_shows_sqrt3_and_1_5() -> None:
    at = ah.page("numerics")
    at.text_input(key="x").set_value("5, 6").run()
    at.button(key="num-presets-2").click().run()
    assert at.text_input(key="x").value == "1, 0, 0, 0"
    first = frame(at, "denominator")["first coordinate"].tolist()
    assert [round(float(v), 3) for v in first] == [1.732, 1.732, 1.5, 1.5]  # eps = 1e-6


def test_bfloat16_preset_shows_the_stalled_mean() -> None:
    at = ah.pressed("numerics", "num-presets-3")
    assert at.radio(key="prec").value == "bfloat16"
    assert at.select_slider(key="off").value == 10.0
    assert "bfloat16" in ah.figures(at)[2]["data"][1]["name"]
    assert ah.metric(at, "mean in bfloat16") == "4.09375"  # the true mean is 9.95
    assert "the clamp changes nothing" in ah.texts(at)
    at.radio(key="sum").set_value("pairwise").run()
    assert ah.metric(at, "mean in bfloat16") == "10"


def test_offset_slider_changes_the_errors() -> None:
    at = ah.page("numerics")
    before = heatmap_text(at)
    at.select_slider(key="off").set_value(0.0).run()
    ah.assert_clean(at)
    after = heatmap_text(at)
    assert before != after
    assert variance_cell(at, "float32", "one-pass") != "−2.75"


def test_eps_slider_changes_placements_and_sweep() -> None:
    at = ah.page("numerics")
    s_before = frame(at, "denominator")["s"].tolist()
    sweep_before = sweep_data(at)
    at.select_slider(key="eps").set_value(0.1).run()
    ah.assert_clean(at)
    assert frame(at, "denominator")["s"].tolist() != s_before
    assert sweep_data(at) != sweep_before


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("radio", "data", "grid"),
        ("number_input", "n", 64),
        ("number_input", "seed", 7),
        ("radio", "sum", "pairwise"),
    ],
)
def test_sample_controls_change_the_numbers(kind: str, key: str, value) -> None:
    at = ah.page("numerics")
    before = (frame(at, "format").to_dict(), sweep_data(at))
    getattr(at, kind)(key=key).set_value(value).run()
    ah.assert_clean(at)
    assert (frame(at, "format").to_dict(), sweep_data(at)) != before


def test_clamp_toggle_turns_the_blow_up_into_nan() -> None:
    at = ah.page("numerics")
    assert heatmap_text(at)[1][0] == "3e+2"  # float32 one-pass, clamped: blown up
    at.checkbox(key="clamp").uncheck().run()
    ah.assert_clean(at)
    assert heatmap_text(at)[1][0] == "NaN"  # sqrt of a negative v + eps


def test_precision_radio_changes_the_clamping_section() -> None:
    at = ah.page("numerics")
    at.radio(key="prec").set_value("float64").run()
    ah.assert_clean(at)
    assert ah.metric(at, "one-pass variance") == "0.954046"


def test_x_input_changes_the_placements() -> None:
    at = ah.page("numerics")
    at.text_input(key="x").set_value("1, 2, 4").run()
    ah.assert_clean(at)
    out = frame(at, "denominator")["output"].tolist()
    assert out[0].startswith("(−1.069")  # (1, 2, 4): mu 7/3, v 14/9


def test_url_state_is_restored() -> None:
    query = {
        "off": "1e4",
        "data": "grid",
        "eps": "1e-06",
        "sum": "pairwise",
        "clamp": "false",
        "prec": "bfloat16",
        "x": "1, 2, 3",
    }
    at = ah.page("numerics", query)
    ah.assert_clean(at)
    assert not at.warning
    assert at.select_slider(key="off").value == 1e4
    assert at.radio(key="data").value == "grid"
    assert at.select_slider(key="eps").value == pytest.approx(1e-6)
    assert at.radio(key="sum").value == "pairwise"
    assert at.checkbox(key="clamp").value is False
    assert at.radio(key="prec").value == "bfloat16"
    assert at.text_input(key="x").value == "1, 2, 3"
    assert variance_cell(at, "float32", "one-pass") == "8"  # pairwise: wrong the other way


def test_noise_url_restores_n_and_seed() -> None:
    at = ah.page("numerics", {"n": "300", "seed": "5", "off": "5e7"})
    ah.assert_clean(at)
    assert at.number_input(key="n").value == 300
    assert at.number_input(key="seed").value == 5
    assert "**300 values**" in ah.texts(at)


@pytest.mark.parametrize(
    "query",
    [
        {"off": "nan"},
        {"off": "1e9"},
        {"off": "<script>alert(1)</script>"},
        {"eps": "inf"},
        {"eps": "-1"},
        {"n": "-5"},
        {"n": "99999"},
        {"n": "abc"},
        {"seed": "1e10"},
        {"data": "uniform"},
        {"sum": "random"},
        {"prec": "float8"},
        {"clamp": "maybe"},
        {"x": "1"},
        {"x": "1e308, 2"},
        {"x": "<script>alert(1)</script>"},
        {"x": ",".join(["1"] * 40)},
        {"x": ["1, 2", "nan, 3"]},
        {"off": ["2000", "huge"]},
    ],
)
def test_bad_url_values_show_a_message_not_an_error(query: dict) -> None:
    at = ah.refused("numerics", query)
    assert len(ah.figures(at)) == 4


# ---- issue 14: framework facts per backend, text true for the state shown ---------------


def test_recipes_name_every_keras_backend_and_pytorchs_kernel() -> None:
    at = ah.page("numerics")
    recipes = frame(at, "framework")
    rows = dict(zip(recipes["framework"], recipes["variance"], strict=True))
    assert rows["PyTorch 2.13 (CPU)"] == "Welford"
    assert rows["Keras 3.15.1, JAX or TensorFlow backend"] == "two-pass"
    assert rows["Keras 3.15.1, torch backend (F.layer_norm)"] == "Welford"
    assert rows["Keras 3.15.1, NumPy backend (ops.moments)"] == "one-pass"
    assert "Keras's JAX and TensorFlow backends" not in ah.texts(at)  # no longer 'not verified'
    assert "Keras's E[x²] − E[x]² on the NumPy backend gives NaN" in ah.notes(at)


def test_both_pages_name_the_same_pytorch_layer_norm_algorithm() -> None:
    numerics = frame(ah.page("numerics"), "framework")
    frameworks = next(
        d.value for d in ah.page("frameworks").dataframe if d.value.columns[0] == "framework"
    )
    assert numerics["variance"][0] == "Welford"
    assert frameworks["variance"][0].startswith("Welford")


def test_eps_and_clamp_help_name_every_framework_default() -> None:
    at = ah.page("numerics")
    help_text = at.select_slider(key="eps").help
    assert "Flax's LayerNorm" in help_text and "BatchNorm: 1e-5" in help_text
    assert "1e-3 Keras" in help_text
    assert "by default" in at.checkbox(key="clamp").label


def test_notes_do_not_offer_what_is_already_shown() -> None:
    at = ah.page("numerics")
    assert "try the bfloat16 preset" in ah.notes(at)
    assert "Switch the summation order to pairwise" in ah.notes(at)
    assert "Move the offset up" in ah.notes(at)
    at.button(key="num-presets-3").click().run()  # the bfloat16 preset
    assert "try the bfloat16 preset" not in ah.notes(at)
    assert "This is the bfloat16 preset" in ah.notes(at)
    at.radio(key="sum").set_value("pairwise").run()
    assert "Switch the summation order to pairwise" not in ah.notes(at)
    assert "With pairwise sums the bfloat16 mean is 10" in ah.notes(at)
    at.select_slider(key="off").set_value(1e8).run()  # the largest offset
    assert "Move the offset up" not in ah.notes(at)


def test_placement_notes_follow_the_vector_typed() -> None:
    at = ah.page("numerics")
    at.text_input(key="x").set_value("1, 2, 4").run()
    assert "μ = 2.333333 = 7/3, v = 1.555556 = 14/9" in ah.notes(at)
    assert "x = (1, 0, 0, 0)" not in ah.notes(at)


def test_no_raw_float_noise_and_no_private_labels() -> None:
    at = ah.page("numerics")
    for d in at.dataframe:
        for value in d.value.astype(str).to_numpy().ravel():
            assert not re.search(r"\d\.\d{9,}", value), value
    body = ah.texts(at) + ah.notes(at)
    assert "the notes" not in body.lower() and "(seed)" not in body.lower()
    assert not re.search(r"\b[CW]\d+\b", body)
