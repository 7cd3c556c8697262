"""AppTest of the batch-statistics page: defaults, presets, every control, URL state, bad URLs."""

from __future__ import annotations

import json

import pytest

from lnviz.lessons.batch_statistics.running import keras_running, pytorch_running, sample_stream
from tests import apptest_helpers as ah

PAGE = "batch-statistics"
TITLES = (  # the page's charts, in order
    "Running mean",
    "Running variance",
    "Batch variance",
    "Training vs evaluation",
    "Example 1",
    "Batch norm (training)",
    "Layer norm",
)


def table(at) -> dict[str, dict[str, str]]:
    """The conventions table as {quantity: {"PyTorch": ..., "Keras": ...}}."""
    df = at.dataframe[0].value
    return {
        row["quantity"]: {"PyTorch": row["PyTorch"], "Keras": row["Keras"]}
        for _, row in df.iterrows()
    }


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_default_page_shows_both_conventions_and_seven_charts() -> None:
    at = ah.page(PAGE)
    ah.assert_clean(at)
    titles = [f["layout"]["title"]["text"] for f in ah.figures(at)]
    assert len(titles) == 7
    assert all(t.startswith(s) for t, s in zip(titles, TITLES, strict=True))
    rows = table(at)
    assert rows["steps to close 90 % of a jump (formula)"] == {"PyTorch": "22", "Keras": "230"}
    assert rows["weight w of the new batch"] == {"PyTorch": "0.1", "Keras": "0.01"}
    assert rows["long-run ratio"] == {"PyTorch": "1", "Keras": "0.875 = 7/8"}
    assert ah.metric(at, "layer norm: largest spread") == "0"
    assert number(ah.metric(at, "batch norm: largest spread")) > 0.5


def test_running_mean_shown_is_the_engines() -> None:
    at = ah.page(PAGE)
    s = sample_stream(200, 8, 3, seed=0, shift_step=100, shift=3.0, spread=2.0)
    fig = ah.figure(at, "Running mean")
    torch_y = ah.values(ah.trace(fig, "PyTorch")["y"])
    keras_y = ah.values(ah.trace(fig, "Keras")["y"])
    assert torch_y == pytest.approx(pytorch_running(s.x).running_mean[:, 0], rel=1e-4)
    assert keras_y == pytest.approx(keras_running(s.x).running_mean[:, 0], rel=1e-4)
    assert ah.values(ah.trace(fig, "true")["y"]) == pytest.approx(s.mean[:, 0], rel=1e-4)


def test_batch_of_two_table_is_plus_minus_one() -> None:
    at = ah.page(PAGE)
    pair = at.dataframe[1].value.set_index("row")
    for row in ("batch norm 1", "batch norm 2"):
        assert all(abs(abs(number(v)) - 1) < 1e-3 for v in pair.loc[row])
    assert all(
        number(a) == -number(b)
        for a, b in zip(*pair.loc[["batch norm 1", "batch norm 2"]].values, strict=True)
    )


@pytest.mark.parametrize("index", range(4))
def test_every_preset_runs_clean(index: int) -> None:
    at = ah.pressed(PAGE, f"bs-presets-{index}")
    assert len(ah.figures(at)) == 7
    assert "nan" not in ah.texts(at).lower()


def test_preset_batch_of_two_halves_the_keras_variance() -> None:
    at = ah.pressed(PAGE, "bs-presets-2")
    assert at.number_input(key="b").value == 2
    rows = table(at)
    assert rows["long-run ratio"]["Keras"] == "0.5 = 1/2"
    measured = number(rows["running ÷ true variance (steps 225–299)"]["Keras"].split(" ± ")[0])
    assert 0.3 < measured < 0.7  # Keras m = 0.9 has settled near half the true variance
    assert ah.metric(at, "PyTorch: largest gap after it") == "no shift"


def test_preset_without_shift_shows_no_catch_up() -> None:
    at = ah.pressed(PAGE, "bs-presets-0")
    assert table(at)["steps it took after the shift (feature 1)"] == {"PyTorch": "—", "Keras": "—"}


