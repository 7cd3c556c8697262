"""What the pages say about geometry, numerics and papers, read where a learner reads it: at
the states that showed each statement (issue 33). Each test names the wrong or overstated
wording it replaced, and fails on it."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lnviz import batch_norm
from lnviz.content import glossary
from lnviz.content.references import REFERENCES
from tests.apptest_helpers import answer, assert_clean, figures, texts, verdicts
from tests.deep_links import via_router


def chart(at, key: str) -> tuple[dict, str]:
    """The figure and alt text of the chart drawn with `key`."""
    charts = at.get("plotly_chart")
    (i,) = [i for i, c in enumerate(charts) if c.proto.id.endswith(f"-{key}")]
    return figures(at)[i], charts[i].proto.alt


def sphere_chart(at) -> tuple[dict, str]:
    return chart(at, "sphere")


@pytest.fixture(scope="module")
def transformer():
    at = via_router("transformer")
    assert_clean(at)
    return at


# --- the gain's image of the sphere; a projection is not a slice ----------------------------


def test_default_gain_gives_the_singular_value_semi_axes_not_root3_gamma(transformer) -> None:
    """γ = (2, 1, 0.5): semi-axes 2.947 and 1.347, not √3·|γᵢ| = (3.464, 1.732, 0.866)."""
    text = texts(transformer)
    assert "an ellipse with semi-axes 2.947 and 1.347" in text
    assert "√3·|γᵢ| =" not in text and "ellipsoid's semi-axes" not in text
    _, alt = sphere_chart(transformer)
    assert "an ellipse with semi-axes 2.947 and 1.347" in alt
    assert "3.464" not in alt


def test_a_degenerate_gain_maps_the_circle_onto_a_segment() -> None:
    at = via_router("transformer", {"gamma": "3,0,0"})
    assert_clean(at)
    assert "a segment of half-length 4.243 centred at β" in texts(at)  # 3√2
    _, alt = sphere_chart(at)
    assert "a segment of half-length 4.243" in alt and "ellipse" not in alt


@pytest.mark.parametrize("d", ["8", "64"])
def test_larger_d_is_a_projection_and_its_alt_text_has_no_gain(d: str) -> None:
    at = via_router("transformer", {"d": d})
    assert_clean(at)
    fig, alt = sphere_chart(at)
    assert "slice" not in alt and "slice" not in fig["layout"]["title"]["text"]
    assert "projection" in alt and "projected" in fig["layout"]["title"]["text"]
    assert not re.search(r"gain|γ|ellipse|semi-axes", alt), alt
    assert "projects the tokens onto one 2-D plane" in texts(at)


# --- float16's overflow in the one-pass variance ----------------------------------------


def test_numerics_note_puts_the_overflow_where_the_squares_overflow() -> None:
    """n = 1000: Σx² overflows from |x| ≈ √(65504/n) (8.1, the quiz's answer, left to the
    quiz), the plain sum from 65.5; the old note put the variance's overflow at the plain
    sum's 66."""
    at = via_router("numerics", {"off": "10", "prec": "float16"})
    assert_clean(at)
    text = texts(at)
    assert "adds up x², which overflows once n·x² does" in text
    assert "√(65504/n), far sooner" in text and "65504/n = 65.5" in text
    assert "8.1" not in text
    assert "a sum of these 1000 values once n·|x| does" not in text


# --- what the papers show ----------------------------------------------------------------


def test_xiong_is_told_as_bounds_and_warm_up_as_hypotheses(transformer) -> None:
    text = texts(transformer)
    assert "prove that at initialization the last layer's gradient does not depend" not in text
    assert "proves **bounds** at initialization" in text
    assert "**Why the warm-up?** Still argued: Xiong et al. (2020)" in text  # in the open
    assert "Liu et al. (2020) argue instead that each Post-LN layer" in text
    assert "fixed random projection of each token's output" in text
    assert "cross-entropy head" in text and "can grow with\ndepth" in text


def test_the_depth_question_does_not_state_a_law() -> None:
    at = via_router("transformer", {"depth": "48", "placement": "post"})
    said = verdicts(answer(at, "transformer", "depth", 1))  # Post-LN
    assert "is right" in said, said
    assert "however deep the stack" not in said
    assert "bound this gradient independently of the depth" in said
    assert "at every depth up to 48" in said and "does not make Post-LN easier" in said


