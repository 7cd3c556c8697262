"""Gain and bias: what the learned affine step does after the normalized core."""

from dataclasses import asdict

import numpy as np
import streamlit as st

import lnviz
from lnviz.app import live, quiz, ui
from lnviz.lessons import explorers
from lnviz.lessons.gain_and_bias import figures as figs
from lnviz.lessons.gain_and_bias import notes
from lnviz.lessons.gain_and_bias import notes_live as drag_text
from lnviz.lessons.gain_and_bias import questions as exercises
from lnviz.lessons.gain_and_bias.live import drag_values
from lnviz.lessons.gain_and_bias.state import PRESETS, STATE

STAGE_NAMES = ("input", "core", "output")  # the stage charts' keys: stage-<name>


def matched(values: np.ndarray, field: str, d: int, fallback: str) -> np.ndarray | None:
    """The vector if it has one entry per coordinate of z; otherwise a message and None."""
    if values.size == d:
        return values
    st.error(
        f"**{field}** has {values.size} entries but z has {d}: give one {field} value per "
        f"coordinate of z. Using {fallback} for every coordinate until they match.",
        icon=":material/error:",
    )
    return None


def stage_charts(
    vectors: dict[str, np.ndarray], eps: float, field: str, index: int, value: float
) -> live.Charts:
    """The charts one coordinate moves, with that coordinate at `value`."""
    moved = {name: v.copy() for name, v in vectors.items()}
    moved[field][index] = value
    return page_charts(lnviz.affine_stages(moved["z"], moved["gamma"], moved["beta"], eps))


def page_charts(res: lnviz.AffineStages) -> live.Charts:
    """The stage charts and the moments, as the page draws them and as the drag moves them."""
    charts = {f"stage-{name}": (figs.STAGE, (res, i)) for i, name in enumerate(STAGE_NAMES)}
    return charts | {"moments": (figs.MOMENTS, (res,))}


def live_drag(res: lnviz.AffineStages, fields: list[str]) -> None:
    """Pick one coordinate of z, γ or β and drag it: the bars follow in the browser, and the
    release writes the value into that vector's text box (so the link and page follow)."""
    options = drag_text.coordinate_options(res.input.values.size, fields)
    default = STATE["drag"].default if STATE["drag"].default in options else "z1"
    labels = {o: drag_text.coordinate_label(o) for o in options}
    ui.keep_choice("drag", options, default)  # z got shorter, or γ/β unmatched
    option = ui.control(STATE["drag"], options=options, default=default, labels=labels)
    field, index = drag_text.coordinate(option)
    symbol = drag_text.coordinate_label(option)
    vectors = {"z": res.input.values, "gamma": res.gamma, "beta": res.beta}
    vector = vectors[field]
    box = STATE[field]
    values = drag_values(float(vector[index]), box.lo, box.hi)

    # the frames' key leaves out the dragged entry's own value (every frame sets it), so a
    # release onto the same window finds the frames it already built
    base = {name: v.copy() for name, v in vectors.items()}
    base[field][index] = 0.0
    eps = res.eps

    def apply(value: float) -> None:  # the release: one entry of the text box changes
        st.session_state[field] = drag_text.with_entry(st.session_state[field], index, value)

    live.live_control(
        f"Drag {symbol}: the bars follow",
        key="gb-live",
        param=field,
        options=values,
        value=float(vector[index]),
        charts=live.chart_frames(
            lambda v: stage_charts(base, eps, field, index, v), values.tolist()
        ),
        fmt=lambda v: ui.fmt(v, 6),
        symbol=symbol,
        apply=apply,
    )


ui.page_intro(
    "Gain and bias: after the normalization",
    r"""Layer normalization has two steps. First it centres $z\in\mathbb R^d$ on its mean $\mu$
and divides by $\sqrt{q+\varepsilon}$, with $q$ the population variance (divisor $d$): this
gives the normalized core $u_\varepsilon(z)$. Then it applies a learned gain $\gamma$ and
bias $\beta$, one pair per coordinate:""",
)
st.latex(
    r"u_\varepsilon(z)=\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}},\qquad "
    r"y=\gamma\odot u_\varepsilon(z)+\beta"
)
ui.prose(
    r"That is $y_i=\gamma_i\,u_i+\beta_i$ for each coordinate. γ and β are learned in "
    "training and fixed here. After them, y can have any mean and any spread."
)

