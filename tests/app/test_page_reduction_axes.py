"""AppTest of the reduction-axes page."""

from __future__ import annotations

import re

import pytest

import lnviz
from tests import apptest_helpers as ah
from tests.deep_links import via_router


def test_default_shows_token_wise_layer_norm() -> None:
    at = ah.page("reduction-axes")
    ah.assert_clean(at)
    assert len(ah.figures(at)) == 5
    assert ah.metric(at, "statistic groups") == "8"  # B * T = 2 * 4 token rows
    assert ah.metric(at, "entries per group") == "6"
    assert ah.metric(at, "γ shape") == "(6,)"


def test_group_mean_shown_is_the_engines() -> None:
    at = ah.page("reduction-axes")
    x = lnviz.sample_tensor((2, 4, 6), 0)
    expected = lnviz.reduce_tensor(x, "layer", eps=1e-5).mean[0]
    assert float(ah.metric(at, "group 0: mean").replace("−", "-")) == pytest.approx(
        expected, abs=1e-6
    )


@pytest.mark.parametrize(
    ("scheme", "groups", "size"),
    [
        ("batch", "6", "8"),
        ("layer_all", "2", "24"),
        ("instance", "12", "4"),
        ("group", "4", "12"),
        ("rms", "8", "6"),
    ],
)
def test_each_scheme_changes_the_partition(scheme: str, groups: str, size: str) -> None:
    at = ah.page("reduction-axes")
    at.radio(key="scheme").set_value(scheme).run()
    ah.assert_clean(at)
    assert ah.metric(at, "statistic groups") == groups
    assert ah.metric(at, "entries per group") == size


def test_layer_over_all_axes_has_two_dimensional_parameters() -> None:
    at = ah.page("reduction-axes", {"scheme": "layer-all"})
    assert ah.metric(at, "γ shape") == "(4, 6)"


def test_constant_token_preset_has_zero_variance_group() -> None:
    at = ah.pressed("reduction-axes", "axes-presets-4")
    ah.assert_metrics(at, {"group 0: mean": "1", "group 0: variance": "0"})


def test_sizes_seed_and_eps_change_the_figures() -> None:
    at = ah.page("reduction-axes")
    ah.assert_changes(at, "number_input", "seed", 7, lambda f: f[2]["data"][0]["z"])
    at.number_input(key="f").set_value(8).run()
    assert ah.metric(at, "entries per group") == "8"
    ah.assert_changes(at, "select_slider", "eps", 10.0, lambda f: f[3]["data"][0]["z"])


def test_entry_chooser_moves_the_highlight() -> None:
    at = ah.page("reduction-axes")
    highlighted = ah.figures(at)[0]["data"][1]["y"]
    at.number_input(key="et").set_value(2).run()
    ah.assert_clean(at)
    assert ah.figures(at)[0]["data"][1]["y"] != highlighted
    assert set(ah.values(ah.figures(at)[0]["data"][1]["y"])) == {2}  # one token's features


def test_groups_snap_to_a_divisor_when_features_change() -> None:
    at = ah.page("reduction-axes", {"scheme": "group", "groups": "3"})
    assert ah.metric(at, "statistic groups") == "6"  # 2 examples * 3 groups
    at.number_input(key="f").set_value(8).run()  # 3 does not divide 8
    ah.assert_clean(at)
    assert at.select_slider(key="groups").value in (2, 4)


def test_url_state_is_restored() -> None:
    at = ah.page(
        "reduction-axes",
        {"b": "3", "t": "5", "f": "4", "seed": "42", "scheme": "batch", "edits": "0,0,0=9"},
    )
    ah.assert_clean(at)
    ah.assert_metrics(at, {"statistic groups": "4", "entries per group": "15"})
    assert at.text_input(key="edits").value == "0,0,0=9"
    assert "9" in str(ah.figures(at)[2]["data"][0]["z"][0][0])


def test_batch_norm_on_a_single_entry_per_feature_is_explained() -> None:
    at = ah.page("reduction-axes", {"b": "1", "t": "1", "scheme": "batch"})
    ah.assert_clean(at)
    assert "more than one entry per feature" in ah.texts(at)


