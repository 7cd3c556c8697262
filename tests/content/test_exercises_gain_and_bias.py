"""The gain-and-bias page's questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import lnviz
from lnviz.lessons.explorers import WORKED_BETA, WORKED_GAMMA, WORKED_Z
from lnviz.lessons.gain_and_bias import questions as ex
from tests.apptest_helpers import ROOT, assert_clean, assert_right_answer_explained
from tests.deep_links import assert_link_opens

PAGE = "gain-and-bias"
STATES = [
    ((1.0, 2.0, 3.0), (1.0, 2.0, 1.0), (0.0, 1.0, 0.0), 0.0),  # the worked example
    ((1.0, 2.0, 3.0), (1.0, 2.0, 1.0), (0.0, 1.0, 0.0), 1 / 3),
    ((1.0, 5.0, 2.0, 8.0), (2.0, -1.0, 0.5, 3.0), (1.0, 0.0, -2.0, 0.5), 1e-3),
    ((2.0, 2.0, 2.0), (1.0, 2.0, 1.0), (0.0, 1.0, 0.0), 0.01),  # constant: the output is β
]


def by_key(*state: object) -> dict[str, object]:
    return {q.key: q for q in ex.questions(*state)}  # type: ignore[arg-type]


@pytest.mark.parametrize("state", STATES)
def test_mean_and_variance_are_the_engines(state: tuple) -> None:
    """Asked at the page's z and ε with every gain doubled and every bias raised by 1 (the
    page works out its own γ and β)."""
    qs = by_key(*state)
    z, gamma, beta, eps = state
    out = lnviz.affine_stages(z, 2 * np.array(gamma), np.array(beta) + 1, eps).output
    assert math.isclose(qs["mean"].answer, out.mean, abs_tol=1e-15)
    assert math.isclose(qs["variance"].answer, out.var, rel_tol=1e-12, abs_tol=1e-15)
    assert qs["mean"].link.params["z"] == ",".join(f"{v:g}" for v in z)
    assert qs["mean"].link.params["beta"] == ",".join(f"{v + 1:g}" for v in beta)


def test_gains_near_the_top_are_halved() -> None:
    new = ex.new_case(lnviz.affine_stages((1.0, 2.0, 3.0), (80.0, 1.0, 1.0), (0.0, 0.0, 100.0)))
    assert new.gamma.tolist() == [40.0, 0.5, 0.5] and new.beta.tolist() == [-1.0, -1.0, 99.0]


def test_worked_example_accepts_exact_forms_and_refuses_near_misses() -> None:
    qs = by_key(WORKED_Z, np.array(WORKED_GAMMA) / 2, np.array(WORKED_BETA) - 1)  # asked at it
    assert qs["mean"].check("1/3").correct and qs["mean"].check("0.333").correct
    assert qs["variance"].check("11/9").correct and qs["variance"].check("1.222").correct
    assert not qs["mean"].check("0").correct  # the core's mean, not the output's
    assert not qs["variance"].check("1").correct  # the core's variance
    assert not qs["variance"].check("1.2").correct  # 2 % off


def test_a_state_without_a_core_asks_about_the_worked_example() -> None:
    qs = by_key((2.0, 2.0, 2.0), None, None, 0.0)  # 0/0 at ε = 0
    assert "z = (1, 2, 3)" in qs["mean"].prompt
    assert math.isclose(qs["variance"].answer, 38 / 9)  # at γ = (2, 4, 2), β = (1, 2, 1)


@pytest.mark.parametrize("state", STATES)
def test_zero_gain_pins_its_coordinate_to_beta(state: tuple) -> None:
    q = by_key(*state)["zero-gain"]
    assert q.correct == 0 and q.choices[0].startswith("y₂ = β₂")
    g0 = np.array(state[1])
    g0[1] = 0.0
    for z in (state[0], np.arange(len(state[0])) ** 2.0):  # any z gives y₂ = β₂
        y = lnviz.affine_stages(z, g0, state[2], state[3]).output.values
        assert y[1] == state[2][1]
    assert q.link.params["gamma"].split(",")[1] == "0"


def test_zero_gain_with_every_other_gain_zero_makes_the_output_beta() -> None:
    q = by_key((1.0, 2.0, 3.0), (0.0, 2.0, 0.0), (0.0, 1.0, 0.0), 0.0)["zero-gain"]
    assert q.choices[q.correct] == "the whole output y equals β, whatever z is"


def test_the_zero_gain_link_opens_its_state() -> None:
    at = assert_link_opens(by_key()["zero-gain"].link)
    assert at.text_input(key="gamma").value == "1,0,1"


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(
        PAGE, "variance", "38/9", "38/9", "(−√(3/2), 0, √(3/2))", "y = (−1.44949, 2, 3.44949)"
    )


def test_questions_follow_the_page_state() -> None:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=90)
    at.switch_page(f"../pages/{PAGE}.py")
    at.query_params.update({"z": "1, 2, 4", "gamma": "1, 1, 1", "beta": "0, 0, 0", "eps": "1/3"})
    at.run()
    assert_clean(at)
    prompts = "\n".join(str(m.value) for m in at.markdown)
    assert "z = (1, 2, 4), γ = (2, 2, 2), β = (1, 1, 1) and ε = 1/3" in prompts
