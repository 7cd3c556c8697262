"""AppTest of the sequences page: defaults, presets, every control, URL state, hostile links."""

from __future__ import annotations

import re

import pytest

from lnviz.lessons import sequences
from lnviz.lessons.sequences import causality, leakage
from tests.apptest_helpers import (
    assert_changes,
    assert_clean,
    figures,
    page,
    pressed,
    refused,
    texts,
    values,
)

PRICES, DEP_TOKEN, DEP_SEQ, DEP_CAUSAL, DEP_BATCH, EXAMPLES, LEAK, SCATTER, SHOCK, INFER = range(10)


def table(at, column: str):
    """The first dataframe on the page that has this column, as a pandas DataFrame."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def future_pairs(at) -> list[int]:
    return table(at, "future pairs")["future pairs"].tolist()


def trace(at, fig: int, index: int = 0, axis: str = "z") -> list:
    data = figures(at)[fig]["data"][index][axis]
    return data if axis == "z" else values(data)


def test_default_state_draws_every_chart_with_engine_numbers() -> None:
    at = page("sequences")
    assert_clean(at)
    assert len(figures(at)) == 10
    assert future_pairs(at) == [0, 32 * 31 // 2, 0, 32 * 31 // 2]  # token, seq, causal, batch
    assert table(at, "other examples")["other examples"].tolist() == [0, 0, 0, 12]
    m = sequences.market(4, 32, 0, 5, True)
    corr = leakage.leak_table(m, 1e-5).value("next return", "token")
    assert f"{corr:.3f}".rstrip("0") in texts(at)
    inf = table(at, "layer norm")
    assert inf["layer norm"].tolist() == ["0", "0", "0"]
    assert all(float(v) > 0.01 for v in inf["batch norm"])
    assert not at.warning and not at.error


@pytest.mark.parametrize("index", range(4))
def test_every_preset_runs_clean(index: int) -> None:
    at = pressed("sequences", f"seq-presets-{index}")
    assert len(figures(at)) == 10


def test_preset_the_leak_survives_shows_one_future_return_per_token() -> None:
    at = pressed("sequences", "seq-presets-0")
    assert at.radio(key="wrt").value == "returns"
    pairs = future_pairs(at)
    assert pairs[0] == 64  # token-wise: r(t+1) through the leaky feature, every token
    assert pairs[2] == 63  # causal: all but the constant token 0
    assert "passed straight through" in texts(at)


def test_preset_pooling_leaks_the_future_even_without_the_leak() -> None:
    at = pressed("sequences", "seq-presets-1")
    assert at.checkbox(key="leak").value is False
    assert future_pairs(at) == [0, 64 * 63 // 2, 0, 64 * 63 // 2]


def test_preset_causal_statistics_is_a_small_lower_triangle() -> None:
    at = pressed("sequences", "seq-presets-2")
    z = trace(at, DEP_CAUSAL, 0)  # past cells: rows 1..15 filled on and below the diagonal
    assert len(z) == 16 and z[0] == [None] * 16
    assert all(z[t][s] is not None for t in range(1, 16) for s in range(t + 1))
    assert all(v is None for row in trace(at, DEP_CAUSAL, 1) for v in row)  # no future cell


def test_preset_batch_of_one_batch_norm_becomes_sequence_pooling() -> None:
    at = pressed("sequences", "seq-presets-3")
    assert at.number_input(key="b").value == 1
    inf = table(at, "batch norm")
    assert inf["layer norm"].iloc[[0, 2]].tolist() == ["0", "0"]
    assert inf["batch norm"].iloc[0] == "0"  # alone is the whole batch
    assert inf["batch norm"].iloc[1] == "—"  # no other mates to compare with
    assert "no other series to move" in texts(at)
    assert table(at, "other examples")["other examples"].tolist() == [0, 0, 0, 0]
    assert "*is* sequence pooling" in texts(at)


@pytest.mark.parametrize(
    ("kind", "key", "value", "fig"),
    [
        ("number_input", "b", 2, PRICES),
        ("number_input", "t", 12, DEP_TOKEN),
        ("number_input", "seed", 5, PRICES),
        ("number_input", "w", 9, LEAK),
        ("select_slider", "eps", 1.0, DEP_CAUSAL),
        ("radio", "wrt", "returns", DEP_TOKEN),
        ("radio", "sf", "level", SCATTER),
        ("select_slider", "at", 5, SHOCK),
        ("select_slider", "size", 10.0, SHOCK),
        ("number_input", "ser", 3, SHOCK),
        ("number_input", "ex", 1, INFER),
        ("select_slider", "steps", 1, INFER),
        ("radio", "feat", "volatility", INFER),
    ],
)
def test_each_control_changes_its_figure(kind: str, key: str, value, fig: int) -> None:
    at = page("sequences")
    assert_changes(at, kind, key, value, lambda f: f[fig])
    assert not at.warning and not at.error


def test_leak_toggle_removes_the_feature_everywhere() -> None:
    at = page("sequences")
    at.checkbox(key="leak").set_value(False).run()
    assert_clean(at)
    assert len(figures(at)[LEAK]["data"][0]["y"]) == 4
    assert at.radio(key="sf").options == ["return", "mean", "volatility", "level"]
    assert "no earlier output changes" in texts(at)


def test_stale_choices_snap_when_sizes_shrink() -> None:
    at = page("sequences", {"t": "64", "at": "60", "b": "8", "ex": "7", "ser": "7"})
    assert_clean(at)
    at.number_input(key="t").set_value(8).run()
    at.number_input(key="b").set_value(2).run()
    assert_clean(at)
    assert at.select_slider(key="at").value <= 7
    assert at.number_input(key="ex").value <= 1


def test_url_state_is_restored() -> None:
    query = {"b": "2", "t": "10", "seed": "7", "w": "3", "leak": "false", "wrt": "market returns"}
    at = page("sequences", {**query, "at": "4", "size": "5", "steps": "5", "feat": "mean"})
    assert_clean(at)
    assert at.number_input(key="b").value == 2
    assert at.number_input(key="t").value == 10
    assert at.checkbox(key="leak").value is False
    assert at.radio(key="wrt").value == "returns"
    assert at.select_slider(key="at").value == 4
    assert at.select_slider(key="steps").value == 5
    m = sequences.market(2, 10, 7, 3, False)
    dep = causality.dependence(
        causality.normalize(m.x, "sequence", 1e-5),
        sequences.feature_jacobian(m),
        sequences.HISTORY - 2,
    )
    assert future_pairs(at)[1] == dep.future_pairs
    assert not at.warning and not at.error


@pytest.mark.parametrize(
    "query",
    [
        {"b": "nan"},
        {"b": "-3"},
        {"b": "1e9"},
        {"t": "inf"},
        {"t": "2"},
        {"seed": "<script>alert(1)</script>"},
        {"w": "99"},
        {"eps": "nan"},
        {"eps": "-1"},
        {"wrt": "future"},
        {"sf": "<b>x</b>"},
        {"at": "999"},
        {"size": "1e308"},
        {"steps": "-4"},
        {"feat": "next return"},
        {"ser": "12"},
        {"leak": "maybe"},
    ],
)
def test_hostile_url_values_show_a_message_not_an_error(query: dict[str, str]) -> None:
    refused("sequences", query)


def test_repeated_keys_use_the_last_value() -> None:
    at = page("sequences", {"b": ["3", "2"]})  # type: ignore[dict-item]
    assert_clean(at)


def bullets(at) -> list[str]:
    return [str(m.value) for m in at.markdown if str(m.value).startswith("- ")]


def test_a_change_within_chance_is_not_told_as_an_effect() -> None:
    """Issue 14 item 6: by default 'level' moves by 0.02 under sequence pooling, inside the
    page's own ±0.18 chance band; the bullet says so and gives the seed average."""
    at = page("sequences")
    level = next(b for b in "\n".join(bullets(at)).split("\n") if "'level'" in b)
    assert "within chance" in level and "averaged over 16 random seeds" in level
    at = page("sequences", {"b": "8", "t": "64"})  # clear at this size: told as an effect
    level = next(b for b in "\n".join(bullets(at)).split("\n") if "'level'" in b)
    assert "within chance" not in level and "a low value hints at a later rise" in level


