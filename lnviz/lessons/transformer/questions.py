"""The transformer page's questions: placement, radius, QK bound, hidden key, gradient mean."""

from __future__ import annotations

import numpy as np

from lnviz.content.exercises._links import eps_param, vector_param
from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import eps_label, short, with_exact
from lnviz.lessons import transformer as tf
from lnviz.lessons.transformer import analysis as tp

PLACEMENT_NAMES = {"pre": "Pre-LN", "post": "Post-LN", "scaled": "Pre-LN scaled by 1/√l"}
RADIUS_D, RADIUS_EPS = 8, 0.01  # a token of width 8 whose variance equals ε
RADIUS_TOKEN = 0.1 * np.array([1.0, -1.0] * 4)  # mean 0, variance 0.01
BOUND_TAU = 4.0  # QK-norm's τ in the bound question
BACKWARD_X, BACKWARD_G, BACKWARD_EPS = (1.0, 2.0, 3.0), (3.0, 0.0, 0.0), 1 / 3


def questions(
    depth: int = 12, width: int = 64, seed: int = 0, sweep: tp.LastBlockSweep | None = None
) -> tuple[Question, ...]:
    """Five questions: the depth one follows the stack shown (`sweep` if known), the rest fixed."""
    if sweep is None:
        sweep = tp.last_block_sweep(tp.page_stack(depth, width, seed))
    return (_depth(sweep), _radius(), _bound(), _hidden_key(), _gradient_mean())


def _depth(sweep: tp.LastBlockSweep) -> Question:
    """The placement whose last-block gradient changes least over the sweep (Post-LN, by Xiong)."""
    ratio = {p: float(sweep.last[p][-1] / sweep.last[p][0]) for p in tf.PLACEMENTS}
    best = max(tf.PLACEMENTS, key=lambda p: min(ratio[p], 1 / ratio[p]))
    lo, hi = int(sweep.depths[0]), int(sweep.depths[-1])
    changes = "; ".join(f"{PLACEMENT_NAMES[p]} × {short(ratio[p], 3)}" for p in tf.PLACEMENTS)
    return choice(
        "depth",
        f"From L = {lo} to L = {hi} blocks, whose **last** block keeps a gradient of about "
        "the same size?",
        tuple(PLACEMENT_NAMES[p] for p in tf.PLACEMENTS),
        tf.PLACEMENTS.index(best),
        link("transformer", f"Show the depth chart up to L = {hi}", depth=str(hi),
             width=str(sweep.width), seed=str(sweep.seed), placement=best),
        hint="In Pre-LN the stream grows with L, and the final layer norm divides the "
        "gradient by its size.",
        explanation=f"From L = {lo} to L = {hi} the last block's gradient changes by "
        f"{changes}. {PLACEMENT_NAMES[best]} keeps it"
        + (
            ": Post-LN renormalizes the stream after every block, so in this stack its last "
            f"block sees a stream of size √d at every depth up to {hi}. Xiong et al. (2020) "
            "bound this gradient independently of the depth, at initialization and under "
            "their assumptions; with another loss (cross-entropy, say) it can grow with "
            "depth. A level gradient here does not make Post-LN easier to train: it is the "
            "placement that usually needs a learning-rate warm-up."
            if best == "post"
            else "."
        ),
    )  # fmt: skip


def _radius() -> Question:
    """|u| = √d √(q/(q+ε)) of a token whose variance q equals ε."""
    view = tf.sphere_view(RADIUS_TOKEN[None, :], RADIUS_EPS)
    radius, q = float(view.radius[0]), float(view.q[0])
    e = eps_label(RADIUS_EPS)
    return number(
        "radius",
        f"A token of d = {RADIUS_D} features has variance q = {short(q)}; ε = {e}. How far "
        "from the centre does layer norm put it?",
        radius,
        link("transformer", f"Show the sphere at d = {RADIUS_D}, ε = {e}", d=str(RADIUS_D),
             eps=eps_param(RADIUS_EPS)),
        hint="Without ε every token lands at √d; ε shrinks the radius by √(q/(q + ε)).",
        explanation=f"√d·√(q/(q + ε)) = √{RADIUS_D}·√(1/2) = {with_exact(radius)}: with "
        "q = ε the token lands at √(1/2) ≈ 0.71 of the sphere's radius, inside it.",
    )  # fmt: skip


