"""AppTest of the transformer page: defaults, presets, every control, URL state, hostile links,
and the Pre-LN/Post-LN statements against the numbers the charts draw."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

import numpy as np
import pytest

from tests.apptest_helpers import assert_clean, figures, shown, texts
from tests.deep_links import via_router

NAME = "transformer"
BLOCK_PRE, BLOCK_POST, DEPTH, STREAM, GRADIENT, SPHERE, WEIGHTS, ENTROPY, KEYS, KEYS_LN, TANH = (
    range(11)
)  # chart order
NUMBER = r"(−?[\d.]+)"


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def open_page(query: dict[str, str] | None = None):
    at = via_router(NAME, query)
    assert_clean(at)
    return at


def trace(fig: dict, name: str) -> dict:
    return next(t for t in fig["data"] if t.get("name") == name)


def notice_items(at) -> list[str]:
    return [
        line[2:] for md in at.markdown for line in str(md.value).splitlines() if line[:2] == "- "
    ]


def item(at, start: str) -> str:
    return next(i for i in notice_items(at) if i.startswith(start))


@pytest.fixture(scope="module")
def default():
    return open_page()


# --- defaults, presets, URL state -----------------------------------------------------------


def test_defaults_draw_every_chart_without_a_message(default) -> None:
    figs = figures(default)
    assert len(figs) == 11
    assert not default.warning and not default.error
    assert len(trace(figs[GRADIENT], "Post-LN")["x"]) == 12  # depth 12 by default
    assert default.select_slider(key="width").value == 64
    assert default.radio(key="placement").value == "pre"


@pytest.mark.parametrize("index", range(3))
def test_each_preset_runs_and_shows_its_state(index: int) -> None:
    at = open_page()
    at.button(key=f"tr-presets-{index}").click().run()
    assert_clean(at)
    assert not at.error
    params = dict(at.query_params)
    if index == 0:
        assert params["depth"] == "48" and params["placement"] == "post"
        assert len(trace(figures(at)[GRADIENT], "Post-LN")["x"]) == 48
    elif index == 1:
        assert params["depth"] == "6"
    else:
        assert at.select_slider(key="eps").value == 0.0
        assert "every core is on the sphere" in item(at, "With ε = 0")


def test_link_state_is_restored() -> None:
    at = open_page({"depth": "24", "placement": "post"})
    assert not at.warning
    assert at.select_slider(key="depth").value == 24
    assert at.radio(key="placement").value == "post"
    assert len(trace(figures(at)[GRADIENT], "Post-LN")["x"]) == 24
    assert trace(figures(at)[DEPTH], "Post-LN")["x"][-1] == 24  # the sweep ends at the stack
    labels = [m.label for m in at.metric]
    assert "Post-LN: block 24's gradient" in labels
    assert any("x_l=\\mathrm{LN}" in str(e.value) for e in at.latex)  # Post-LN's formula


@pytest.mark.parametrize(
    ("key", "value", "control"),
    [("depth", "1000", "depth"), ("placement", "banana", "placement"), ("width", "7", "width")],
)
def test_hostile_values_are_refused_by_name(key: str, value: str, control: str) -> None:
    at = open_page({key: value})
    warnings = [shown(w.value) for w in at.warning]
    assert any(f"**{key}**" in w and value in w for w in warnings), warnings
    fig = figures(at)[GRADIENT]
    assert len(trace(fig, "Post-LN")["x"]) == 12  # the default depth is used
    assert at.radio(key="placement").value == "pre"


# --- every control changes what is shown ----------------------------------------------------

CHANGES = [
    ("select_slider", "depth", 6),
    ("select_slider", "width", 16),
    ("number_input", "seed", 5),
    ("radio", "placement", "scaled"),
    ("select_slider", "d", 8),
    ("select_slider", "eps", 0.1),
    ("text_input", "gamma", "1, 1, 1"),
    ("radio", "qk", "rms"),
    ("select_slider", "tau", 8.0),
    ("select_slider", "outliers", 0.5),
    ("text_input", "x", "1, 5, 2, 0"),
    ("text_input", "g", "1, 1, 0"),
    ("select_slider", "beps", 0.0),
]


def page_state(at) -> tuple[str, str, str]:
    charts = str(figures(at))
    metrics = str([(m.label, m.value) for m in at.metric])
    return charts, texts(at), metrics


@pytest.mark.parametrize(("kind", "key", "value"), CHANGES, ids=[c[1] for c in CHANGES])
def test_each_control_changes_the_page(default, kind: str, key: str, value) -> None:
    at = open_page()
    before = page_state(at)
    getattr(at, kind)(key=key).set_value(value).run()
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert page_state(at) != before, key
    if key == "g":  # three numbers for a token of three: accepted, no message
        assert not at.warning


def test_a_gradient_of_another_length_follows_the_token() -> None:
    at = open_page({"x": "1, 2, 3, 4"})
    assert not at.error
    assert any("padded with zeros to 4" in str(i.value) for i in at.info)
    table = at.dataframe[0].value
    assert list(table["x"]) == [1.0, 2.0, 3.0, 4.0]
    assert list(table["g"]) == [2.0, 0.0, 1.0, 0.0]


def test_a_constant_token_at_eps_zero_is_refused_by_name() -> None:
    at = open_page({"x": "2, 2, 2", "beps": "0"})
    errors = [shown(e.value) for e in at.error]
    assert any(e.startswith("x = ") and "variance > 0" in e for e in errors), errors
    assert list(at.dataframe[0].value["x"]) == [1.0, 2.0, 3.0]


# --- the statements match the numbers -------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [{}, {"depth": "48", "width": "16"}, {"depth": "6", "width": "256", "seed": "3"}],
    ids=["default", "deep-narrow", "shallow-wide"],
)
def test_pre_post_statements_match_the_charts(query: dict[str, str]) -> None:
    at = open_page(query)
    figs = figures(at)
    grad = {p: trace(figs[GRADIENT], p)["y"] for p in ("Pre-LN", "Post-LN")}
    first = item(at, "At L = ")
    m = re.search(rf"is {NUMBER} in Post-LN and {NUMBER} in Pre-LN", first)
    assert m is not None, first
    post, pre = number(m[1]), number(m[2])
    assert post == pytest.approx(grad["Post-LN"][-1], rel=1e-3)
    assert pre == pytest.approx(grad["Pre-LN"][-1], rel=1e-3)
    assert ("times larger" in first) == (post > pre)

    sweep = {p: trace(figs[DEPTH], p)["y"] for p in ("Pre-LN", "Post-LN")}
    second = item(at, "From L = ")
    ratio = sweep["Post-LN"][-1] / sweep["Post-LN"][0]
    assert ("(about the same)" in second) == (1 / 1.25 <= ratio <= 1.25)
    assert ("Pre-LN's falls" in second) == (sweep["Pre-LN"][-1] < sweep["Pre-LN"][0])
    # Xiong et al.'s Theorem 1 as this page shows it: Post-LN's last-block gradient does not
    # shrink with depth, Pre-LN's does, so at L = 48 Post-LN's is the larger one.
    assert "(about the same)" in second and "Pre-LN's falls" in second
    if query.get("depth") == "48":
        assert post > 2 * pre


def test_stream_statement_matches_the_stream_chart(default) -> None:
    fig = figures(default)[STREAM]
    text = item(default, "The stream at the top:")
    for name, pattern in (("Post-LN", rf"Post-LN {NUMBER}"), ("Pre-LN", rf"Pre-LN {NUMBER}")):
        m = re.search(pattern, text)
        assert m is not None, text
        assert number(m[1]) == pytest.approx(trace(fig, name)["y"][-1], rel=1e-3)


def test_backward_numbers_and_the_link_to_the_jacobian(default) -> None:
    table = default.dataframe[0].value
    np.testing.assert_allclose(table["∂L/∂x"], [2 / 3, -1.0, 1 / 3], atol=1e-6)
    metrics = {m.label: m.value for m in default.metric}
    assert metrics["mean of ∂L/∂x"] == "0"
    assert metrics["x̂ · ∂L/∂x"] == "−0.333333"
    assert metrics["ε/(q+ε), the share kept"] == "0.333333"
    links = [p.proto for p in default.get("page_link") if "Jacobian" in p.proto.label]
    assert len(links) == 1 and links[0].page == "epsilon"
    assert dict(parse_qsl(links[0].query_string)) == {"z": "1, 2, 3", "eps": "1/3"}


def test_eps_zero_makes_the_gradient_orthogonal_to_the_output() -> None:
    at = open_page({"beps": "0"})
    text = item(at, "With ε = 0, x̂")
    assert "orthogonal" in text
    assert {m.label: m.value for m in at.metric}["x̂ · ∂L/∂x"] == "0"


def test_attention_statements_match_the_scan(default) -> None:
    bound = item(default, "With QK-norm")
    m = re.search(rf"largest logit is {NUMBER}, within the bound τ√3 = {NUMBER}", bound)
    assert m is not None and number(m[1]) <= number(m[2])
    assert "After layer norm every key can be selected." in notice_items(default)
