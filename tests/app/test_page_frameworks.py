"""AppTest of the framework-parity page: defaults, presets, controls, URL state, bad links."""

from __future__ import annotations

import re

import pytest

from tests import apptest_helpers as ah


def max_delta(at, pair: str) -> float:
    return float(ah.metric(at, f"max |{pair}|").replace("NaN", "nan").replace("−", "-"))


def table(at, heading: str) -> dict:
    """The dataframe whose first column is `heading`, as {column: [values]}."""
    df = next(d.value for d in at.dataframe if d.value.columns[0] == heading)
    return {c: list(df[c]) for c in df.columns}


def codes(at) -> list[str]:
    return [c.value for c in at.code]


def state(at) -> tuple:
    """Everything a control can change: metrics, code and chart data."""
    charts = [[ah.values(t.get("z", t.get("y", []))) for t in f["data"]] for f in ah.figures(at)]
    return ([(m.label, m.value) for m in at.metric], codes(at), str(charts))


PRESETS = ["fw-presets-0", "fw-presets-1", "fw-presets-2", "fw-presets-3"]


def test_default_state() -> None:
    at = ah.page("frameworks")
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 3
    pt, keras, flax = codes(at)
    assert "nn.LayerNorm(normalized_shape=8)" in pt
    assert "layers.LayerNormalization(axis=-1)" in keras
    assert "nn.LayerNorm(\n    reduction_axes=-1,\n    feature_axes=-1,\n)" in flax
    assert 1e-3 < max_delta(at, "Keras 3 (JAX) − PyTorch") < 1e-2  # the third digit
    assert max_delta(at, "Flax linen − PyTorch") < 1e-4
    defaults = table(at, "framework")
    assert defaults["default ε"] == ["1e-05", "0.001", "1e-06"]
    assert defaults["framework"] == ["PyTorch 2.13", "Keras 3.15.1, JAX backend",
                                     "Flax linen 0.12.8"]  # fmt: skip


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_runs_clean(key: str) -> None:
    at = ah.pressed("frameworks", key)
    assert len(ah.figures(at)) >= 3


def test_epsilon_preset_makes_keras_shrink_the_output() -> None:
    at = ah.pressed("frameworks", "fw-presets-0")
    assert max_delta(at, "Keras 3 (JAX) − PyTorch") > 0.1
    assert 1e-3 < max_delta(at, "Flax linen − PyTorch") < 0.1


def test_large_mean_preset_shows_fast_variance_loss() -> None:
    at = ah.pressed("frameworks", "fw-presets-1")
    assert at.radio(key="backend").value == "numpy"  # the backend whose variance is one-pass
    assert max_delta(at, "Flax linen − PyTorch") > 0.01
    at.checkbox(key="match").check().run()  # PyTorch's eps does not rescue Keras here
    assert max_delta(at, "Keras 3 (NumPy) − PyTorch") > 0.01
    assert max_delta(at, "Flax linen − PyTorch") < 1e-3  # two-pass variance does
    assert "on the NumPy backend has no switch" in ah.notes(at)
    at.radio(key="backend").set_value("jax").run()  # JAX's jnp.var is two-pass
    assert max_delta(at, "Keras 3 (JAX) − PyTorch") < 1e-3
    assert "has no switch" not in ah.notes(at)


def test_channels_last_group_norm_preset() -> None:
    at = ah.pressed("frameworks", "fw-presets-2")
    pt, keras, flax = codes(at)
    assert ".permute(0, 3, 1, 2).contiguous()" in pt
    assert "GroupNormalization(groups=2, axis=-1)" in keras
    assert "nn.GroupNorm(num_groups=2)" in flax and "transpose" not in flax
    assert any("contiguous" in i.value for i in at.info)


