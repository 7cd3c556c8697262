"""Numerics lab: why two layer norms of the same input give different numbers."""

import numpy as np
import streamlit as st

from lnviz.app import quiz, ui
from lnviz.content.text import float_result, offset_label
from lnviz.lessons.numerics import figures as figs
from lnviz.lessons.numerics import notes as words
from lnviz.lessons.numerics import questions as exercises
from lnviz.lessons.numerics import recipes as rec
from lnviz.lessons.numerics import sweep as sw
from lnviz.lessons.numerics.state import BFLOAT16_PRESET, OFFSETS, PRESETS, STATE

# the swept offsets: 4 per decade plus every slider value, so the slider only reads a column
SWEEP_OFFSETS = tuple(sorted({float(c) for c in np.logspace(0, 8, 33)} | set(OFFSETS)))


@ui.cached(shared=True, max_entries=16)
def sweep_moments(
    sample: sw.SampleSpec, offsets: tuple[float, ...], summation: str
) -> sw.SweepMoments:
    """The swept rows' moments, which ε and the clamp leave alone (one object for every
    visitor, never copied: about 3 MB of arrays that nobody writes)."""
    return sw.sweep_moments(sample.draw(), offsets, summation)


@ui.cached
def sweep(setup: sw.SweepSetup) -> sw.Sweep:
    """Every algorithm and format at every swept offset (pure, so cached); a new ε or clamp
    reuses the moments, the sweep's largest cost."""
    return sw.run_sweep(setup, sweep_moments(setup.sample, setup.offsets, setup.summation))


@ui.cached
def clamping(setup: sw.ClampSetup) -> sw.Clamping:
    """The one-pass variance of one format with and without the clamp (cached)."""
    return sw.run_clamping(setup)


@ui.cached
def recipes(sample: sw.SampleSpec, offset: float) -> tuple[rec.RecipeRun, ...]:
    """Every framework recipe on the sample at this offset (cached)."""
    return rec.run_recipes(sample.draw(offset))


# The questions read the page's sweep at the visitor's offset (Sweep.at: the same numbers
# as sweeping that offset alone, which cost as much as the whole sweep); cached per state.
questions = ui.cached(exercises.questions)

ui.page_intro(
    "Numerics lab: why two layer norms disagree",
    """The same formula can give different numbers in two frameworks or two precisions.
Four things decide the digits: the **variance algorithm**, the **floating-point format**, the
**order of the sums**, and conventions such as **where ε sits**.""",
)
with st.expander("Three ways to compute the variance", icon=":material/functions:"):
    ui.prose(
        "Here every operation is rounded to the chosen format, one at a time (bfloat16 is "
        "emulated: each result is computed in float32 and rounded to 8 significand bits, ties "
        "to even), and compared with a float64 two-pass truth.",
        ui.display(r"\text{one-pass:}\quad v=\tfrac1n\textstyle\sum_i x_i^2-\mu^2"),
        ui.display(r"\text{two-pass:}\quad v=\tfrac1n\textstyle\sum_i (x_i-\mu)^2"),
        ui.display(r"\text{Welford:}\quad m_k=m_{k-1}+\frac{x_k-m_{k-1}}{k}"),
        ui.display(r"M_k=M_{k-1}+(x_k-m_{k-1})(x_k-m_k)"),
        ui.display(r"v=M_n/n"),
        "The one-pass form reads the data once but subtracts two large, nearly equal numbers "
        "when the mean μ is large next to the spread: the digits that held the variance cancel.",
    )

ui.presets(PRESETS, key="num-presets")


@st.fragment
def clamping_section(sample: sw.SampleSpec, offset: float, eps: float, summ: str) -> None:
    with ui.going_further("One format up close: the mean, the variance, the clamp", "prec"):
        prec = ui.control(STATE["prec"])
        c = clamping(sw.ClampSetup(sample, offset, prec, eps, summ))
        row = ui.row()
        row.metric(f"mean in {prec}", float_result(c.mean))
        row.metric("one-pass variance", float_result(c.variance))
        row.metric("clamped output: largest / true largest", float_result(c.blowup))
        st.caption(words.clamping_caption(c))
        ui.chart(figs.CLAMPING, c, key="clamp-fig")
        st.latex(r"v<0\ \Rightarrow\ \max(v,0)=0\ \Rightarrow\ y=\frac{x-\mu}{\sqrt{\varepsilon}}")
        shown = words.at_preset(BFLOAT16_PRESET, sample, offset, prec)
        ui.notice(list(words.clamping_notes(c, shown)))


@st.fragment
def placement_section(eps: float) -> None:
    with ui.going_further("Where ε sits, and which divisor", "x"):
        x = ui.control(STATE["x"])
        p = rec.eps_placements(x, eps)
        ui.table(words.placement_columns(p))
        ui.chart(figs.PLACEMENTS, p, key="place")
        ui.notice(list(words.placement_notes(p)))


@ui.page_body
def body() -> None:
    quiz_box = st.container()  # the questions first, the controls right above their charts
    with ui.page_controls(sticky=False):  # (too tall to stay on screen)
        offset = ui.control(STATE["off"], fmt=offset_label)
        c1, c2, c3 = st.columns([2, 1, 1])
        with c1:
            kind = ui.control(STATE["data"])
        if kind == "noise":
            with c2:
                n = ui.control(STATE["n"])
            with c3:
                seed = ui.control(STATE["seed"])
        else:
            n, seed = 16, 0
        more = st.expander(
            "ε, summation order and clamping", icon=":material/tune:",
            expanded=ui.in_link("eps", "sum", "clamp"),
        )  # fmt: skip
        with more:
            eps = ui.control(STATE["eps"])
        c1, c2 = more.columns(2)
        with c1:
            summation = ui.control(STATE["sum"])
        with c2:
            clamp = ui.control(STATE["clamp"])

    sample = sw.SampleSpec(kind, n, seed)
    swept = sweep(sw.SweepSetup(sample, SWEEP_OFFSETS, eps, clamp, summation))
    k = swept.index(offset)
    with quiz_box:
        quiz.ask(questions(sample, offset, eps, summation, clamp, swept.at(k)), page="numerics")

    st.header("One sample, three algorithms, four formats")
    left, right = st.columns([1, 1])
    with left:
        ui.chart(figs.HEATMAP, swept, k, key="heat")
    with right:
        st.markdown(words.sample_summary(swept, k, kind))
        st.caption(words.variance_caption(swept, k))
        ui.table(words.variance_columns(swept, k))
    ui.notice(list(words.error_notes(swept, k)))

    with ui.going_further("The error at every offset"):
        ui.chart(figs.SWEEP, swept, offset, key="sweep")
        st.caption(
            "Colour: format. Line style: algorithm. Dash-dotted: the error of storing the input "
            "in that format with everything else exact — a line lying on it loses nothing to the "
            "algorithm. Crosses at the top: no finite output. Errors below 10⁻¹⁷ are drawn at "
            "10⁻¹⁷."
        )
        ui.notice(list(words.sweep_notes(swept)))

    clamping_section(sample, offset, eps, summation)
    placement_section(eps)

    with ui.going_further("What each framework computes"):
        runs = recipes(sample, offset)
        ui.table(words.recipe_columns(runs))
        with ui.fold("How each framework computes its row", icon=":material/functions:"):
            st.markdown(words.RECIPES_TEXT)
        with ui.fold("Source files read for each row", icon=":material/fact_check:"):
            st.markdown(words.recipe_sources())
        ui.notice(list(words.recipe_notes(runs, offset, offset == OFFSETS[-1])))


body()
ui.page_end()
