"""Home: what layer normalization is, and one card per explorer page."""

import streamlit as st

import lnviz
from lnviz.app import ui
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

CARDS = [
    (
        "pages/reduction-axes.py",
        "Reduction axes",
        "Which entries share one mean and variance under batch, layer, instance, group and RMS "
        "normalization, on a tensor you control.",
        lambda: thumbs.axes_thumb(
            lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 6), 0), "group", num_groups=2)
        ),
    ),
    (
        "pages/epsilon.py",
        "Epsilon",
        "How ε bends the core: the curve h_ε(t), the variance q/(q+ε), lost scale invariance and "
        "the Lipschitz bound ε^(−1/2).",
        lambda: thumbs.epsilon_thumb([lnviz.epsilon_family(e, n=121) for e in (1 / 3, 0.01, 3.0)]),
    ),
    (
        "pages/gain-and-bias.py",
        "Gain and bias",
        "What the learned affine step does to mean and variance: normalized does not mean mean 0 "
        "and variance 1.",
        lambda: thumbs.affine_thumb(lnviz.affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], 0.0)),
    ),
    (
        "pages/invariance.py",
        "Invariances",
        "Common shifts vanish exactly; unequal shifts and rescaling do not; the redundancy of a "
        "bias before the normalization.",
        lambda: thumbs.invariance_thumb(
            [lnviz.normalized_core(z, 1 / 3) for z in ([1, 2, 3], [101, 102, 103], [1, 2, 4])]
        ),
    ),
    (
        "pages/weighted-centering.py",
        "Weighted centering",
        "Subtracting a weighted mean is an oblique projection: P_a = I − 1aᵀ against the "
        "Euclidean one.",
        lambda: thumbs.weighted_thumb(lnviz.weighted_centering([0.25, 0.75], [4.0, 2.0])),
    ),
]

for start in range(0, len(CARDS), 3):
    cols = st.columns(3)
    for col, (path, title, blurb, thumb) in zip(cols, CARDS[start : start + 3], strict=False):
        with col.container(border=True):
            st.markdown(f"#### {title}")
            ui.chart(
                thumb,
                alt=f"Preview of the {title.lower()} page. {blurb}",
                key=f"thumb-{title}",
                static=True,
            )
            st.caption(blurb)
            st.page_link(path, label=f"Open {title}", icon=":material/arrow_forward:")

MORE = {
    "In models": [
        (
            "pages/sequences.py",
            "Sequences and causality",
            "What token-wise statistics guarantee for a forecast, and what they do not.",
        ),
        (
            "pages/batch-statistics.py",
            "Batch statistics",
            "Batch norm's batch and running statistics against layer norm, which needs neither.",
        ),
    ],
    "Engineering": [
        (
            "pages/frameworks.py",
            "Framework parity",
            "PyTorch, Keras and Flax side by side: code, defaults, and why outputs differ.",
        ),
        (
            "pages/numerics.py",
            "Numerics lab",
            "Variance algorithms in four precisions, and where ε goes.",
        ),
    ],
    "Reference": [
        ("pages/glossary.py", "Glossary", "Every term with its formula and a page that shows it."),
        (
            "pages/examples.py",
            "Worked examples",
            "Each worked number of the notes, recomputed live and checked.",
        ),
    ],
}
cols = st.columns(len(MORE))
for col, (section, pages) in zip(cols, MORE.items(), strict=True):
    with col:
        st.markdown(f"#### {section}")
        for path, title, blurb in pages:
            st.page_link(path, label=title, icon=":material/arrow_forward:")
            st.caption(blurb)