def test_batch_norm_preset_shows_running_statistics() -> None:
    at = ah.pressed("frameworks", "fw-presets-3")
    assert len(ah.figures(at)) == 4
    gap_pt = float(ah.metric(at, "PyTorch, momentum 0.1"))
    gap_keras = float(ah.metric(at, "Keras, momentum 0.99"))
    assert gap_keras > gap_pt  # after 10 steps Keras has barely moved from (0, 1)
    before = state(at)
    at.select_slider(key="steps").set_value(200).run()
    ah.assert_clean(at)
    assert state(at) != before
    before = state(at)
    at.number_input(key="ch").set_value(3).run()
    assert state(at) != before


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("radio", "scheme", "rms"),
        ("radio", "layout", "nchw"),
        ("radio", "backend", "numpy"),
        ("number_input", "n", 3),
        ("number_input", "h", 6),
        ("number_input", "c", 12),
        ("select_slider", "loc", 100.0),
        ("select_slider", "sd", 0.01),
        ("number_input", "seed", 7),
        ("checkbox", "match", True),
        ("radio", "pair", "flax-pytorch"),
    ],
)
def test_each_control_changes_what_is_shown(kind: str, key: str, value) -> None:
    at = ah.page("frameworks")
    before = state(at)
    getattr(at, kind)(key=key).set_value(value).run()
    ah.assert_clean(at)
    assert state(at) != before


def test_width_and_groups_change_image_and_group_results() -> None:
    at = ah.page("frameworks", {"scheme": "group", "layout": "NCHW"})
    before = state(at)
    at.number_input(key="w").set_value(5).run()
    assert state(at) != before
    before = state(at)
    at.select_slider(key="g").set_value(4).run()
    assert state(at) != before
    assert "nn.GroupNorm(num_groups=4, num_channels=8)" in codes(at)[0]


def test_url_state_is_restored() -> None:
    query = {"scheme": "group", "layout": "NCHW", "c": "8", "g": "4", "loc": "100",
             "sd": "0.3", "match": "true", "seed": "5"}  # fmt: skip
    at = ah.page("frameworks", query)
    ah.assert_clean(at)
    assert not at.warning
    pt, keras, flax = codes(at)
    assert "nn.GroupNorm(num_groups=4, num_channels=8)" in pt
    assert "groups=4" in keras and "epsilon=1e-05" in keras
    assert "use_fast_variance=False" in flax and flax.count("jnp.transpose") == 2
    assert at.select_slider(key="loc").value == 100.0
    assert at.number_input(key="seed").value == 5


@pytest.mark.parametrize(
    "query",
    [
        {"loc": "nan"},
        {"sd": "inf"},
        {"n": "1e9"},
        {"c": "-4"},
        {"h": "lots"},
        {"scheme": "<script>alert(1)</script>"},
        {"layout": "NCHWX"},
        {"g": "7"},
        {"steps": "99999", "scheme": "batch"},
        {"ch": "999", "scheme": "batch"},
        {"pair": "torch-torch"},
        {"seed": "12345678901234567890"},
        {"scheme": ["batch", "<b>x</b>"]},
    ],
)
def test_bad_url_values_show_a_message_not_an_error(query) -> None:
    ah.refused("frameworks", query)


def test_batch_with_one_value_per_channel_falls_back_with_a_message() -> None:
    at = ah.page("frameworks", {"scheme": "batch", "n": "1", "h": "1"})
    ah.assert_clean(at)
    assert at.error and "more than one value per channel" in at.error[0].value


def test_keras_nan_far_from_zero_is_reported_not_raised() -> None:
    at = ah.page("frameworks", {"loc": "10000", "sd": "0.001", "backend": "NumPy"})
    ah.assert_clean(at)
    assert ah.metric(at, "max |Keras 3 (NumPy) − PyTorch|") == "NaN"
    assert any("Keras 3 (NumPy) produced NaN" in w.value for w in at.warning)
    assert len(ah.figures(at)) == 3


def test_keras_on_jax_gives_no_nan_far_from_zero() -> None:
    """jnp.var is two-pass: the same input that breaks the NumPy backend stays finite."""
    at = ah.page("frameworks", {"loc": "10000", "sd": "0.001"})
    ah.assert_clean(at)
    assert ah.metric(at, "max |Keras 3 (JAX) − PyTorch|") != "NaN"
    assert not at.warning


# ---- issue 14: every framework statement per backend, scheme and version ----------------


