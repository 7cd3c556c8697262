"""Invariances: which changes of the input layer normalization ignores, and which it does not."""

from collections.abc import Sequence

import numpy as np
import streamlit as st

import lnviz
from lnviz.app import live, quiz, ui
from lnviz.content.closed_forms import vector_with_exact
from lnviz.lessons import explorers, symmetry
from lnviz.lessons.invariance import figures as figs
from lnviz.lessons.invariance import notes
from lnviz.lessons.invariance import questions as exercises
from lnviz.lessons.invariance.state import PRESETS, STATE

SHIFTS, SCALES = STATE["c"].options, STATE["a"].options  # the live controls' values


def shift_charts(z: np.ndarray, eps: float, c: float) -> live.Charts:
    """The chart c moves, as section 1 draws it (its bars stay put: that is the lesson)."""
    return {"shift": (figs.PAIR, (symmetry.common_shift(z, c, eps),))}


def scale_charts(z: np.ndarray, eps: float, a: float) -> live.Charts:
    """The chart a moves, as section 2 draws it."""
    ident = explorers.scaling_check(z, eps, a).scaling
    return {"scale": (figs.SCALE, (symmetry.scale(z, a, eps), ident))}


def drag(
    symbol: str,
    label: str,
    options: Sequence[float],
    value: float,
    charts_at: live.ChartsAt,
) -> None:
    """A live control for `symbol`, then the charts it drives (`charts_at(value)`): their
    frames follow the drag in the browser and the release sets the page's `symbol`."""
    charts = live.chart_frames(charts_at, options)
    fmt = "{:g}".format
    live.live_control(
        label,
        key=f"{symbol}-live",
        param=symbol,
        options=options,
        value=value,
        charts=charts,
        fmt=fmt,
        symbol=symbol,
    )
    now = charts_at(value)
    for key in now:
        live.draw(now, key)


def undefined_note(what: str) -> None:
    st.warning(
        f"**Undefined at ε = 0:** {what} has all coordinates equal, so layer norm would divide "
        "0 by 0. Choose ε > 0 or make the coordinates differ.",
        icon=":material/block:",
    )


# The questions run the page's model at its state: built once per state.
questions = ui.cached(exercises.questions)

ui.page_intro(
    "Invariances: what layer norm cannot see",
    r"""Layer normalization subtracts the mean $\mu$ of the coordinates, leaving the centred
vector $v=z-\mu\mathbf 1$, and divides by $\sqrt{q+\varepsilon}$, where $q$ is the
population variance. Adding the same $c$ to every coordinate ($z+c\mathbf 1$, written z + c
below) moves the mean by $c$ and leaves $q$ alone, so it is erased, whatever $\varepsilon$ is
(shift invariance):""",
)
st.latex(r"\mu(z+c\mathbf 1)=\mu(z)+c,\qquad q(z+c\mathbf 1)=q(z)")
st.latex(r"\Longrightarrow\quad u_\varepsilon(z+c\mathbf 1)=u_\varepsilon(z)")
ui.prose(
    "Gain and bias come after, so the output is unchanged too. Scaling gets through, and so "
    "does a shift of one coordinate."
)

ui.presets(PRESETS, key="inv-presets")


def common_shift_section(z: np.ndarray, eps: float) -> symmetry.Symmetry:
    st.markdown("### 1 · A common shift: erased")
    c = ui.control(STATE["c"])
    sym = symmetry.common_shift(z, c, eps)
    if not sym.ln_defined:
        undefined_note("z")
        return sym
    label = f"{STATE['c'].label}: drag it, the bars below follow"
    drag("c", label, SHIFTS, c, lambda v: shift_charts(z, eps, v))
    st.metric("largest change max |u_ε(z + c) − u_ε(z)|", ui.fmt(sym.ln_change, 12))
    st.markdown(
        f"z = {ui.fmt_vec(sym.z, 6)} and z + c = {ui.fmt_vec(sym.moved, 6)} both give "
        f"$u_\\varepsilon$ = **{vector_with_exact(sym.ln_moved)}**."
    )
    ui.notice(notes.common_shift_notes(explorers.shift_check(sym)))
    return sym


def unequal_shift_section(z: np.ndarray, eps: float) -> None:
    with ui.going_further("An unequal shift does get through", "s"):
        ui.prose(
            r"""Any shift splits as $s=\bar s\,\mathbf 1+(s-\bar s\,\mathbf 1)$. Layer norm
removes the first part and keeps the second, so only a shift with all entries equal is
invisible."""
        )
        s = ui.control(STATE["s"])
        if s.size != z.size:
            st.error(
                f"**s** has {s.size} entries but z has {z.size}: give one shift per coordinate "
                "of z to see this section.",
                icon=":material/error:",
            )
            return
        sym = symmetry.unequal_shift(z, s, eps)
        split = symmetry.split_shift(s)
        if not sym.ln_defined:
            undefined_note("z + s" if lnviz.analyze_core(z, eps).finite else "z")
            return
        ui.chart(figs.PAIR, sym, key="unequal")
        row = ui.row()
        row.metric("largest change max |u_ε(z + s) − u_ε(z)|", ui.fmt(sym.ln_change, 6))
        row.metric("common part of s (removed)", ui.fmt(split.c, 6))
        st.markdown(
            f"z + s = {ui.fmt_vec(sym.moved, 6)} gives $u_\\varepsilon(z+s)$ = "
            f"**{vector_with_exact(sym.ln_moved)}**. The part of s that is kept: "
            f"{vector_with_exact(split.rest)}."
        )
        ui.notice(notes.unequal_shift_notes(explorers.shift_check(sym)))