def test_layer_all_and_group_one_share_statistics() -> None:
    at = ah.page("reduction-axes")
    assert ah.metric(at, "same statistic groups") == "yes"
    assert ah.metric(at, "largest gap in means") == "0"
    assert ah.metric(at, "same γ shape") == "no"


@pytest.mark.parametrize(
    "query",
    [
        {"b": "999"},
        {"f": "-3"},
        {"scheme": "bogus"},
        {"groups": "5"},
        {"eps": "inf"},
        {"edits": "<script>alert(1)</script>"},
        {"edits": "9,9,9=1"},
        {"seed": "abc"},
    ],
)
def test_hostile_urls_show_a_message(query: dict[str, str]) -> None:
    ah.refused("reduction-axes", query)


# --- text true for the scheme shown (issue 14: items 3, 4 and 7) ------------------------------


def metric_labels(at) -> list[str]:
    return [m.label for m in at.metric]


def test_rms_shows_no_mean_no_variance_and_no_beta() -> None:
    at = ah.page("reduction-axes", {"scheme": "RMS"})
    ah.assert_clean(at)
    assert "group 0: mean square" in metric_labels(at)
    assert "group 0: mean" not in metric_labels(at)
    assert "β shape" not in metric_labels(at)
    caption = " ".join(str(c.value) for c in at.caption)
    assert "mean square" in caption and "mean and variance" not in caption
    groups = at.dataframe[0].value
    assert "mean" not in groups.columns and "variance" not in groups.columns
    assert "mean square" in groups.columns
    schemes = at.dataframe[1].value
    params = dict(zip(schemes["scheme"], schemes["parameters"], strict=True))
    assert params["RMS norm, token-wise"] == "γ: (6,), no β"
    slider = at.select_slider(key="eps")
    assert slider.label == "ε (added to the mean square)"
    assert "machine epsilon" in slider.help
    assert ah.figures(at)[3]["layout"]["title"]["text"] == "Output y = γ·core"
    assert "there is no β" in ah.texts(at)


def test_layer_norm_shows_mean_variance_and_beta() -> None:
    at = ah.page("reduction-axes")
    assert {"group 0: mean", "group 0: variance", "β shape"} <= set(metric_labels(at))
    assert at.select_slider(key="eps").label == "ε (added to the variance)"
    assert ah.figures(at)[3]["layout"]["title"]["text"] == "Output y = γ·core + β"


def test_batch_eps_help_names_each_frameworks_default() -> None:
    at = ah.page("reduction-axes", {"scheme": "batch"})
    assert "PyTorch 1e-05, Keras 3 0.001, Flax linen 1e-05" in at.select_slider(key="eps").help


@pytest.mark.parametrize("scheme", ["layer", "batch", "layer-all", "instance", "group", "RMS"])
def test_bullets_follow_the_scheme(scheme: str) -> None:
    at = ah.page("reduction-axes", {"scheme": scheme})
    notes = ah.texts(at)
    groups = ah.metric(at, "statistic groups")
    assert f"{groups} groups" in notes  # the bullets count this scheme's groups
    assert ("depends on the rest of the batch" in notes) is (scheme == "batch")
    assert ("there is no β" in notes) is (scheme == "RMS")


def test_group_bullets_describe_the_state_shown() -> None:
    one = ah.texts(ah.page("reduction-axes", {"scheme": "group", "groups": "1"}))
    assert "Here G = 1" in one and "G = 1 would" not in one


@pytest.mark.parametrize("scheme", ["layer", "RMS", "group"])
def test_group_table_numbers_have_no_float_noise(scheme: str) -> None:
    at = ah.page("reduction-axes", {"scheme": scheme})
    table = at.dataframe[0].value
    for name in table.columns[3:]:  # the statistics
        for cell in table[name]:
            assert isinstance(cell, str), (name, cell)
            assert re.fullmatch(r"−?\d+(\.\d{1,6})?", cell), (name, cell)


