"""AppTest of the invariance page: shifts, scaling, RMS contrast and the affine redundancy."""

from __future__ import annotations

import pytest

from tests import apptest_helpers as ah

PAGE = "invariance"
SHIFT_CHANGE = "largest change max |u_ε(z + c) − u_ε(z)|"
UNEQUAL_CHANGE = "largest change max |u_ε(z + s) − u_ε(z)|"


def test_default_shows_the_seed_numbers() -> None:
    at = ah.page(PAGE)
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 6
    # 1: (1, 2, 3) and (101, 102, 103) give the same core (−1, 0, 1) at eps = 1/3
    assert ah.metric(at, SHIFT_CHANGE) == "0"
    text = ah.texts(at)
    assert "(101, 102, 103)" in text
    assert "**(−1, 0, 1)**" in text
    fig = ah.figure(at, "layer norm before and after z + c")
    assert ah.trace(fig, "u_ε(z)")["y"] == ah.trace(fig, "u_ε(z + c)")["y"] == [-1, 0, 1]
    # 2: (1, 2, 4) gives (−4, −1, 5)/√17
    assert "(−4/√17, −1/√17, 5/√17)" in text
    assert ah.metric(at, UNEQUAL_CHANGE) == "0.242536"  # 1/√17, in the middle coordinate
    assert ah.metric(at, "common part of s (removed)") == "0.333333"
    # 3: scaling by 10 changes the core at eps = 1/3 but not at eps = 0
    ah.assert_metrics(at, {"max change at ε = 1/3": "0.22169444", "same a at ε = 0": "0"})
    # 5: the two redundant changes do nothing, the raw-input shift does something
    ah.assert_metrics(at, {"max change, b + c": "0", "max change, W + 1rᵀ": "0"})
    assert float(ah.metric(at, "max change, x + Δx")) > 0.1


def test_rms_contrast_bars() -> None:
    at = ah.page(PAGE)
    fig = ah.figure(at, "Largest change of the output")
    ln, rms = ah.trace(fig, "layer norm")["y"], ah.trace(fig, "RMS norm")["y"]
    assert ln[0] == 0  # layer norm ignores the common shift
    assert rms[0] > 0.5  # RMS norm does not
    assert ln[1] > 0 and rms[1] > 0  # both feel the scaling at eps = 1/3


@pytest.mark.parametrize("index", range(4))
def test_every_preset_runs_clean(index: int) -> None:
    at = ah.pressed(PAGE, f"inv-presets-{index}")
    assert "nan" not in ah.texts(at).lower()


def test_split_shift_preset_keeps_only_the_uneven_part() -> None:
    """Preset 1 has its own state (it used to repeat the defaults): s = (5, 5, 6) = 5 +
    (0, 0, 1) moves the core exactly as (0, 0, 1) does, its common part removed."""
    at = ah.page(PAGE)
    default = ah.metric(at, UNEQUAL_CHANGE)
    at.button(key="inv-presets-1").click().run()
    ah.assert_clean(at)
    assert at.text_input(key="s").value == "5, 5, 6"
    assert ah.metric(at, "common part of s (removed)") == "5.333333"
    assert ah.metric(at, UNEQUAL_CHANGE) == default == "0.242536"
    assert "(−4/√17, −1/√17, 5/√17)" in ah.texts(at)


def test_worked_example_preset_restores_every_worked_value() -> None:
    at = ah.pressed(PAGE, "inv-presets-0", {"s": "5, 5, 6", "c": "-1", "eps": "1"})
    assert at.text_input(key="s").value == "0, 0, 1"
    assert at.select_slider(key="c").value == 100.0
    assert at.select_slider(key="eps").value == pytest.approx(1 / 3)


def test_scaling_at_eps_zero_preset_is_exact() -> None:
    at = ah.pressed(PAGE, "inv-presets-2")
    assert at.select_slider(key="eps").value == 0.0
    assert ah.metric(at, "max change at ε = 0") == "0"
    fig = ah.figure(at, "Largest change of the output")
    assert ah.trace(fig, "RMS norm")["y"][1] == pytest.approx(0, abs=1e-12)