def test_deepnorm_dehghani_and_dyt_say_what_the_papers_did(transformer) -> None:
    text = texts(transformer)
    assert "scales the residual branch" not in text
    assert "up-weights the\nresidual (identity) path by a constant α" in text
    assert "about 8 billion parameters" in text
    assert "training a 22-billion-parameter vision\ntransformer" not in text
    assert "Henry et al. (2020), one learned τ (no gain)" in text
    assert "α is one learned number for the whole layer (0.5 at\nthe start by default)" in text
    refs = {r.key: r.contributes for r in REFERENCES}
    assert "identity" in refs["wang2022"] and "scaled residual branch" not in refs["wang2022"]
    assert "8 billion" in refs["dehghani2023"]
    assert "per channel" in refs["zhu2025"] and "scalar α" in refs["zhu2025"]
    assert "hypothesis" in refs["xiong2020"] and "liu2020" in refs


def test_warm_up_explanations_are_hypotheses_in_the_glossary() -> None:
    for slug in ("post-ln", "pre-ln", "learning-rate-warm-up"):
        definition = glossary.term_by_slug(slug).definition
        assert "are why" not in definition and "because their gradients" not in definition
    warm = glossary.term_by_slug("learning-rate-warm-up").definition
    assert "hypotheses with evidence" in warm and "Liu et al. (2020)" in warm
    assert "8 billion" in glossary.term_by_slug("attention-entropy").definition
    assert "one entry per channel" in glossary.term_by_slug("dynamic-tanh").definition


# --- a batch of two; Welford against two-pass; a link that shows its label --------------


def test_batch_of_two_equal_inputs_give_zero_and_the_question_says_so() -> None:
    out, _, _ = batch_norm(np.array([[2.0, 5.0], [2.0, 1.0]]), training=True)  # (2, 2)
    assert out[:, 0].tolist() == [0.0, 0.0]  # equal inputs: 0, not ±1
    at = via_router("batch-statistics")
    said = verdicts(answer(at, "batch-statistics", "pair", 0))
    assert "whatever the two inputs are" not in texts(at) + said
    assert "two equal inputs give exactly 0" in said


def test_welford_and_two_pass_are_not_called_equally_accurate() -> None:
    at = via_router("numerics")  # noise, n = 1000, sequential sums
    text = texts(at)
    assert "Welford's error reaches 10.6 times two-pass's on this sweep (at c = 20)" in text
    assert "barely notice" not in text
    frameworks = via_router("frameworks")
    assert "equally accurate" not in texts(frameworks)
    assert "equally" not in glossary.term_by_slug("welford").definition
    assert "about as accurate" not in glossary.term_by_slug("welford").definition


def test_glossary_show_me_links_with_a_share_open_that_share() -> None:
    """'10 % outlier tokens' opened a state where 14 % of the tokens had outliers."""
    shares = [
        (link, float(m.group(1)))
        for term in glossary.TERMS
        for link in term.links
        if (m := re.search(r"(\d+(?:\.\d+)?) % outlier", link.label))
    ]
    assert shares, "the DyT entry's link is gone"
    for link, percent in shares:
        at = via_router(link.page, link.params)
        assert_clean(at)
        m = re.search(r"(\d+) of (\d+) tokens carry outliers", texts(at))
        assert m, link
        assert round(100 * int(m.group(1)) / int(m.group(2))) == percent, m.group(0)


# --- depth 96 -----------------------------------------------------------------------------


def test_depth_96_is_offered_and_drawn() -> None:
    at = via_router("transformer", {"depth": "96", "placement": "post"})
    assert_clean(at)
    assert not at.warning
    gradient, _ = chart(at, "gradient")
    assert max(len(t["x"]) for t in gradient["data"]) == 96
    assert "From L = 1 to L = 96" in texts(at)


def test_the_warm_up_link_opens_a_state_where_post_ln_has_the_larger_last_gradient() -> None:
    """Its old label promised 'large gradients near the output', which this stack does not
    show across blocks (they are level); what it shows is the last block against Pre-LN's."""
    (link,) = glossary.term_by_slug("learning-rate-warm-up").links
    assert "larger gradient than Pre-LN's" in link.label
    at = via_router(link.page, link.params)
    assert_clean(at)
    m = re.search(r"Post-LN's is ([\d.]+) times larger", texts(at))
    assert m and float(m.group(1)) > 1