def scaling_section(z: np.ndarray, eps: float) -> symmetry.Symmetry:
    st.markdown("### 2 · Scaling: exact only at ε = 0")
    st.latex(
        r"u_\varepsilon(az)=\frac{a\,v}{\sqrt{a^2q+\varepsilon}}=u_{\varepsilon/a^2}(z),"
        r"\qquad a>0"
    )
    ui.prose(
        r"""Rescaling acts like dividing $\varepsilon$ by $a^2$: for $\varepsilon>0$ and a
non-constant $z$ the core changes unless $a=1$. Only at $\varepsilon=0$ does $a$ cancel
exactly: scale invariance holds there alone."""
    )
    a = ui.control(STATE["a"])
    sym = symmetry.scale(z, a, eps)
    if not sym.ln_defined:
        undefined_note("z")
        return sym
    check = explorers.scaling_check(z, eps, a)
    ident, exact = check.scaling, check.at_zero
    label = f"{STATE['a'].label}: drag it, the chart below follows"
    drag("a", label, SCALES, a, lambda v: scale_charts(z, eps, v))
    row = ui.row()
    row.metric(f"max change at ε = {ui.eps_label(eps)}", ui.fmt(sym.ln_change, 8))
    row.metric("same a at ε = 0", "undefined" if exact is None else ui.fmt(exact.change, 12))
    row.metric("identity error |u_ε(az) − u_(ε/a²)(z)|", ui.fmt(ident.identity_error, 12))
    ui.notice(notes.scaling_notes(check))
    return sym


def rms_section(shift: symmetry.Symmetry, scaled: symmetry.Symmetry) -> None:
    with ui.going_further("RMS norm for contrast", "c", "a"):
        ui.prose(
            r"""RMS norm skips the centring:
$\operatorname{rms}_\varepsilon(z)=z/\sqrt{m+\varepsilon}$ with $m=\tfrac1d\sum_i z_i^2$,
the mean square. Without the centring nothing absorbs a common shift; scaling acts as for
layer norm, turning $\varepsilon$ into $\varepsilon/a^2$. The chart uses c and a from
sections 1 and 2."""
        )
        if not (shift.ln_defined and scaled.ln_defined and shift.rms_defined):
            st.info(
                "Some of these are 0/0 at ε = 0 for this z; choose ε > 0 to compare.",
                icon=":material/info:",
            )
        ui.chart(figs.CONTRAST, shift, scaled, key="contrast")
        both = explorers.contrast(shift, scaled)
        ui.table(notes.contrast_table(both).as_dict())
        ui.notice(notes.rms_notes(both))


@st.fragment
def shift_scale_sections(z: np.ndarray, eps: float) -> None:
    """Sections 1-2 side by side (what is erased, what gets through), then the unequal shift
    and RMS norm: RMS reuses c and a from 1 and 2, so they rerun together."""
    st.header("Shifting and scaling the input")  # one slide: the halves are Markdown h3s
    shift, scaled = ui.side_by_side(
        lambda: common_shift_section(z, eps), lambda: scaling_section(z, eps)
    )
    unequal_shift_section(z, eps)
    rms_section(shift, scaled)


@st.fragment
def redundancy_section(eps: float) -> None:
    with ui.going_further("Redundancy in the layer before", "seed", "cb", "r", "dx"):
        ui.prose(
            r"""Usually $z$ comes out of an affine map $z=Wx+b$. Two of its parameters can change
without any effect on the normalized output, for **every** input $x$:"""
        )
        st.latex(
            r"\begin{aligned}"
            r"b\to b+c\mathbf 1:&\quad z\mapsto z+c\,\mathbf 1\\"
            r"W\to W+\mathbf 1r^{\mathsf T}:&\quad z\mapsto z+(r^{\mathsf T}x)\,\mathbf 1\\"
            r"x\to x+\Delta x:&\quad z\mapsto z+W\Delta x"
            r"\end{aligned}"
        )
        ui.prose(
            "The first two add a common shift (the second a different one for each x, removed "
            "input by input). Shifting the raw input by Δx adds W Δx, which has equal entries only "
            "by accident."
        )
        (seed, cb), (rv, sv) = ui.side_by_side(
            lambda: (ui.control(STATE["seed"]), ui.control(STATE["cb"])),
            lambda: (ui.control(STATE["r"]), ui.control(STATE["dx"])),
        )
        layer = symmetry.seeded_layer(seed)
        red = lnviz.affine_redundancy(layer.w, layer.b, layer.xs, c=cb, r=rv, s=sv, eps=eps)
        check = explorers.redundancy_check(red)
        with ui.fold("The layer: W, b and the inputs x", icon=":material/table:"):
            for table in explorers.layer_tables(layer):
                ui.table(table.as_dict())
        row = ui.row()
        row.metric("max change, b + c", ui.fmt(red.bias_change, 12))
        row.metric("max change, W + 1rᵀ", ui.fmt(red.weight_change, 12))
        row.metric("max change, x + Δx", ui.fmt(red.input_change, 6))
        left, right = st.columns([3, 2])
        with left:
            ui.chart(figs.REDUNDANCY, red, cb, rv, sv, key="redundancy")
        with right:
            ui.chart(figs.WS, check.split, key="ws")
        st.markdown(notes.ws_line(check))
        ui.notice(notes.redundancy_notes(check))


@ui.page_body
def body() -> None:
    with ui.page_controls():
        z, eps = ui.side_by_side(
            lambda: ui.control(STATE["z"]), lambda: ui.control(STATE["eps"]), spec=[2, 3]
        )
    defined = lnviz.analyze_core(z, eps).finite
    quiz.ask(questions(z, eps), page="invariance")

    if defined:
        shift_scale_sections(z, eps)
    else:
        undefined_note("z")
    redundancy_section(eps)


body()
ui.page_end()
