"""AppTest of the gain-and-bias page: the untitled note's toy, presets, controls and URL state."""

from __future__ import annotations

import math
import re

import pytest

from tests import apptest_helpers as ah

PAGE = "gain-and-bias"
SQRT32 = math.sqrt(1.5)


def bar_values(at, index: int) -> list[float]:
    """y values of the bars of stage chart `index` (0 input, 1 core, 2 output)."""
    fig = ah.figures(at)[index]
    return next(t["y"] for t in fig["data"] if t["type"] == "bar")


def test_default_is_the_seed_toy_at_eps_zero() -> None:
    at = ah.page(PAGE)
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 4  # three stages + moments
    assert at.select_slider(key="eps").value == 0.0
    assert ah.metric(at, "output mean") == "0.333333"
    assert ah.metric(at, "output variance") == "1.222222"
    assert ah.metric(at, "core variance") == "1"
    assert ah.metric(at, "q/(q+ε)") == "1"
    text = ah.texts(at)
    assert "(−√(3/2), 0, √(3/2))" in text  # the core
    assert "(−√(3/2), 1, √(3/2))" in text  # the output
    assert "0.333333 = 1/3" in text and "1.222222 = 11/9" in text
    assert bar_values(at, 1) == pytest.approx([-SQRT32, 0.0, SQRT32], abs=1e-6)
    assert bar_values(at, 2) == pytest.approx([-SQRT32, 1.0, SQRT32], abs=1e-6)


def test_lipschitz_bound_is_infinite_at_eps_zero_and_says_so() -> None:
    at = ah.page(PAGE)
    ah.assert_metrics(at, {"core bound ε^(−1/2)": "∞", "output bound max|γᵢ|·ε^(−1/2)": "∞"})
    assert any("no finite bound" in str(i.value) for i in at.info)


@pytest.mark.parametrize("index", range(5))
def test_every_preset_runs_clean(index: int) -> None:
    at = ah.pressed(PAGE, f"gb-presets-{index}")
    assert "nan" not in ah.texts(at).lower()


def test_eps_one_third_preset_shows_core_variance_below_one() -> None:
    at = ah.pressed(PAGE, "gb-presets-1")
    assert at.select_slider(key="eps").value == pytest.approx(1 / 3)
    assert ah.metric(at, "core variance") == "0.666667"  # q/(q+eps) = (2/3)/(2/3+1/3)
    assert ah.metric(at, "q/(q+ε)") == "0.666667"
    assert ah.metric(at, "core bound ε^(−1/2)") == "1.732051"  # sqrt(3)
    assert ah.metric(at, "output bound max|γᵢ|·ε^(−1/2)") == "3.464102"  # 2 sqrt(3)
    assert bar_values(at, 1) == pytest.approx([-1.0, 0.0, 1.0], abs=1e-6)


def test_plain_core_preset_has_mean_zero_variance_one() -> None:
    at = ah.pressed(PAGE, "gb-presets-2")
    ah.assert_metrics(at, {"output mean": "0", "output variance": "1"})


def test_constant_input_gives_beta() -> None:
    at = ah.pressed(PAGE, "gb-presets-3")
    assert any("output is exactly β = (0, 1, 0)" in str(s.value) for s in at.success)
    assert bar_values(at, 2) == pytest.approx([0.0, 1.0, 0.0])
    assert ah.metric(at, "output mean") == "0.333333"
    assert ah.metric(at, "output variance") == "0.222222"  # variance of (0, 1, 0) = 2/9
    assert ah.metric(at, "core bound ε^(−1/2)") == "10"
    assert ah.metric(at, "output bound max|γᵢ|·ε^(−1/2)") == "20"


def test_constant_input_at_eps_zero_shows_a_message_not_nans() -> None:
    at = ah.pressed(PAGE, "gb-presets-4")
    assert any("Undefined at ε = 0" in str(w.value) for w in at.warning)
    assert not at.dataframe  # no table of NaNs
    assert "output mean" not in [m.label for m in at.metric]
    assert "nan" not in ah.texts(at).lower()
    # the core and output panels carry a note instead of bars
    for index in (1, 2):
        fig = ah.figures(at)[index]
        assert not fig["data"]
        assert "undefined" in fig["layout"]["annotations"][0]["text"]


def test_z_input_changes_the_stages() -> None:
    at = ah.page(PAGE)
    before = bar_values(at, 1)
    at.text_input(key="z").set_value("1, 2, 4").run()
    ah.assert_clean(at)
    assert bar_values(at, 0) == [1.0, 2.0, 4.0]
    assert bar_values(at, 1) != before
    assert ah.metric(at, "output mean") != "0.333333"


def test_gamma_input_changes_the_output_only() -> None:
    at = ah.page(PAGE)
    core = bar_values(at, 1)
    at.text_input(key="gamma").set_value("3, 3, 3").run()
    ah.assert_clean(at)
    assert bar_values(at, 1) == core
    assert bar_values(at, 2) == pytest.approx([-3 * SQRT32, 1.0, 3 * SQRT32], abs=1e-5)
    assert ah.metric(at, "output variance") != "1.222222"


