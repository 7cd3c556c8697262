"""AppTest of the epsilon page: defaults, presets, controls and URL state."""

from __future__ import annotations

import math

import pytest

from tests import apptest_helpers as ah


def test_default_state_shows_seed_core_and_six_charts() -> None:
    at = ah.page("epsilon")
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 6  # h, h′, variance, scaling, J, eigenvalues
    assert ah.metric(at, "ε") == "1/3"
    assert "(−1, 0, 1)" in ah.texts(at)  # the untitled note's core at eps = 1/3
    assert ah.metric(at, "bound attained?") == "no"


def test_seed_preset_4_3_gives_core_over_sqrt2() -> None:
    at = ah.pressed("epsilon", "eps-presets-1")
    assert ah.metric(at, "ε") == "4/3"
    assert "(−0.707107, 0, 0.707107)" in ah.texts(at)
    assert ah.metric(at, "core variance q/(q+ε)") == "0.333333"


def test_eps_slider_changes_curves_and_numbers() -> None:
    at = ah.page("epsilon")
    ah.assert_changes(at, "select_slider", "eps", 1e-3, lambda f: f[0]["data"][-1]["y"])
    assert ah.metric(at, "bound ε^(−1/2)") == "31.622777"


def test_constant_input_preset_attains_bound() -> None:
    at = ah.pressed("epsilon", "eps-presets-3")
    ah.assert_metrics(at, {"bound attained?": "yes", "operator norm ‖Du‖₂": "10"})


def test_scale_slider_changes_scaling_chart() -> None:
    ah.assert_changes(ah.page("epsilon"), "select_slider", "a", 0.1, lambda f: f[3]["data"][1]["y"])


def test_url_state_is_restored() -> None:
    at = ah.page("epsilon", {"eps": "4/3", "z": "1, 2, 4", "a": "2"})
    ah.assert_clean(at)
    assert ah.metric(at, "ε") == "4/3"
    assert at.text_input(key="z").value == "1, 2, 4"
    assert at.select_slider(key="a").value == 2.0
    assert math.isclose(float(ah.metric(at, "mean μ")), 7 / 3, rel_tol=1e-6)


HOSTILE = {  # URL key -> values the page must refuse with a message, one at a time
    "eps": ("99", "nan"),
    "z": ("1,x", "<script>alert(1)</script>", "1", "1e308, 1, 2"),
    "a": ("-5",),
}


@pytest.mark.parametrize("query", ah.one_key_queries(HOSTILE))
def test_bad_url_values_show_a_message_not_an_error(query: dict[str, str]) -> None:
    ah.refused("epsilon", query)


def test_no_private_labels_in_presets_help_or_text() -> None:
    at = ah.page("epsilon")
    shown = [b.label for b in at.button] + [at.select_slider(key="eps").help or "", ah.texts(at)]
    for text in shown:
        assert "seed" not in text.lower() and "the notes" not in text
        assert "original argument" not in text


def test_constant_input_preset_is_described_not_offered() -> None:
    """Issue 14 item 3: no bullet suggests the preset the page already shows."""
    at = ah.page("epsilon")
    assert "try the 'Constant input' preset" in ah.notes(at)
    at.button(key="eps-presets-3").click().run()
    text = ah.notes(at)
    assert "try the 'Constant input' preset" not in text
    assert "reaches the bound ε^(−1/2) = 10" in text
    assert "no radial direction" in text and "The radial direction v has" not in text


def test_two_coordinates_have_no_tangential_directions() -> None:
    at = ah.page("epsilon", {"z": "1, 2"})
    ah.assert_clean(at)
    text = ah.notes(at)
    assert "orthogonal to 𝟏 and v" not in text and "d = 2" in text


def test_one_meaning_per_symbol_in_the_jacobian_table() -> None:
    """v is the centred input on this page; the table's probe vector is b."""
    at = ah.page("epsilon")
    columns = list(at.dataframe[0].value.columns)
    assert "measured bᵀJb" in columns and not any("vᵀJv" in c for c in columns)


def test_core_variance_near_one_is_not_called_exactly_one() -> None:
    at = ah.page("epsilon", {"z": "-1000, 1000", "eps": "1e-06"})
    ah.assert_clean(at)
    assert ah.metric(at, "core variance q/(q+ε)") == "1"  # the decimal rounds
    text = ah.notes(at)
    assert "never exactly 1" not in text and "falls short of 1 by ε/(q+ε) = 1e−12" in text


def test_scaling_notes_follow_a() -> None:
    at = ah.page("epsilon", {"a": "1"})
    text = ah.notes(at)
    assert "With a = 1 nothing is scaled" in text and "moves by up to" not in text
    assert "u_(ε/a²)" in text and "u_ε/a²" not in ah.texts(at)