# (widget kind, key, new value, title of a chart whose data must change)
CONTROLS = [
    ("number_input", "steps", 120, "Running mean"),
    ("number_input", "b", 4, "Running mean"),
    ("number_input", "f", 5, "Layer norm"),
    ("number_input", "seed", 3, "Running variance"),
    ("number_input", "at", 40, "Training vs evaluation"),
    ("select_slider", "shift", -2.0, "Running mean"),
    ("select_slider", "spread", 0.5, "Running variance"),
    ("select_slider", "mt", 0.01, "Running mean"),
    ("select_slider", "mk", 0.9, "Running variance"),
    ("number_input", "feat", 2, "Running mean"),
    ("select_slider", "eps", 1.0, "Example 1"),
    ("number_input", "sets", 3, "Batch norm (training)"),
]


@pytest.mark.parametrize(("kind", "key", "value", "title"), CONTROLS)
def test_each_control_changes_what_is_shown(kind: str, key: str, value, title: str) -> None:
    at = ah.page(PAGE)
    before = json.dumps(ah.figure(at, title)["data"])
    getattr(at, kind)(key=key).set_value(value).run()
    ah.assert_clean(at)
    assert json.dumps(ah.figure(at, title)["data"]) != before


def test_momentum_sets_the_lag_in_the_table() -> None:
    at = ah.page(PAGE)
    at.select_slider(key="mt").set_value(0.5).run()
    at.select_slider(key="mk").set_value(0.9).run()
    rows = table(at)
    assert rows["steps to close 90 % of a jump (formula)"] == {"PyTorch": "4", "Keras": "22"}


def test_eps_shrinks_the_batch_of_two_values() -> None:
    at = ah.page(PAGE, {"eps": "10"})
    pair = at.dataframe[1].value.set_index("row")
    assert all(abs(number(v)) < 0.9 for v in pair.loc["batch norm 1"])


def test_a_batch_of_one_is_refused_with_an_explanation() -> None:
    at = ah.page(PAGE, {"b": "1"})
    ah.assert_clean(at)
    assert any("batch of **one**" in e.value for e in at.error)
    titles = [f["layout"]["title"]["text"] for f in ah.figures(at)]
    assert len(titles) == 1 and titles[0].startswith("Example 1")  # the batch-size section


def test_query_string_restores_the_state() -> None:
    query = {"steps": "120", "b": "4", "f": "5", "seed": "7", "at": "60", "shift": "-2"}
    query |= {"spread": "0.5", "mt": "0.3", "mk": "0.9", "feat": "2", "eps": "0.1", "sets": "3"}
    at = ah.page(PAGE, query)
    ah.assert_clean(at)
    assert not at.warning
    for key in ("steps", "b", "f", "seed", "at", "feat", "sets"):
        assert at.number_input(key=key).value == int(query[key])
    assert at.select_slider(key="shift").value == -2.0
    assert at.select_slider(key="spread").value == 0.5
    assert at.select_slider(key="mt").value == 0.3
    assert at.select_slider(key="mk").value == 0.9
    assert at.select_slider(key="eps").value == pytest.approx(0.1)
    fig = ah.figure(at, "Running mean of feature 2")
    assert len(ah.values(ah.trace(fig, "PyTorch")["y"])) == 120
    assert len(ah.figure(at, "Batch norm (training)")["data"]) == 3
    assert "B = 4 examples with 5 features" in ah.texts(at)


@pytest.mark.parametrize(
    "query",
    [
        {"steps": "nan"},
        {"steps": "1e9"},
        {"b": "-3"},
        {"b": "<script>alert(1)</script>"},
        {"b": ["2", "999"]},
        {"f": "99"},
        {"seed": "1.5"},
        {"at": "-1"},
        {"shift": "inf"},
        {"shift": "nan"},
        {"spread": "7"},
        {"mt": "abc"},
        {"mk": "2"},
        {"feat": "9"},
        {"eps": "nan"},
        {"sets": "100"},
    ],
)
def test_bad_url_values_show_a_message_not_an_error(query: dict) -> None:
    at = ah.refused(PAGE, query)
    assert len(ah.figures(at)) == 7


