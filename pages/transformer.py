"""Layer norm inside a transformer: placement at depth, the sphere, QK-norm, tanh, backward."""

from functools import partial

import numpy as np
import streamlit as st

from lnviz.app import quiz, ui
from lnviz.errors import LnvizError
from lnviz.figures.block_diagram import BLOCK
from lnviz.lessons import transformer as tf
from lnviz.lessons.transformer import analysis as tp
from lnviz.lessons.transformer import figures as figs
from lnviz.lessons.transformer import notes
from lnviz.lessons.transformer import questions as exercises
from lnviz.lessons.transformer.state import G_DEFAULT, PRESETS, STATE, X_DEFAULT

PLACEMENT_LABELS = {"pre": "Pre-LN", "post": "Post-LN", "scaled": "Pre-LN, scaled by 1/√l"}
BLOCK_LATEX = {  # block l, and the output y
    "post": (r"x_l=\mathrm{LN}\bigl(x_{l-1}+F_l(x_{l-1})\bigr)", r"y=x_L"),
    "pre": (r"x_l=x_{l-1}+F_l\bigl(\mathrm{LN}(x_{l-1})\bigr)", r"y=\mathrm{LN}(x_L)"),
    "scaled": (r"x_l=x_{l-1}+F_l\bigl(\mathrm{LN}(x_{l-1})/\sqrt l\,\bigr)", r"y=\mathrm{LN}(x_L)"),
}
SPHERE_TOKENS = 60
LOGIT_SCALES = tuple(np.logspace(-1, 3, 41))  # s from 0.1 to 1000


def chart_pair(first: tuple, second: tuple) -> None:
    """Two charts side by side on a wide screen, one under the other on a phone; each given
    as (pair, *args, key)."""
    with ui.row():
        for pair, *args, key in (first, second):
            ui.chart(pair, *args, key=key)


@ui.cached(max_entries=8, shared=True)
def comparison(depth: int, width: int, seed: int) -> tf.PlacementComparison:
    """The three placements (float32, hidden 2d), shared read-only: ~7 MB at the largest size,
    which cache_data would copy on every rerun."""
    return tp.page_stack(depth, width, seed)


@ui.cached(max_entries=32)
def sweep(depth: int, width: int, seed: int) -> tp.LastBlockSweep:
    """The last block's gradient of every shallower stack, read off the one shown."""
    return tp.last_block_sweep(comparison(depth, width, seed))


@ui.cached(max_entries=32)
def fit(outliers: float) -> tf.TanhFit:
    return tf.tanh_fit(tokens=256, width=64, outlier_fraction=outliers, seed=0)


ui.page_intro(
    "Layer norm in a transformer",
    """In a transformer, layer norm sits in every block, beside a
**residual connection** that adds each block's output to a running sum, the
**residual stream**. Where the norm sits decides how gradients flow through a deep stack;
what it does to each token decides which keys attention can pick. Every number is computed
live.""",
)
ui.presets(PRESETS, key="tr-presets")


