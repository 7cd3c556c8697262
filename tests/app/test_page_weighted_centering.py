"""AppTest of the weighted-centering page: defaults, presets, controls and URL state."""

from __future__ import annotations

import re

import pytest

from tests import apptest_helpers as ah
from tests.deep_links import via_router

NAME = "weighted-centering"
PLANE, OBJECTIVE, SPACE, MATRIX = range(4)  # order of the charts on the page


def rows(at) -> dict[str, list[str]]:
    """Cells of every markdown table row on the page, keyed by the row's first cell.

    A label used in several tables (e.g. 'Pₐx') keeps all of its rows, in page order.
    """
    out: dict[str, list[str]] = {}
    for md in at.markdown:
        for line in str(md.value).splitlines():
            cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= {"-"}:
                out.setdefault(cells[0], []).append(" | ".join(cells[1:]))
    return out


def cell(at, label: str, index: int = 0) -> str:
    return rows(at)[label][index]


def trace(fig: dict, name: str) -> dict:
    return next(t for t in fig["data"] if t.get("name") == name)


def point(fig: dict, label: str) -> list[float]:
    """Coordinates of the labelled marker (text == label) of a plane or space figure."""
    t = next(t for t in fig["data"] if t.get("text") == [label])
    return [t[k][0] for k in ("x", "y", "z") if k in t]


def check_verdicts(at) -> dict[str, str]:
    table = at.dataframe[0].value
    return dict(zip(table["property"], table["holds"], strict=True))


# --- defaults and the worked example -------------------------------------------------


def test_default_state_is_the_worked_example() -> None:
    at = ah.page(NAME)
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 4
    assert cell(at, "weights a = (w, 1 − w)") == "(0.25, 0.75)"
    assert cell(at, "aᵀx, the weighted mean of x") == "2.5"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(1.5, −0.5)"
    assert cell(at, "weighted mean of Pₐx") == "0"
    assert cell(at, "ordinary mean of Pₐx") == "0.5"
    assert cell(at, "Euclidean projection") == "(3, −1)"
    assert cell(at, "angle") == "90° | 63.43°"
    assert cell(at, "inner product") == "0 | 2.5"
    assert not at.warning and not at.error


def test_plane_figure_draws_the_engine_points() -> None:
    fig = ah.figures(ah.page(NAME))[PLANE]
    assert point(fig, "x") == [4.0, 2.0]
    assert point(fig, "Pₐx") == [1.5, -0.5]
    assert point(fig, "Euclidean") == [3.0, -1.0]
    kernel = trace(fig, "ker aᵀ: weighted mean 0")
    for x1, x2 in zip(kernel["x"], kernel["y"], strict=True):  # a^T y = 0 on the line
        assert abs(0.25 * x1 + 0.75 * x2) < 1e-4
    assert fig["layout"]["yaxis"]["scaleanchor"] == "x"  # equal aspect ratio
    assert fig["layout"]["xaxis"]["range"] == fig["layout"]["yaxis"]["range"] == [-5.0, 5.0]


def test_least_squares_fit_of_the_worked_example() -> None:
    at = ah.page(NAME)
    assert cell(at, "fitted constant ĉ (solver)") == "2.5"
    assert cell(at, "residual x − ĉ𝟏") == "(1.5, −0.5)"
    assert cell(at, "f at the minimum") == "0.75"
    assert cell(at, "f at the ordinary mean 3") == "1"
    fig = ah.figures(at)[OBJECTIVE]
    minimum = next(t for t in fig["data"] if t.get("name") == "minimum: c = aᵀx")
    assert (minimum["x"], minimum["y"]) == ([2.5], [0.75])
    assert min(fig["data"][0]["y"]) >= 0.75 - 1e-9


