"""Home: why normalization exists, layer norm in a transformer, the formula, the course's cards."""

import streamlit as st

from lnviz.app import ui
from lnviz.content import registry
from lnviz.figures import home as thumbs
from lnviz.figures.block_diagram import BLOCK

START = registry.COURSE[0]  # the first step of the course
PRACTICE = (registry.by_path("frameworks"), registry.by_path("numerics"))

ui.page_intro(
    "lnviz: layer normalization, one idea at a time",
    """A deep network passes numbers through many layers, one after another. Left alone,
their size drifts from layer to layer: after a few dozen layers they have grown huge or
shrunk to almost nothing, and training stalls. Layer normalization is a simple remedy:
before a layer uses a vector of numbers, rescale it so that its entries average 0 and
spread about 1, using only that vector's own numbers.""",
)
ui.page_button(START, f"See the drift happen: {START.title}", icon=":material/trending_up:")

st.header("Where it sits: in every transformer block")
ui.prose(
    """In a transformer, the model behind today's language models, each token is a vector
that travels through the blocks along the **residual stream**. Every block reads a copy of
it, passes it through attention or an MLP, and adds the result back to the stream. Layer
norm sits either on the copy or on the stream itself:"""
)
ui.side_by_side(
    lambda: ui.chart(BLOCK, "pre", key="block-diagram", static=True),
    lambda: ui.chart(BLOCK, "post", key="block-diagram-post", static=True),
)
ui.prose(
    "**Pre-LN** (most language models today) normalizes only the copy each block reads, so "
    "the stream itself grows block after block. **Post-LN** (the original Transformer) "
    "normalizes the stream itself after every addition, which keeps it at one "
    "size but usually needs a gentle start of training (a learning-rate warm-up)."
)

st.header("The formula")
ui.prose(
    r"""For a vector $z$ with $d$ entries, subtract their mean $\mu$, divide by the square
root of their population variance $q$ plus a small $\varepsilon$, then give each entry a
learned gain $\gamma_i$ and bias $\beta_i$:"""
)
st.latex(r"\mu=\frac1d\sum_i z_i,\qquad q=\frac1d\sum_i (z_i-\mu)^2")
st.latex(r"y=\gamma\odot\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}+\beta")
st.markdown(
    "The statistics come from the current input, in training and at inference alike: no "
    "running averages and no dependence on the rest of the batch. Every number in this app is "
    "computed live, and every state is a link you can share."
)

with st.container(border=True):
    st.markdown(f"## Start the course: {len(registry.COURSE)} steps")
    st.markdown(
        "From first principles to engineering, one idea per page. Each page asks you to "
        "predict before it shows the answer, and ends with a link to the next step."
    )
    ui.page_button(START, f"Start the course: {START.title}", icon=":material/school:")
    st.markdown("**Already use layer norm?** Go straight to the engineering:")
    cols = st.columns(len(PRACTICE))
    for col, info in zip(cols, PRACTICE, strict=True):
        with col:
            ui.page_button(info, icon=":material/build:", help=info.blurb)

st.header("The course, step by step")
for start in range(0, len(registry.COURSE), 3):
    cols = st.columns(3)
    for col, info in zip(cols, registry.COURSE[start : start + 3], strict=False):
        k = registry.COURSE.index(info) + 1
        with col.container(border=True):
            st.caption(f"Step {k} · {info.section}")
            st.markdown(f"### {info.title}")
            ui.chart(
                thumbs.card_picture,
                info.url_path,
                alt=thumbs.card_alt(info.title, info.blurb),
                key=f"thumb-{info.title}",
                static=True,
            )
            st.caption(info.blurb)
            ui.page_button(info, f"Open step {k}", icon=":material/arrow_forward:")

st.markdown("### Reference")
cols = st.columns(len(registry.in_section("Reference")))
for col, info in zip(cols, registry.in_section("Reference"), strict=True):
    with col:
        ui.page_button(info, icon=":material/arrow_forward:")
        st.caption(info.blurb)