# --- 1. placement at depth --------------------------------------------------------------
@st.fragment
def placement_section() -> None:
    """The stack's controls and everything they change (the diagrams above it do not rerun)."""
    ui.prose(
        """Below: L blocks with random weights, as at the start of training, in Pre-LN,
Post-LN and a variant dividing each block's input by √l.""",
    )
    quiz_box = st.container()  # the question before the controls, the controls on the charts
    c1, c2, c3 = st.columns([2, 2, 1])
    with c1:
        depth = ui.control(STATE["depth"])
    with c2:
        width = ui.control(STATE["width"])
    with c3:
        seed = ui.control(STATE["seed"])
    placement = ui.control(STATE["placement"])
    cmp = comparison(depth, width, seed)
    swept = sweep(depth, width, seed)
    with quiz_box:
        quiz.ask(exercises.questions(depth, width, seed, sweep=swept), page="transformer")
    facts = tp.placement_facts(cmp, swept)
    ui.side_by_side(
        lambda: ui.chart(figs.DEPTH, swept, depth, key="depth-sweep"),
        lambda: ui.chart(figs.STREAM, cmp, placement, key="stream"),
    )
    ui.latex_row(*BLOCK_LATEX[placement])
    ui.notice(notes.placement_notes(facts))  # the last block, at this depth and over depths
    ui.prose(
        """**The takeaway.** Post-LN (the original Transformer) keeps the stream at one size,
so at the start of training its last blocks get the larger gradients; Pre-LN (GPT-2 and most
language models since) lets the stream grow, and its last gradients shrink with depth. Neither
is simply better: Post-LN usually needs a learning-rate warm-up, Pre-LN usually not.""",
        """**Why the warm-up?** Still argued: Xiong et al. (2020) point to Post-LN's large
gradients near the output; Liu et al. (2020) argue instead that each Post-LN layer leans so
heavily on its residual branch that small weight changes are amplified.""",
    )
    with ui.going_further("Block by block, what Xiong et al. prove, how the stack is built"):
        ui.chart(figs.GRADIENT, cmp, placement, key="gradient")
        row = ui.row()
        name = PLACEMENT_LABELS[placement]
        row.metric(f"{name}: block 1's gradient", ui.fmt(facts.first[placement], 3))
        row.metric(f"{name}: block {depth}'s gradient", ui.fmt(facts.last[placement], 3))
        row.metric(f"{name}: stream |x_L|", ui.fmt(facts.stream_out[placement], 3))
        st.markdown("\n".join(f"- {item}" for item in notes.placement_details(facts)))
        st.markdown(notes.across_blocks_text(facts))
        ui.prose(
            """**What Xiong et al. (2020) prove.** *On Layer Normalization in the Transformer
Architecture* proves **bounds** at initialization, under their assumptions about the
initialization and the sizes of the hidden vectors, and with high probability: the gradient
of the last layer's weights is bounded independently of the depth L in Post-LN, and by a bound
that shrinks like 1/√L in Pre-LN. Why the two differ: Post-LN keeps the stream at size √d;
Pre-LN's stream grows with L, and its final layer norm divides the gradient by that size.""",
            """This page's loss is a fixed random projection of each token's output
(r·y/T), so the same gradient enters the output at every depth. With another head the
picture can change: with a cross-entropy head whose logits are large, for one, a deep Post-LN
stack's tokens collapse toward one direction and its last-layer gradient can grow with
depth.""",
        )
        st.markdown(
            f"""**How the stack is built.** F_l(a) = ReLU(a W₁) W₂ is block l's MLP; LN is layer
norm without gain or bias (gain 1 and bias 0 at initialization).
{cmp.pre.tokens} tokens x₀ with N(0, 1) entries; weights ±a with
a² = 2/(d + 2d), the variance of Xavier's initialization that Xiong et al. use; the loss is
r·y/T for a fixed random r, so the gradient arriving at the output is the same for every
placement and depth. The depth chart reads the last block's gradient of every depth up to
L = {depth} off the stack above: block l's weights do not depend on L, so a shallower stack is
the start of a deeper one. Computed in float32. The variant with 1/√l is the *LayerNorm scaling*
of Sun et al. (2025). DeepNorm (Wang et al. 2022) keeps Post-LN instead, up-weights the
residual (identity) path by a constant α > 1 that grows with the depth, before the norm,
x_l = LN(α·x_(l−1) + F_l(x_(l−1))), and scales down the initial weights of the feed-forward
layers and of attention's value and output projections."""
        )


st.header("Pre-LN or Post-LN: where the norm sits")
ui.side_by_side(
    lambda: ui.chart(BLOCK, "pre", key="block-pre", static=True),
    lambda: ui.chart(BLOCK, "post", key="block-post", static=True),
)
placement_section()