ui.presets(PRESETS, key="gb-presets")


@ui.page_body
def body() -> None:
    with ui.page_controls():
        z, gamma_raw, beta_raw = ui.side_by_side(
            *(lambda name=name: ui.control(STATE[name]) for name in ("z", "gamma", "beta"))
        )
        eps = ui.control(STATE["eps"])
    gamma = matched(gamma_raw, "γ", z.size, "γ = 1")
    beta = matched(beta_raw, "β", z.size, "β = 0")
    quiz.ask(exercises.questions(z, gamma, beta, eps), page="gain-and-bias")

    res = lnviz.affine_stages(z, gamma, beta, eps)
    check = explorers.affine_check(res)

    st.header("Three stages: input → core → output")
    if not res.defined:
        st.warning(
            "**Undefined at ε = 0 for a constant input.** Every coordinate of z is equal, so the "
            "centred vector is 0 and its variance q is 0: the core would be 0/0. Any ε > 0 fixes "
            "this: the core becomes exactly 0 and the output equals β.",
            icon=":material/block:",
        )
    else:  # the control right above the charts it drives
        live_drag(res, ["z"] + ["gamma"] * (gamma is not None) + ["beta"] * (beta is not None))
    now = page_charts(res)
    for col, name in zip(st.columns(3), STAGE_NAMES, strict=True):
        with col:
            live.draw(now, f"stage-{name}")
    st.caption(
        "Dashed red line: the mean of the stage. Shaded band: one standard deviation either side."
    )
    if res.constant_input and res.defined:
        st.success(
            f"Constant input: the centred vector is 0, so the core is 0 and the output is exactly "
            f"β = {ui.fmt_vec(res.output.values, 6)}.",
            icon=":material/check_circle:",
        )
    ui.notice(notes.stage_notes(res, check))

    st.header("“Normalized” does not mean mean 0 and variance 1")
    ui.prose(
        r"""The core always has mean 0 and variance $q/(q+\varepsilon)$: 1 only at
$\varepsilon=0$. The gain and bias then move both, since
$\bar y=\tfrac1d\sum_i\gamma_i u_i+\bar\beta$ and the gains stretch coordinates unequally."""
    )
    if res.defined:
        row = ui.row()
        out = res.output
        row.metric("output mean", ui.fmt(out.mean, 6), help=notes.exact_help(out.mean))
        row.metric("output variance", ui.fmt(out.var, 6), help=notes.exact_help(out.var))
        row.metric("core variance", ui.fmt(res.core.var, 6), help="measured from the core's values")
        row.metric("q/(q+ε)", ui.fmt(check.core_var, 6), help="the formula for the core's variance")
    else:
        st.info(
            "Nothing to measure yet: at ε = 0 a constant input has no core. Pick ε > 0 or make "
            "the coordinates of z differ.",
            icon=":material/info:",
        )
    ui.notice(notes.moment_notes(res, check))

    if res.defined:
        with ui.going_further("Every stage's numbers, and the moments side by side"):
            ui.table(asdict(notes.stage_table(res)))
            st.markdown(notes.stage_lines(res))
            live.draw(now, "moments")

    with ui.going_further("How sensitive is the output to z?"):
        ui.prose(
            r"""The core can move no faster than $\varepsilon^{-1/2}$ times the change in $z$, a
Lipschitz bound; the gain multiplies it by its largest entry in absolute value. So for any two
inputs"""
        )
        st.latex(
            r"\lVert y(z)-y(z')\rVert_2\le\max_i|\gamma_i|\,\varepsilon^{-1/2}"
            r"\,\lVert z-z'\rVert_2 ."
        )
        row = ui.row()
        row.metric(
            "core bound ε^(−1/2)",
            ui.fmt(res.core_lipschitz, 6),
            help=notes.exact_help(res.core_lipschitz),
        )
        row.metric(
            "output bound max|γᵢ|·ε^(−1/2)",
            ui.fmt(res.output_lipschitz, 6),
            help=notes.exact_help(res.output_lipschitz),
        )
        if eps == 0:
            st.info(
                "At ε = 0 there is no finite bound (∞): near a constant input the core can jump "
                "between far-apart values for an arbitrarily small change of z.",
                icon=":material/all_inclusive:",
            )
        ui.notice(notes.sensitivity_notes())


body()
ui.page_end()
