"""Why normalize: what goes wrong in a deep stack without it, computed live."""

import streamlit as st

from lnviz.app import quiz, ui
from lnviz.lessons.why_normalize import Drift, activation_drift
from lnviz.lessons.why_normalize import figures as figs
from lnviz.lessons.why_normalize import questions as exercises
from lnviz.lessons.why_normalize.state import STATE


@ui.cached
def drift_at(depth: int, gain: float, activation: str) -> Drift:
    """The stack with and without layer norm at this state (pure, so cached; the page's
    charts, numbers and questions all read this one)."""
    return activation_drift(depth=depth, gain=gain, activation=activation)


ui.page_intro(
    "Why normalize?",
    """A neural network is a stack of layers, and each layer multiplies its input by a matrix
of learned weights. If a layer makes its activations a little larger on average, the next
layer starts from larger numbers and makes them larger again: small factors compound with
depth. Deep stacks therefore drift, their numbers exploding or vanishing, unless something
brings them back to a common scale. Layer normalization is that something, applied to every
token at every layer.""",
)
with ui.page_controls():
    gain, depth, activation = ui.side_by_side(
        *(lambda name=name: ui.control(STATE[name]) for name in STATE.names)
    )

drift = drift_at(depth, gain, activation)
quiz.ask(exercises.questions(depth, gain, activation, drift), page="why-normalize")

st.header("The same stack, with and without layer norm")
ui.chart(figs.DRIFT, drift, key="drift")
m1, m2, m3 = st.columns(3)
m1.metric("spread at the input", ui.fmt(float(drift.plain.spread[0]), 3))
m2.metric(f"after {depth} layers, plain", f"{float(drift.plain.spread[-1]):.3g}")
m3.metric(f"after {depth} layers, with layer norm", ui.fmt(float(drift.normalized.spread[-1]), 4))
factor = drift.measured_factor
ui.notice(
    [
        f"Without normalization each layer multiplied the spread by about {factor:.3g}; "
        f"over {depth} layers that compounds to {factor**depth:.3g}."
        + (" Only a scale that keeps this factor at exactly 1 holds the stack steady."
           if abs(factor - 1) > 0.02 else " Here the factor is close to 1: this scale happens "
           "to hold the stack steady, but any other weights would not."),
        "With layer norm after every layer the spread is back to about 1 at every depth, "
        "whatever the weights do: each token is centred and divided by its own standard "
        "deviation.",
        "tanh squashes large values, so its stacks cannot explode; they still lose their "
        "spread when the weights are small.",
    ]
)  # fmt: skip

st.header("What layer norm does to one token")
st.markdown(
    "For one token's activations $z\\in\\mathbb R^d$ it subtracts their mean $\\mu$, "
    "divides by the square root of their variance $q$ plus a small $\\varepsilon$, and then "
    "applies a learned gain $\\gamma$ and bias $\\beta$:"
)
st.latex(r"y=\gamma\odot\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}+\beta")
st.markdown(
    "In a transformer this happens inside every block, on the residual stream that runs "
    "from the input to the output: the stream is normalized, passed through attention or "
    "an MLP, and the result is added back to the stream. The rest of the course takes this "
    "formula apart, one piece at a time."
)
ui.page_end()