def test_common_shift_slider_changes_shown_data_but_not_the_core() -> None:
    at = ah.page(PAGE)
    rms_before = ah.trace(ah.figure(at, "Largest change"), "RMS norm")["y"][0]
    at.select_slider(key="c").set_value(-10.0).run()
    ah.assert_clean(at)
    assert "(−9, −8, −7)" in ah.texts(at)
    assert ah.metric(at, SHIFT_CHANGE) == "0"
    assert ah.trace(ah.figure(at, "Largest change"), "RMS norm")["y"][0] != rms_before


def test_unequal_shift_input_changes_the_chart() -> None:
    at = ah.page(PAGE)
    at.text_input(key="s").set_value("7, 7, 7").run()
    ah.assert_clean(at)
    assert ah.metric(at, UNEQUAL_CHANGE) == "0"  # equal entries: a common shift after all
    at.text_input(key="s").set_value("1, 0, 0").run()
    assert ah.metric(at, UNEQUAL_CHANGE) not in ("0", "0.242536")


def test_scale_slider_changes_scale_chart() -> None:
    at = ah.page(PAGE)
    before = ah.trace(ah.figure(at, "Scaling by"), "u_ε(a·z)")["y"]
    at.select_slider(key="a").set_value(0.5).run()
    ah.assert_clean(at)
    after = ah.trace(ah.figure(at, "Scaling by"), "u_ε(a·z)")["y"]
    assert before != after


def test_z_and_eps_change_the_numbers() -> None:
    at = ah.page(PAGE)
    at.text_input(key="z").set_value("0, 5, 1, 2").run()
    ah.assert_clean(at)
    assert any("**s** has 3 entries but z has 4" in str(e.value) for e in at.error)
    assert "(100, 105, 101, 102)" in ah.texts(at)
    at.select_slider(key="eps").set_value(1.0).run()
    assert ah.metric(at, "max change at ε = 1") != "0.22169444"


def test_redundancy_controls_change_the_figures() -> None:
    at = ah.page(PAGE)
    scatter = ah.figure(at, "After each change against before")
    ws = ah.figure(at, "What the raw-input shift adds")
    at.number_input(key="seed").set_value(7).run()
    ah.assert_clean(at)
    assert ah.figure(at, "After each change against before") != scatter
    at.text_input(key="dx").set_value("0, 1, 0").run()
    assert ah.figure(at, "What the raw-input shift adds") != ws
    at.select_slider(key="cb").set_value(-10.0).run()
    assert ah.trace(ah.figure(at, "After each change"), "b + c")["name"] == "b + c, c = −10"
    assert ah.metric(at, "max change, b + c") == "0"
    at.text_input(key="r").set_value("3, 3, -1").run()
    assert (
        ah.trace(ah.figure(at, "After each change"), "W + 1rᵀ")["name"] == "W + 1rᵀ, r = (3, 3, −1)"
    )
    assert ah.metric(at, "max change, W + 1rᵀ") == "0"


def test_redundancy_points_lie_on_the_diagonal() -> None:
    at = ah.page(PAGE)
    fig = ah.figure(at, "After each change against before")
    for name in ("b + c", "W + 1rᵀ"):
        t = ah.trace(fig, name)
        assert t["x"] == pytest.approx(t["y"], abs=1e-5)
    t = ah.trace(fig, "x + Δx")
    assert max(abs(a - b) for a, b in zip(t["x"], t["y"], strict=True)) > 0.1


def test_url_state_is_restored() -> None:
    query = {
        "z": "1, 2, 4",
        "eps": "4/3",
        "c": "10",
        "s": "1, 1, 1",
        "a": "2",
        "seed": "3",
        "cb": "-1",
        "r": "0, 0, 1",
        "dx": "0, 1, 0",
    }
    at = ah.page(PAGE, query)
    ah.assert_clean(at)
    assert not at.warning and not at.error
    assert at.text_input(key="z").value == "1, 2, 4"
    assert at.select_slider(key="eps").value == pytest.approx(4 / 3)
    assert at.select_slider(key="c").value == 10.0
    assert at.text_input(key="s").value == "1, 1, 1"
    assert at.select_slider(key="a").value == 2.0
    assert at.number_input(key="seed").value == 3
    assert at.select_slider(key="cb").value == -1.0
    assert at.text_input(key="r").value == "0, 0, 1"
    assert at.text_input(key="dx").value == "0, 1, 0"
    assert "(11, 12, 14)" in ah.texts(at)
    assert ah.metric(at, UNEQUAL_CHANGE) == "0"