def test_one_symbol_for_the_feature_count() -> None:
    """F is the number of features in the controls, so the formula divides by F, not d."""
    at = ah.page("reduction-axes")
    latex = " ".join(str(e.value) for e in at.markdown if "$$" in str(e.value))
    assert r"\frac1F" in latex and r"\frac1d" not in latex
    assert at.select_slider(key="groups").label == "feature groups G (group norm)"


@pytest.mark.parametrize("preset", [None, 0, 1, 2, 3, 4])
def test_no_private_labels(preset) -> None:
    """'seed' only as the random seed (a control label, not in the text), no claim ids."""
    at = ah.page("reduction-axes")
    if preset is not None:
        at.button(key=f"axes-presets-{preset}").click().run()
    shown_text = ah.texts(at) + " ".join(c.proto.alt for c in at.get("plotly_chart"))
    assert not re.search(r"seed|the notes", shown_text, flags=re.I)
    assert not re.search(r"\b[CW][0-9]{1,2}\b", shown_text)


def test_refused_batch_norm_describes_the_layer_norm_shown() -> None:
    """B × T = 1: layer norm is shown, so the ε help gives layer norm's defaults."""
    at = ah.page("reduction-axes", {"b": "1", "t": "1", "scheme": "batch"})
    assert "more than one entry per feature" in ah.texts(at)
    assert "Flax linen 1e-06" in at.select_slider(key="eps").help
    assert "Layer norm, token-wise" in " ".join(str(c.value) for c in at.caption)


# --- predict, then check ----------------------------------------------------------------


def test_a_right_answer_shows_the_explanation_and_the_link() -> None:
    at = ah.answer(
        via_router("reduction-axes", {"scheme": "batch"}), "reduction-axes", "entries", "4*8"
    )  # on the question's tensor (4, 8, 12), the page's (2, 4, 6) doubled
    ah.assert_clean(at)
    assert "is right" in ah.verdicts(at) and "B·T = 4·8 = 32" in ah.verdicts(at)
    assert "1 of 4 answered" in ah.texts(at)
    (link,) = [
        p for p in at.main.get("page_link") if p.proto.label == "Show this scheme on this tensor"
    ]
    assert link.proto.page.endswith("reduction-axes")


def test_a_wrong_answer_gets_a_hint_not_the_explanation() -> None:
    at = ah.answer(via_router("reduction-axes"), "reduction-axes", "entries", "8")
    assert "is not it" in ah.verdicts(at) and "Hint:" in ah.verdicts(at)
    assert "entries per group" not in ah.verdicts(at)


def test_the_right_option_is_marked_right() -> None:
    at = via_router("reduction-axes", {"scheme": "layer-all", "t": "3"})
    at = ah.answer(at, "reduction-axes", "gamma", 1)  # (T, F)
    assert "That is right" in ah.verdicts(at) and "(3, 6)" in ah.verdicts(at)


def test_questions_follow_the_page_state() -> None:
    at = via_router("reduction-axes", {"b": "3", "t": "5", "f": "8", "scheme": "group",
                                       "groups": "4"})  # fmt: skip
    prompts = ah.texts(at)
    assert (
        "(B, T, F) = (6, 10, 16) instead of the page's (3, 5, 8), under **Group norm with G = 4**"
        in prompts
    )
    prompts = ah.texts(ah.open_question(at, "reduction-axes", "groups"))
    assert "Group norm with G = 4 splits the F = 8 features" in prompts
    at = ah.answer(at, "reduction-axes", "entries", "40")  # T·F/G = 10·16/4, on (6, 10, 16)
    assert "is right" in ah.verdicts(at)


@pytest.mark.parametrize(("scheme", "groups"), [("layer_all", 2), ("rms", 2), ("group", 3)])
def test_question_links_open_their_state_for_every_scheme(scheme: str, groups: int) -> None:
    """The links write the scheme as the page's own links do (layer-all, RMS)."""
    from lnviz.lessons.reduction_axes import questions as reduction_axes
    from tests.deep_links import assert_link_opens

    for q in reduction_axes.questions((2, 3, 6), scheme, groups):
        assert_link_opens(q.link)