# --- 2. the sphere -----------------------------------------------------------------------
@st.fragment
def sphere_section() -> None:
    with ui.going_further("Every token on a sphere", "d", "eps", "gamma"):
        ui.prose(
            """Subtracting the mean moves a token into the plane of vectors whose coordinates
add up to 0 (orthogonal to 𝟏 = (1, …, 1)); dividing by its spread puts it on a sphere of
radius √d in that plane. ε pulls tokens of small variance inside; the gain γ then maps the
sphere to an ellipsoid, which a zero in γ can flatten."""
        )
        c1, c2, c3 = st.columns(3)
        with c1:
            d = ui.control(STATE["d"])
        with c2:
            eps = ui.control(STATE["eps"])
        with c3:
            gamma = ui.control(STATE["gamma"]) if d == 3 else None
        view = tf.sphere_view(tf.sample_tokens(SPHERE_TOKENS, d, seed=0), eps, gamma=gamma)
        ui.chart(figs.SPHERE, view, key="sphere")
        ui.latex_row(
            r"u=\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}",
            r"\lVert u\rVert=\sqrt d\,\sqrt{\frac{q}{q+\varepsilon}}\le\sqrt d",
        )
        ui.notice(notes.sphere_notes(view))
        c1, c2 = st.columns(2)
        with c1:
            st.page_link(
                ui.page_target("pages/epsilon.py"), label="How ε shrinks the radius: the ε page",
                icon=":material/arrow_forward:",
            )  # fmt: skip
        with c2:
            st.page_link(
                ui.page_target("pages/weighted-centering.py"),
                label="Centring as a projection: weighted centering",
                icon=":material/arrow_forward:",
            )  # fmt: skip


# --- 3. attention -----------------------------------------------------------------------
@st.fragment
def attention_section() -> None:
    with ui.going_further("Attention: bounded logits and keys that can win", "qk", "tau"):
        ui.prose(
            """Attention turns the scores q·k of a query against each key into weights with a
softmax. Training can grow q and k (a scale s here) until one key takes nearly all the weight
and the entropy drops toward 0. Dehghani et al. (2023) saw training diverge this way in vision
transformers of about 8 billion parameters, and used **QK-norm**, layer norm on q and k, for
their 22-billion-parameter model. Here, as in Henry et al. (2020), one learned τ (no gain)
sets the scale: every score stays within τ√d."""
        )
        c1, c2 = st.columns(2)
        with c1:
            how = ui.control(STATE["qk"])
        with c2:
            tau = ui.control(STATE["tau"])
        q, keys = tf.hidden_key_example()
        raw = tf.attention_scan(q, keys, LOGIT_SCALES)
        normed = tf.attention_scan(q, keys, LOGIT_SCALES, qk_norm=how, tau=tau)
        chart_pair((figs.WEIGHTS, raw, normed, "weights"), (figs.ENTROPY, raw, normed, "entropy"))
        ui.latex_row(
            r"\text{logit}_j=\frac{\tau\,N(q)\cdot N(k_j)}{\sqrt d}",
            r"\lvert\text{logit}_j\rvert\le\tau\sqrt d",
        )
        with ui.fold("A key no query can pick"):
            ui.prose(
                """k₄ = 0.3 k₁ + 0.3 k₂ + 0.4 k₃, so q·k₄ is the same blend of the other
scores and never the largest. After layer norm all four keys lie on a circle, each a corner
of their outline, so each wins for some query (Brody, Alon & Yahav 2023); the query above
picks k₄."""
            )
        sel_raw = tf.selectable_keys(keys[:, :2])
        sel_ln = tf.selectable_keys(keys, layer_norm=True)
        chart_pair((figs.KEYS, sel_raw, "keys"), (figs.KEYS, sel_ln, "keys-ln"))
        ui.notice(notes.attention_notes(raw, normed, sel_ln))