def test_default_space_section_and_matrix() -> None:
    at = ah.page(NAME)
    assert cell(at, "weights a (rescaled to sum 1)") == "(0.125, 0.25, 0.625)"
    assert cell(at, "aᵀx, the weighted mean of x", 1) == "1.875"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏", 1) == "(1.125, −0.875, 0.125)"
    assert cell(at, "Euclidean projection", 1) == "(2.5, 0, −0.5)"
    space = ah.figures(at)[SPACE]
    assert point(space, "Pₐx") == [1.125, -0.875, 0.125]
    assert space["layout"]["scene"]["aspectmode"] == "cube"
    heat = ah.figures(at)[MATRIX]["data"][0]
    assert heat["z"] == [[0.75, -0.75], [-0.25, 0.25]]
    verdicts = check_verdicts(at)
    assert verdicts["Pₐ² = Pₐ (idempotent)"] == "yes"
    assert verdicts["Pₐ𝟏 = 0"] == "yes"
    assert verdicts["rank n − 1"] == "yes"
    assert verdicts["symmetric, Pₐ = Pₐᵀ"] == "no"
    assert verdicts["D Pₐ = Pₐᵀ D = D − a aᵀ"] == "yes"
    assert r"0.1875" in ah.texts(at)  # D - a a^T = 3/16 (1, -1; -1, 1)


# --- presets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(3))
def test_every_preset_runs_clean(index: int) -> None:
    at = ah.pressed(NAME, f"wc-presets-{index}")
    assert len(ah.figures(at)) == 4


def test_worked_example_preset_restores_its_numbers() -> None:
    at = ah.page(NAME, {"w": "0.9", "x": "-3, 7", "m": "3"})
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") != "(1.5, −0.5)"
    at.button(key="wc-presets-0").click().run()
    ah.assert_clean(at)
    assert at.slider(key="w").value == 0.25
    assert at.text_input(key="x").value == "4, 2"
    assert at.radio(key="m").value == "2"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(1.5, −0.5)"
    assert cell(at, "Euclidean projection") == "(3, −1)"


def test_equal_weights_preset_is_the_usual_centering() -> None:
    at = ah.pressed(NAME, "wc-presets-1")
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(1, −1)"  # x = (4, 2), mean 3
    assert cell(at, "Euclidean projection") == "(1, −1)"
    assert cell(at, "ordinary mean of Pₐx") == "0"
    assert cell(at, "angle") == "90° | 90°"
    assert cell(at, "weights a (rescaled to sum 1)") == "(0.3333, 0.3333, 0.3333) = (1/3, 1/3, 1/3)"
    assert check_verdicts(at)["symmetric, Pₐ = Pₐᵀ"] == "yes"
    assert any("usual centering matrix" in str(s.value) for s in at.success)


def test_zero_weight_preset_says_what_breaks() -> None:
    at = ah.pressed(NAME, "wc-presets-2")
    assert cell(at, "weights a = (w, 1 − w)") == "(0, 1)"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(2, 0)"
    assert cell(at, "Euclidean projection") == "(4, 0)"
    assert cell(at, "angle") == "undefined | 45°"
    warnings = " ".join(str(w.value) for w in at.warning)
    assert "semi-definite" in warnings and "What breaks" in warnings
    assert "D-length is 0" in ah.texts(at)
    assert cell(at, "weights a (rescaled to sum 1)") == "(0, 0.5, 0.5)"
    assert check_verdicts(at)["D Pₐ = Pₐᵀ D = D − a aᵀ"] == "yes"  # the algebra survives


# --- every control changes what is shown ---------------------------------------------------


def test_w_slider_moves_the_line_and_the_numbers() -> None:
    at = ah.page(NAME)
    before = trace(ah.figures(at)[PLANE], "ker aᵀ: weighted mean 0")["y"]
    at.slider(key="w").set_value(0.5).run()
    ah.assert_clean(at)
    assert trace(ah.figures(at)[PLANE], "ker aᵀ: weighted mean 0")["y"] != before
    assert cell(at, "aᵀx, the weighted mean of x") == "3"
    assert ah.figures(at)[OBJECTIVE]["data"][2]["x"] == [3.0]


def test_x_input_moves_the_point() -> None:
    at = ah.page(NAME)
    at.text_input(key="x").set_value("-2, 6").run()
    ah.assert_clean(at)
    assert cell(at, "aᵀx, the weighted mean of x") == "4"  # -0.5 + 4.5
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(−6, 2)"
    assert point(ah.figures(at)[PLANE], "x") == [-2.0, 6.0]


def test_space_weights_change_the_plane() -> None:
    at = ah.page(NAME)
    ah.assert_changes(at, "text_input", "a3", "1, 1, 2", lambda f: f[SPACE]["data"][0]["x"])
    assert cell(at, "weights a (rescaled to sum 1)") == "(0.25, 0.25, 0.5)"
    assert cell(at, "aᵀx, the weighted mean of x", 1) == "2"  # (3 + 1 + 4) / 4