def test_a_batch_of_one_tells_what_it_can_show() -> None:
    """Issue 14 item 3: one series has no other series to read, and sequence pooling of one
    series cannot change a correlation."""
    at = pressed("sequences", "seq-presets-3")
    shown = texts(at)
    assert "no other series to read in a batch of one" in shown
    assert "'level' keeps its correlation" in shown
    assert "cross-example pairs; the other three use none" not in shown


def test_look_ahead_bias_is_defined_where_it_is_used() -> None:
    at = page("sequences")
    assert "look-ahead bias (using at t what is known only later)" in at.checkbox(key="leak").help


@pytest.mark.parametrize("query", [{}, {"b": "1"}, {"t": "4", "b": "1", "steps": "0"}])
def test_tables_show_numbers_in_the_page_style(query: dict[str, str]) -> None:
    """Issue 14 item 4: no raw floats in a table (they show float noise), true minus signs;
    no private labels anywhere (item 8)."""
    at = page("sequences", query)
    for frame in at.dataframe:
        for cell in frame.value.to_numpy().ravel():
            assert isinstance(cell, (str, int)) and not isinstance(cell, float), cell
            assert re.search(r"-\d", str(cell)) is None, cell  # a true minus sign
    shown = texts(at)
    assert re.search(r"\d\.\d{7,}", shown) is None
    assert "(seed)" not in shown and "the notes" not in shown.lower()
    assert re.search(r"\b[CW]\d+\b", shown) is None
