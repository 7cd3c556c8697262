"""The transformer page's questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lnviz.lessons import transformer as tf
from lnviz.lessons.transformer import analysis as tp
from lnviz.lessons.transformer import questions as ex
from tests.apptest_helpers import ROOT, assert_clean, assert_right_answer_explained

PAGE = "transformer"
STATES = [(6, 16, 0), (12, 64, 0), (24, 32, 7)]  # (depth, width, seed)


def sweep_of(depth: int, width: int, seed: int) -> tp.LastBlockSweep:
    cmp = tf.compare_placements(depth, width, hidden=2 * width, seed=seed, precision="float32")
    return tp.last_block_sweep(cmp)


def by_key(depth: int = 12, width: int = 64, seed: int = 0) -> dict[str, ex.Question]:
    return {q.key: q for q in ex.questions(depth, width, seed)}


@pytest.mark.parametrize(("depth", "width", "seed"), STATES)
def test_depth_answer_is_the_placement_whose_last_gradient_moves_least(
    depth: int, width: int, seed: int
) -> None:
    sw = sweep_of(depth, width, seed)
    q = by_key(depth, width, seed)["depth"]
    change = {p: abs(math.log(sw.last[p][-1] / sw.last[p][0])) for p in tf.PLACEMENTS}
    assert tf.PLACEMENTS[q.correct] == min(change, key=change.get) == "post"
    assert q.choices[q.correct] == "Post-LN"
    assert f"L = {depth} blocks" in q.prompt
    assert q.link.params == {"depth": str(depth), "width": str(width), "seed": str(seed),
                             "placement": "post"}  # fmt: skip
    assert q == ex.questions(depth, width, seed, sweep=sw)[0]  # the page's cached sweep


def test_fixed_state_answers_are_the_engines() -> None:
    qs = by_key()
    view = tf.sphere_view(ex.RADIUS_TOKEN[None, :], ex.RADIUS_EPS)
    assert qs["radius"].answer == float(view.radius[0])
    assert math.isclose(qs["radius"].answer, math.sqrt(8 / 2))  # q = ε: √d·√(1/2)
    q, keys = tf.hidden_key_example()
    scan = tf.attention_scan(q, keys, (1.0,), qk_norm="layer", tau=ex.BOUND_TAU)
    assert qs["bound"].answer == scan.logit_bound == ex.BOUND_TAU * math.sqrt(3)
    assert qs["hidden-key"].correct == int(
        np.flatnonzero(~tf.selectable_keys(keys[:, :2]).selectable)[0]
    )
    assert qs["hidden-key"].choices[qs["hidden-key"].correct] == "k₄"
    back = tf.layer_norm_backward([ex.BACKWARD_X], [ex.BACKWARD_G], eps=ex.BACKWARD_EPS)
    assert abs(float(back.grad_mean[0])) < 1e-12 and qs["gradient-mean"].answer == 0.0


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    qs = by_key()
    assert qs["radius"].check("2").correct and qs["radius"].check("sqrt(8)/sqrt(2)").correct
    assert not qs["radius"].check("√8").correct and not qs["radius"].check("1.9").correct
    assert qs["bound"].check("4*√3").correct and qs["bound"].check("√48").correct
    assert not qs["bound"].check("4").correct and not qs["bound"].check("6.8").correct
    assert qs["gradient-mean"].check("0").correct and not qs["gradient-mean"].check("1").correct
    assert qs["depth"].check(1).correct and not qs["depth"].check(0).correct


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(PAGE, "radius", "√(8/2)", "√8·√(1/2) = 2", links_back=False)


def test_right_choice_follows_the_depth_shown() -> None:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=90)
    at.switch_page(f"../pages/{PAGE}.py")
    at.query_params["depth"] = "6"
    at.run()
    assert any("From L = 1 to L = 6 blocks" in str(m.value) for m in at.markdown)
    at.radio(key=f"answer-{PAGE}-depth").set_value(1)
    (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{PAGE}-depth"]
    at = button.click().run()
    assert_clean(at)
    said = "\n".join(str(e.value) for e in at.success)
    assert "is right" in said and "Post-LN keeps it" in said