def test_space_point_moves() -> None:
    at = ah.page(NAME)
    at.text_input(key="x3").set_value("0, 0, 8").run()
    ah.assert_clean(at)
    assert cell(at, "aᵀx, the weighted mean of x", 1) == "5"
    assert point(ah.figures(at)[SPACE], "x") == [0.0, 0.0, 8.0]


def test_matrix_choice_switches_to_three_coordinates() -> None:
    at = ah.page(NAME)
    at.radio(key="m").set_value("3").run()
    ah.assert_clean(at)
    z = ah.figures(at)[MATRIX]["data"][0]["z"]
    assert len(z) == 3
    assert z[0] == [0.875, -0.25, -0.625]
    assert check_verdicts(at)["rank n − 1"] == "yes"
    at.text_input(key="a3").set_value("2, 2, 2").run()  # the fragment redraws the matrix
    assert check_verdicts(at)["symmetric, Pₐ = Pₐᵀ"] == "yes"


# --- URL state --------------------------------------------------------------------------------


def test_url_state_is_restored() -> None:
    at = ah.page(NAME, {"w": "0.5", "x": "3, -1", "a3": "1, 1, 1", "x3": "1, 2, 3", "m": "3"})
    ah.assert_clean(at)
    assert at.slider(key="w").value == 0.5
    assert at.text_input(key="x").value == "3, -1"
    assert at.text_input(key="a3").value == "1, 1, 1"
    assert at.text_input(key="x3").value == "1, 2, 3"
    assert at.radio(key="m").value == "3"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(2, −2)"
    assert cell(at, "Pₐx = x − (aᵀx)𝟏", 1) == "(−1, 0, 1)"
    assert len(ah.figures(at)[MATRIX]["data"][0]["z"]) == 3
    assert not at.warning and not at.error


HOSTILE = {  # URL key -> values the page must refuse with a message, one at a time
    "w": ("nan", "-0.5", "1e400", "abc"),
    "x": ("nan, 1", "1", "1, 2, 3", "<script>alert(1)</script>", "1e308, 2"),
    "a3": ("-1, 2, 3", "0, 0, 0", "nan, 1, 1", "1, 2", "1, 2, 3, 4", "1e9, 1, 1"),
    "x3": ("inf, 0, 0", "<img src=x onerror=alert(1)>"),
    "m": ("7", "<b>3</b>"),
}


@pytest.mark.parametrize("query", ah.one_key_queries(HOSTILE))
def test_bad_url_values_show_a_message_not_an_error(query: dict[str, str]) -> None:
    at = ah.refused(NAME, query)
    assert len(ah.figures(at)) == 4


def test_all_zero_weights_fall_back_with_a_message() -> None:
    at = ah.page(NAME, {"a3": "0, 0, 0"})
    assert "at least one weight must be > 0" in ah.shown(at.error[0].value)
    assert cell(at, "weights a (rescaled to sum 1)") == "(0.125, 0.25, 0.625)"


def test_constant_point_has_no_angle() -> None:
    at = ah.page(NAME, {"x": "2, 2"})
    ah.assert_clean(at)
    assert cell(at, "Pₐx = x − (aᵀx)𝟏") == "(0, 0)"
    assert cell(at, "angle") == "undefined | undefined"
    assert any("x is constant" in str(i.value) for i in at.info)


# --- text true for the state shown (issue 14: items 3, 4, 7 and 8) ----------------------------


def test_equal_weights_bullets_describe_the_state_shown() -> None:
    """No bullet offers equal weights as something to try, or a slant that is not there."""
    at = ah.pressed(NAME, "wc-presets-1")
    text = ah.texts(at)
    assert "Here w = 0.5" in text and "would coincide" not in text
    assert "Here the weights are equal" in text
    assert "at a slant" not in text and "With equal weights (e.g. 1, 1, 1)" not in text
    assert "not at the ordinary mean" not in text
    assert "the columns do so only for equal weights" not in text


def test_default_bullets_point_at_equal_weights_as_another_state() -> None:
    text = ah.texts(ah.page(NAME))
    assert "At w = 0.5 the two lines would coincide" in text
    assert "at a slant" in text
    assert "not at the ordinary mean 3 of x" in text