# --- 4. tanh -----------------------------------------------------------------------------
@st.fragment
def tanh_section() -> None:
    with ui.going_further("Layer norm against a tanh", "outliers"):
        ui.prose(
            """In trained transformers, layer norm's output plotted against its input over many
tokens often bends like an S, and Zhu et al. (2025) replaced layer norm by
**Dynamic Tanh**, γ ⊙ tanh(αx) + β: α is one learned number for the whole layer (0.5 at
the start by default), γ and β hold one number per channel."""
        )
        with ui.fold("The tokens"):
            st.markdown(
                "256 random tokens of width 64, each with its own scale; the share chosen below "
                "has a large outlier in two channels. The fit uses one γ and one β for every "
                "channel, to compare the shapes."
            )
        outliers = ui.control(STATE["outliers"])
        result = fit(outliers)
        ui.chart(figs.TANH, result, key="tanh")
        ui.latex_row(
            r"\mathrm{DyT}(x)_i=\gamma\tanh(\alpha x_i)+\beta",
            r"\mathrm{LN}(x)_i=\frac{x_i-\mu_t}{\sigma_t}",
        )
        ui.notice(notes.tanh_notes(result))


# --- 5. the backward pass ------------------------------------------------------------------
@st.fragment
def backward_section() -> None:
    with ui.going_further("The backward pass: the gradient is re-centred", "x", "g", "beps"):
        ui.prose(
            """The gradient that comes back through layer norm has mean 0: moving all
coordinates together would not change the output. Its part along the output x̂ is removed
when ε = 0 and only shrunk when ε > 0. Symbols: L is the loss, g = ∂L/∂x̂ the gradient
arriving at the output, q the variance of x's coordinates, σ = √(q + ε) the divisor, and a
bar the mean over the coordinates."""
        )
        x, g, eps = ui.side_by_side(*(partial(ui.control, STATE[k]) for k in ("x", "g", "beps")))
        if len(g) != len(x):
            st.info(
                f"g has {len(g)} numbers and x has {len(x)}: g is "
                + ("cut to its first" if len(g) > len(x) else "padded with zeros to")
                + f" {len(x)}.",
                icon=":material/info:",
            )
            g = tp.match_length(g, len(x))
        try:
            result = tf.layer_norm_backward([x], [g], eps=eps)
        except LnvizError as err:
            ui.refuse(err, f"Using x = ({X_DEFAULT}) and g = ({G_DEFAULT}) instead.")  # e.g. ε = 0
            result = tf.layer_norm_backward([[1.0, 2.0, 3.0]], [[2.0, 0.0, 1.0]], eps=eps)
        rows = tp.backward_rows(result)
        ui.table(
            {
                "i": rows.coordinate,
                "x": rows.x,
                "x̂ (output)": rows.x_hat,
                "g": rows.g,
                "g − mean(g)": rows.centred_g,
                "∂L/∂x": rows.grad_x,
            },
        )
        ui.latex_row(
            r"\frac{\partial L}{\partial x}=\frac1\sigma\Bigl(g-\overline{g}\,\mathbf 1-"
            r"\hat x\,\overline{g\odot\hat x}\Bigr)",
            r"\hat x\cdot\frac{\partial L}{\partial x}=\frac{g\cdot\hat x}{\sigma}\,"
            r"\frac{\varepsilon}{q+\varepsilon}",
        )
        row = ui.row()
        row.metric("mean of ∂L/∂x", ui.fmt(float(result.grad_mean[0]), 12))
        row.metric("x̂ · ∂L/∂x", ui.fmt(float(result.along_x_hat[0]), 6))
        row.metric("ε/(q+ε), the share kept", ui.fmt(float(result.kept_fraction[0]), 6))
        ui.notice(notes.backward_notes(result))
        query = {"z": ", ".join(f"{v:.12g}" for v in rows.x)}
        if eps > 0:
            query["eps"] = ui.eps_label(eps)
        st.page_link(
            ui.page_target("pages/epsilon.py"), label="The whole Jacobian of this x on the ε page",
            query_params=query, icon=":material/arrow_forward:",
        )  # fmt: skip


sphere_section()
attention_section()
tanh_section()
backward_section()
ui.page_end()