def test_constant_z_at_eps_zero_shows_a_message() -> None:
    at = ah.page(PAGE, {"z": "2, 2, 2", "eps": "0"})
    ah.assert_clean(at)
    assert any("Undefined at ε = 0" in str(w.value) for w in at.warning)
    assert "nan" not in ah.texts(at).lower()
    assert len(ah.figures(at)) == 2  # only the redundancy section, which does not use z


def test_shift_to_a_constant_at_eps_zero_shows_a_message() -> None:
    at = ah.page(PAGE, {"s": "1, 0, -1", "eps": "0"})  # z + s = (2, 2, 2)
    ah.assert_clean(at)
    assert any("z + s has all coordinates equal" in str(w.value) for w in at.warning)


HOSTILE = {  # URL key -> values the page must refuse with a message, one at a time
    "z": ("nan, 1, 2", "1e308, 1, 2", "<script>alert(1)</script>", "1"),
    "eps": ("nan", "1e400"),
    "c": ("abc", "1e999"),
    "s": ("1, 2", "<svg onload=alert(1)>"),
    "a": ("-1", "0"),
    "seed": ("-4", "abc", "99999999999"),
    "cb": ("nan",),
    "r": ("1",),
    "dx": ("nan, 1, 2",),
}


@pytest.mark.parametrize("query", ah.one_key_queries(HOSTILE))
def test_hostile_url_values_show_a_message_not_an_error(query: dict[str, str]) -> None:
    at = ah.refused(PAGE, query)
    assert not any(m.value in ("undefined", "nan") for m in at.metric)


def test_no_private_labels_in_presets_help_or_text() -> None:
    at = ah.page(PAGE)
    shown = [b.label for b in at.button] + [at.select_slider(key="eps").help or "", ah.texts(at)]
    for text in shown:
        assert "seed" not in text.lower().replace("layer seed", "")  # a random seed may stay


def test_one_notation_for_the_core_at_eps_over_a_squared() -> None:
    """Issue 14 item 7: u_(ε/a²), never u_ε/a² (u_ε divided by a²)."""
    at = ah.page(PAGE)
    alts = [c.proto.alt for c in at.get("plotly_chart")]
    shown = "\n".join([ah.texts(at), *alts, *(c.proto.spec for c in at.get("plotly_chart"))])
    assert "u_ε/a²" not in shown
    assert "identity error |u_ε(az) − u_(ε/a²)(z)|" in [m.label for m in at.metric]
    assert ah.trace(ah.figure(at, "Scaling by"), "u_(ε/a²)(z)")


def test_common_shift_rounding_is_not_called_exact() -> None:
    """Issue 14 item 6: (0.1, 0.2, 0.3) + 1000 computes a change of ~1e-13: rounding."""
    at = ah.page(PAGE, {"z": "0.1, 0.2, 0.3", "c": "1000"})
    ah.assert_clean(at)
    text = ah.notes(at)
    assert "not just approximately" not in text and "layer norm's bar is 0" not in text
    assert "the rounding of z + c itself" in text and "(rounding)" in text


def test_notes_follow_the_state_shown() -> None:
    at = ah.page(PAGE, {"s": "7, 7, 7", "dx": "0, 0, 0", "c": "-1"})
    ah.assert_clean(at)
    text = ah.notes(at)
    assert "Try s with equal entries" not in text and "a common shift after all" in text
    assert "Red diamonds leave the diagonal" not in text and "stay on the diagonal" in text
    assert "shrinks" in text and "grows with c" not in text  # (1, 2, 3) - 1 = (0, 1, 2)
    at.button(key="inv-presets-2").click().run()  # scaling at ε = 0
    text = ah.notes(at)
    assert "(try the preset)" not in text and "Scaling at ε = 0 (exact)" not in text
    assert "both exactly invariant" in text


def test_rms_section_speaks_of_its_mean_square_only() -> None:
    at = ah.page(PAGE)
    rms = next(n for n in ah.notes(at).split("\n") if n.startswith("- Common shift"))
    assert "mean square m" in rms
    for word in ("variance", "bias", "mean 0", "centred on"):
        assert word not in rms