def test_zero_weight_bullets_name_the_coordinate() -> None:
    at = ah.pressed(NAME, "wc-presets-2")
    text = ah.texts(at)
    assert "Here a₁ = 0: f ignores x₁" in text
    assert "only semi-definite, not an inner product" in text  # the matrix bullets (m = 2)


def test_a_point_already_centred_has_no_step() -> None:
    at = ah.page(NAME, {"x": "3, -1"})  # aᵀx = 0.75 − 0.75 = 0
    text = ah.texts(at)
    assert "x already has weighted mean 0, so Pₐx = x and there is no step" in text
    assert "drop by" not in text


def test_a_negative_weighted_mean_is_subtracted_not_dropped() -> None:
    text = ah.texts(ah.page(NAME, {"x": "-4, -2"}))
    assert "aᵀx = −2.5 is subtracted from both coordinates" in text


def test_rounding_residues_are_not_called_zero() -> None:
    """Equal weights (1/3 each): Pₐ² − Pₐ is 1.1e−16 in floating point, not 0."""
    at = ah.page(NAME, {"a3": "1, 1, 1", "m": "3"})
    table = at.dataframe[0].value
    measured = dict(zip(table["property"], table["measured"], strict=True))
    assert measured["Pₐ² = Pₐ (idempotent)"] == "max |Pₐ² − Pₐ| = 1.1e−16 (0 up to rounding)"
    # Its size depends on the BLAS kernel the CPU gets (3e−16 on AVX2, 3.1e−16 on
    # AVX-512 with the same NumPy wheel); what matters is that it is shown, not called 0.
    residue = cell(at, "weighted mean of Pₐx", 1)
    assert re.fullmatch(r"\d(\.\d)?e−1[5-7] \(0 up to rounding\)", residue), residue
    assert not re.search(r"\d\.\d{7,}", ah.texts(at))  # no raw float noise anywhere


def test_one_meaning_for_c() -> None:
    """c is the variable of f(c); the step is written (aᵀx)𝟏 and the fitted value ĉ."""
    text = ah.texts(ah.page(NAME))
    assert "step c𝟏" not in text and "fitted c " not in text
    assert "the step (aᵀx)𝟏" in text


@pytest.mark.parametrize("preset", [None, 0, 1, 2])
def test_no_private_labels(preset) -> None:
    at = ah.page(NAME)
    if preset is not None:
        at.button(key=f"wc-presets-{preset}").click().run()
    shown_text = ah.texts(at) + " ".join(c.proto.alt for c in at.get("plotly_chart"))
    assert not re.search(r"seed|the notes", shown_text, flags=re.I)
    assert not re.search(r"\b[CW][0-9]{1,2}\b", shown_text)  # claim ids such as C13, W4


# --- predict, then check ----------------------------------------------------------------


def test_a_right_answer_shows_the_explanation_and_the_link() -> None:
    at = ah.answer(via_router(NAME), NAME, "subtracted", "5")  # at x doubled, (8, 4)
    ah.assert_clean(at)
    assert "is right" in ah.verdicts(at) and "aᵀx = 0.25·8 + 0.75·4 = 5" in ah.verdicts(at)
    (link,) = [p for p in at.main.get("page_link") if "these weights" in p.proto.label]
    assert link.proto.page.endswith(NAME)


def test_expecting_plain_mean_zero_gets_a_hint() -> None:
    at = ah.answer(via_router(NAME), NAME, "plain-mean", "0")
    assert "is not it" in ah.verdicts(at) and "Hint:" in ah.verdicts(at)
    at = ah.answer(at, NAME, "plain-mean", "1")
    assert "is right" in ah.verdicts(at) and "(3, −1)" in ah.verdicts(at)


def test_symmetry_question_follows_the_weights() -> None:
    at = ah.open_question(via_router(NAME, {"w": "0.5", "x": "1, 3"}), NAME, "symmetric")
    assert "At a = (0.5, 0.5), is the matrix Pₐ" in ah.texts(at)
    at = ah.answer(at, NAME, "symmetric", 0)  # yes, for equal weights
    said = ah.verdicts(at)
    assert "That is right" in said and "usual symmetric centering matrix" in said
    at = ah.answer(at, NAME, "subtracted", "4")  # a = (½, ½) at x doubled, (2, 6)
    assert "is right" in ah.verdicts(at)