def notes(at) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


def test_momentum_is_one_symbol_with_one_meaning() -> None:
    """Issue 14 item 7: m meant PyTorch's weight of the new batch and Keras's weight of the
    old average; the page writes w (the weight of the new batch) and names each momentum."""
    at = ah.page(PAGE)
    shown = ah.texts(at)
    assert "m = " not in shown and "$m" not in shown and "m\\," not in shown
    assert r"r\leftarrow(1-w)\,r+w\,b" in shown
    assert at.select_slider(key="mt").label == "PyTorch momentum (= w)"
    keras = at.select_slider(key="mk")  # its relation to w in the help, not above question 1
    assert keras.label == "Keras momentum" and "1 − w" in keras.help
    legend = [t["name"] for t in ah.figure(at, "Running mean")["data"]]
    assert "PyTorch, momentum 0.1" in legend and "Keras, momentum 0.99" in legend


def test_each_frameworks_eps_and_no_universal_one() -> None:
    """Issue 14 item 3: batch norm's default ε per framework, Flax included."""
    shown = " ".join(ah.texts(ah.page(PAGE)).split())
    assert "1e-05 in PyTorch, 0.001 in Keras, 1e-05 in Flax" in shown
    assert "PyTorch 2.13, Keras 3.15.1 and Flax 0.12.8" in shown


def test_without_a_shift_no_bullet_describes_one() -> None:
    """Issue 14 item 3: the no-shift preset shows no shift; no bullet may describe one."""
    at = ah.pressed(PAGE, "bs-presets-0")
    shown = notes(at)
    assert "Right after the shift" not in shown and "most after the shift" not in shown
    assert "Before the shift" not in shown and "Without a shift the gap is batch noise" in shown
    assert ah.metric(at, "PyTorch: median gap") != ""


def test_a_shift_within_the_noise_is_said_to_be() -> None:
    """Issue 14 item 6: half a standard deviation does not lift the gap above the noise."""
    at = ah.page(PAGE, {"shift": "0.5", "spread": "1"})
    shown = notes(at)
    assert "does not lift the gap above the batch noise" in shown
    assert "Right after the shift" not in shown
    default = notes(ah.page(PAGE))
    assert "off by up to 3.42 (PyTorch) and 6.46 (Keras)" in default


def test_a_shift_at_step_zero_has_no_before() -> None:
    at = ah.page(PAGE, {"at": "0"})
    ah.assert_clean(at)
    assert ah.metric(at, "PyTorch: median gap before the shift") == "no steps"
    assert "The shift comes at step 0" in notes(at)


def test_variance_ratios_are_told_with_their_noise() -> None:
    """Issue 14 item 6: 1/8 between the long-run ratios is within one stream's noise by
    default; with B = 2 and settled averages the measured ratios show it."""
    at = ah.page(PAGE)
    assert "do not show it beyond their noise" in notes(at)
    assert " ± " in table(at)["running ÷ true variance (steps 75–99)"]["PyTorch"]
    at.button(key="bs-presets-2").click().run()
    assert "The measured ratios show it." in notes(at)


def test_batch_of_two_text_follows_eps() -> None:
    """Issue 14 item 3: at ε = 10 the B = 2 values are not ±1."""
    shown = notes(ah.page(PAGE, {"eps": "10"}))
    assert "pulls the batch-norm values from ±1 toward 0" in shown
    assert "every batch-norm value is ±1" not in shown
    assert "every batch-norm value is ±1 (off by at most" in notes(ah.page(PAGE))


def test_regrouping_claim_is_scoped_to_layer_norm_over_own_features() -> None:
    """Issue 14 item 6: regrouping never changes a layer norm over each example's (or
    token's) own features; other layer norms (over tokens too) it can."""
    shown = notes(ah.page(PAGE))
    assert "never the outputs of a layer norm taken over each example's (or each token's) own" in (
        shown
    )