@pytest.mark.parametrize(
    ("backend", "scheme", "keras_variance"),
    [
        ("JAX", "layer", "two-pass (jnp.var)"),
        ("TensorFlow", "batch", "two-pass (tf.nn.moments)"),
        ("torch", "layer", "PyTorch's kernel (F.layer_norm): Welford"),
        ("torch", "group", "E[x²] − E[x]², not clamped"),
        ("NumPy", "layer", "E[x²] − E[x]², not clamped"),
    ],
)
def test_defaults_table_names_keras_variance_per_backend(backend, scheme, keras_variance) -> None:
    at = ah.page("frameworks", {"backend": backend, "scheme": scheme, "n": "2", "h": "4"})
    ah.assert_clean(at)
    assert table(at, "framework")["variance"][1] == keras_variance


@pytest.mark.parametrize(
    ("scheme", "pytorch_variance"),
    [
        ("layer", "Welford (blocks merged pairwise)"),
        ("group", "Welford; for channels-last input E[x²] − E[x]², clamped at 0"),
        ("instance", "two-pass, sums in float64 (the batch-norm kernel)"),
        ("batch", "two-pass, sums in float64"),
    ],
)
def test_defaults_table_names_pytorchs_cpu_kernel(scheme, pytorch_variance) -> None:
    at = ah.page("frameworks", {"scheme": scheme})
    assert table(at, "framework")["variance"][0] == pytorch_variance


def test_defaults_table_columns_follow_the_scheme() -> None:
    """Momentum and running variance are batch norm's; RMS norm has no variance at all."""
    layer = table(ah.page("frameworks"), "framework")
    assert "momentum" not in layer and "running variance fed" not in layer
    batch = table(ah.page("frameworks", {"scheme": "batch"}), "framework")
    assert batch["default ε"] == ["1e-05", "0.001", "1e-05"]  # Flax BatchNorm: 1e-5
    assert batch["momentum"][0] == "0.1, the weight of the new batch"
    assert batch["momentum"][2] == "0.99, the weight of the old value"
    assert batch["running variance fed"] == ["unbiased", "biased", "biased"]
    rms = table(ah.page("frameworks", {"scheme": "RMS"}), "framework")
    assert "variance" not in rms and "momentum" not in rms
    assert rms["statistic"] == ["mean of x² (no mean subtracted)"] * 3
    assert rms["default ε"] == ["1.2e-07 (float32's machine ε)", "1e-06", "1e-06"]
    assert rms["parameters created"] == ["weight (8,)", "scale (8,)", "scale (8,)"]


def test_notes_follow_the_scheme_and_the_state() -> None:
    at = ah.page("frameworks", {"scheme": "RMS"})
    text = ah.notes(at)
    assert "√(E[x²] + ε)" in text and "σ²" not in text
    assert "two-pass variance then" not in text and "nothing beyond rounding" not in text
    at = ah.page("frameworks")
    assert "Make the spread smaller" in ah.notes(at)
    at.button(key="fw-presets-0").click().run()  # the 'ε matters' preset is shown...
    assert "Make the spread smaller" not in ah.notes(at)  # ...so it is not offered again
    at.button(key="fw-presets-1").click().run()
    assert "'large mean' preset" not in ah.notes(at)


def test_no_keras_statement_without_its_backend() -> None:
    """Nothing on the page attributes E[x²] − E[x]² to Keras in general."""
    at = ah.page("frameworks")
    body = ah.texts(at) + ah.notes(at)
    assert "Keras's own E[x²]" not in body and "Keras, Flax defaults" not in body
    assert 'os.environ["KERAS_BACKEND"] = "jax"' in codes(at)[1]  # the code names it too
    for f in ah.figures(at):
        for trace in f["data"]:
            assert "Keras, Flax" not in str(trace.get("name", ""))


def test_no_private_labels_and_no_raw_float_noise() -> None:
    at = ah.page("frameworks", {"scheme": "batch"})
    for d in at.dataframe:
        for value in d.value.astype(str).to_numpy().ravel():
            assert not re.search(r"\d\.\d{9,}", value), value
    for m in at.metric:
        assert len(m.value) <= 9, m.value  # three significant digits
    body = ah.texts(at) + ah.notes(at)
    assert "the notes" not in body.lower() and "(seed)" not in body.lower()
    assert not re.search(r"\b[CW]\d+\b", body)