def test_beta_input_moves_the_output_mean() -> None:
    at = ah.page(PAGE)
    at.text_input(key="beta").set_value("5, 5, 5").run()
    ah.assert_clean(at)
    # gamma * u = (−√(3/2), 0, √(3/2)) has mean 0 and variance 1; a common bias only moves it
    ah.assert_metrics(at, {"output mean": "5", "output variance": "1"})


def test_eps_slider_changes_core_and_bound() -> None:
    at = ah.page(PAGE)
    at.select_slider(key="eps").set_value(4 / 3).run()
    ah.assert_clean(at)
    s = 1 / math.sqrt(2)
    # the untitled note's (−1, 0, 1)/√2
    assert bar_values(at, 1) == pytest.approx([-s, 0.0, s], abs=1e-6)
    ah.assert_metrics(at, {"core variance": "0.333333", "core bound ε^(−1/2)": "0.866025"})


def test_url_state_is_restored() -> None:
    query = {"z": "1, 2, 4", "gamma": "2, 2, 2", "beta": "1, 1, 1", "eps": "1/3"}
    at = ah.page(PAGE, query)
    ah.assert_clean(at)
    assert at.text_input(key="z").value == "1, 2, 4"
    assert at.text_input(key="gamma").value == "2, 2, 2"
    assert at.text_input(key="beta").value == "1, 1, 1"
    assert at.select_slider(key="eps").value == pytest.approx(1 / 3)
    # y = 2 u + 1 with u = (−4, −1, 5)/√17: mean 1, variance 4 q/(q+eps) = 56/17
    ah.assert_metrics(at, {"output mean": "1", "output variance": "3.294118"})


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"gamma": "1, 2"}, "γ"),
        ({"beta": "0, 1, 0, 0"}, "β"),
        ({"z": "1, 2, 3, 4"}, "γ"),  # gamma and beta no longer match z
    ],
)
def test_wrong_lengths_name_the_field(query: dict[str, str], field: str) -> None:
    at = ah.page(PAGE, query)
    ah.assert_clean(at)
    assert any(f"**{field}** has" in str(e.value) for e in at.error)
    assert len(ah.figures(at)) == 4


HOSTILE = {  # URL key -> values the page must refuse with a message, one at a time
    "z": ("nan, 1, 2", "1e308, 1, 2", "hello", "<script>alert(1)</script>", "1"),
    "gamma": ("inf, 1, 1", "1e999, 1, 1"),
    "beta": ("<img src=x onerror=alert(1)>",),
    "eps": ("nan", "-1", "99", "<b>0</b>"),
}


@pytest.mark.parametrize("query", ah.one_key_queries(HOSTILE))
def test_hostile_url_values_show_a_message_not_an_error(query: dict[str, str]) -> None:
    at = ah.refused(PAGE, query)
    assert "nan" not in " ".join(m.value for m in at.metric).lower()


def metric_help(at, label: str) -> str | None:
    return next(m.help for m in at.metric if m.label == label) or None


def test_no_private_labels_in_presets_help_or_text() -> None:
    at = ah.page(PAGE)
    shown = [b.label for b in at.button] + [at.select_slider(key="eps").help or "", ah.texts(at)]
    for text in shown:
        assert "seed" not in text.lower() and "toy" not in text.lower()


def test_tiny_nonzero_mean_is_not_called_exactly_zero() -> None:
    """Issue 14 item 4: z = (1, 2, 4), γ = 1, β = 0: the computed mean is about 7e-17."""
    at = ah.page(PAGE, {"z": "1, 2, 4", "gamma": "1, 1, 1", "beta": "0, 0, 0"})
    ah.assert_clean(at)
    assert ah.metric(at, "output mean") == "0"  # the decimal rounds
    assert metric_help(at, "output mean") is None  # but no "exactly 0"
    core_title = ah.figures(at)[1]["layout"]["title"]["text"]
    assert "mean 0 ·" not in core_title and "e−17" in core_title


def test_variance_near_one_is_not_called_exactly_one() -> None:
    at = ah.page(PAGE, {"z": "-1000, 1000", "gamma": "1, 1", "beta": "0, 0", "eps": "1e-06"})
    ah.assert_clean(at)
    assert metric_help(at, "output variance") is None
    assert "short of 1 by ε/(q+ε) = 1e−12" in ah.notes(at)


def test_notes_describe_the_state_shown() -> None:
    at = ah.page(PAGE)
    assert "Its entry 2 is 0, so the gain 2 there has nothing to multiply" in ah.notes(at)
    at.text_input(key="z").set_value("1, 2, 4").run()
    text = ah.notes(at)
    assert "no entry is 0" in text and "gain 2 there" not in text
    at.button(key="gb-presets-2").click().run()  # γ = 1, β = 0
    text = ah.notes(at)
    assert "γ = 1 and β = 0 here" in text and "(the 'No affine" not in text
    assert "centred, and of variance 1" in text


def test_no_raw_float_noise_in_any_text_or_alt_text() -> None:
    for index in range(5):
        at = ah.page(PAGE)
        at.button(key=f"gb-presets-{index}").click().run()
        alts = [c.proto.alt for c in at.get("plotly_chart")]
        labels = [str(t.get("text", "")) for fig in ah.figures(at) for t in fig["data"]] + [
            fig["layout"]["title"]["text"] for fig in ah.figures(at)
        ]
        shown = "\n".join([ah.texts(at), *alts, *labels])
        assert not re.search(r"\d\.\d{9,}", shown), index