def _bound() -> Question:
    """τ√d, the largest logit QK-norm allows, for the page's keys in ℝ³."""
    q, keys = tf.hidden_key_example()
    scan = tf.attention_scan(q, keys, (1.0, 1000.0), qk_norm="layer", tau=BOUND_TAU)
    d = keys.shape[1]
    top = float(scan.weights[-1].max())
    return number(
        "bound",
        f"QK-norm with τ = {BOUND_TAU:g}, d = {d}: however large q and k grow, how large "
        "can a logit get?",
        scan.logit_bound,
        link("transformer", f"Show QK-norm at τ = {BOUND_TAU:g}", qk="layer",
             tau=f"{BOUND_TAU:g}"),
        hint="Normalized q and k each have length √d, and the logit is τ N(q)·N(k)/√d.",
        explanation=f"τ√d = {BOUND_TAU:g}·√{d} = {with_exact(scan.logit_bound)}; at the "
        f"scale s = 1000 the largest logit is {short(float(scan.max_abs_logit[-1]))}. The "
        "logits stay bounded, but a bound this high still lets one key take "
        f"{short(100 * top)} % of the weight (entropy {short(float(scan.entropy[-1]))} nats, "
        f"of {short(scan.max_entropy)} for even attention): τ sets how sharp attention can "
        "get.",
    )  # fmt: skip


def _hidden_key() -> Question:
    """The key that is a blend of the others: no query selects it before layer norm."""
    _, keys = tf.hidden_key_example()
    raw = tf.selectable_keys(keys[:, :2])
    after = tf.selectable_keys(keys, layer_norm=True)
    (hidden,) = np.flatnonzero(~raw.selectable)
    return choice(
        "hidden-key",
        "Let k₄ = 0.3 k₁ + 0.3 k₂ + 0.4 k₃. **Before** layer norm, which key can no query "
        "score highest?",
        (*(f"k{'₁₂₃₄'[j]}" for j in range(len(keys))), "Every key can win"),
        int(hidden),
        link("transformer", "Show the keys before and after layer norm", qk="layer"),
        hint="q·k₄ is a weighted mean of q·k₁, q·k₂ and q·k₃.",
        explanation=f"k{'₁₂₃₄'[hidden]}: a weighted mean of scores is never above all of "
        f"them. After layer norm {int(after.selectable.sum())} of the {len(keys)} keys can "
        "win: all of them lie on a circle.",
    )  # fmt: skip


def _gradient_mean() -> Question:
    """The mean of ∂L/∂x: 0 whatever g is (to 12 digits; rounding leaves about 10⁻¹⁷)."""
    result = tf.layer_norm_backward([BACKWARD_X], [BACKWARD_G], eps=BACKWARD_EPS)
    mean = float(np.round(result.grad_mean[0], 12)) + 0.0  # + 0.0: no −0
    g_bar = float(np.mean(BACKWARD_G))
    return number(
        "gradient-mean",
        "The gradient g = (3, 0, 0) arrives at layer norm's output for x = (1, 2, 3). "
        "What is the mean of ∂L/∂x?",
        mean,
        link("transformer", "Show this backward pass", x=vector_param(BACKWARD_X),
             g=vector_param(BACKWARD_G), beps=eps_param(BACKWARD_EPS)),
        hint="Adding the same number to every coordinate of x does not change the output.",
        explanation=f"{short(mean)}, although g has mean {short(g_bar)}: layer norm removes "
        "the mean of g, since moving all coordinates together changes nothing.",
    )  # fmt: skip
