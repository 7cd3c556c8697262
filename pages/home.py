"""Home: what layer normalization is, and one card per explorer page."""

import streamlit as st

from lnviz.app import ui
from lnviz.content import registry
from lnviz.figures import home as thumbs

ui.page_intro(
    "lnviz: layer normalization, one idea at a time",
    r"""Layer normalization rescales a vector of hidden activations using statistics of that
same vector. For $z\in\mathbb R^d$ it subtracts the mean, divides by the square root of the
population variance plus a small $\varepsilon$, then applies a learned gain $\gamma$ and bias
$\beta$, one per coordinate:""",
)
st.latex(r"\mu=\frac1d\sum_i z_i,\qquad q=\frac1d\sum_i (z_i-\mu)^2")
st.latex(r"y=\gamma\odot\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}+\beta")
st.markdown(
    "The statistics come from the current input, in training and at inference alike: no "
    "running averages and no dependence on the rest of the batch. Each page below isolates one "
    "consequence of this formula; every number on them is computed live, and every state is a "
    "link you can share."
)

cards = [p for p in registry.PAGES if p.card]
for start in range(0, len(cards), 3):
    cols = st.columns(3)
    for col, info in zip(cols, cards[start : start + 3], strict=False):
        with col.container(border=True):
            st.markdown(f"#### {info.title}")
            ui.chart(
                thumbs.CARD_PICTURES[info.url_path],
                alt=thumbs.card_alt(info.title, info.blurb),
                key=f"thumb-{info.title}",
                static=True,
            )
            st.caption(info.blurb)
            st.page_link(info.script, label=f"Open {info.title}", icon=":material/arrow_forward:")

more = [s for s in registry.SECTIONS if s not in ("Start", "The formula")]
cols = st.columns(len(more))
for col, section in zip(cols, more, strict=True):
    with col:
        st.markdown(f"#### {section}")
        for info in registry.in_section(section):
            st.page_link(info.script, label=info.title, icon=":material/arrow_forward:")
            st.caption(info.blurb)
