"""Epsilon: what the constant added to the variance changes, and what it protects."""

import numpy as np
import streamlit as st

import lnviz
from lnviz.app import live, quiz, ui
from lnviz.lessons import explorers
from lnviz.lessons.epsilon import figures as figs
from lnviz.lessons.epsilon import notes
from lnviz.lessons.epsilon import questions as exercises
from lnviz.lessons.epsilon.state import PRESETS, STATE

COMPARE_EPS = (1e-3, 1e-2, 0.1, 1.0, 10.0)  # faint comparison curves
RATIO_GRID = np.logspace(-3, 3, 241)  # q / eps axis of the variance chart


def charts_at(z: np.ndarray, others: tuple[lnviz.Family, ...], eps: float) -> live.Charts:
    """The charts ε moves, as the page draws them at `eps` (the faint curves `others` stay)."""
    core, spec = lnviz.analyze_core(z, eps), lnviz.jacobian_spectrum(z, eps)
    current = lnviz.epsilon_family(eps)
    ratio = lnviz.core_variance_ratio(RATIO_GRID)
    return {
        "h": (figs.H, (current, others)),
        "dh": (figs.DH, (current, others)),
        "variance": (figs.VARIANCE, (RATIO_GRID, ratio, float(core.q) / core.eps)),
        "jacobian": (figs.JACOBIAN, (spec,)),
        "eigen": (figs.EIGEN, (spec,)),
    }


ui.page_intro(
    "ε: the small constant that changes the geometry",
    r"""Layer normalization divides the centred input by $\sqrt{q+\varepsilon}$, not by the
standard deviation $\sqrt q$. For $z\in\mathbb R^d$ with mean $\mu$, centred vector
$v=z-\mu\mathbf 1$ and population variance $q=\tfrac1d\lVert v\rVert^2$:""",
)
st.latex(r"u_\varepsilon(z)=\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}")
ui.prose(
    "Drag ε (epsilon) and watch two consequences: the slope of the map is capped at "
    "ε^(−1/2), and the core's variance falls below 1."
)

ui.presets(PRESETS, key="eps-presets")


def core_numbers(core: lnviz.Core, eps: float) -> None:
    """The core of the visitor's z (after the first charts: a phone reaches them sooner)."""
    st.header("The core of your z")
    row = ui.row()
    row.metric("mean μ", ui.fmt(float(core.mu)))
    row.metric("variance q", ui.fmt(float(core.q)))
    row.metric("core variance q/(q+ε)", ui.fmt(float(core.core_var)))
    row.metric("ε", ui.eps_label(eps))
    st.markdown(f"$u_\\varepsilon(z)$ = **{ui.fmt_vec(core.core, 6)}**")
    ui.notice(notes.core_notes(core))


def family_section(
    eps: float, z: np.ndarray, others: tuple[lnviz.Family, ...], now: live.Charts
) -> None:
    st.header("The family (−t, 0, t)")
    ui.prose(
        r"For $z=(-t,0,t)$ the variance is $q=2t^2/3$, so the third coordinate of the core is "
        r"$h_\varepsilon(t)=t/\sqrt{2t^2/3+\varepsilon}$ with slope "
        r"$h'_\varepsilon(t)=\varepsilon/(2t^2/3+\varepsilon)^{3/2}$."
    )
    live.live_control(  # the one ε control, right above its charts: they follow the drag
        "ε (added to the variance): drag it, the charts below follow",
        key="eps-live",
        param="eps",
        options=ui.EPS_GRID,
        value=eps,
        charts=live.chart_frames(lambda e: charts_at(z, others, e), ui.EPS_GRID),
        fmt=ui.eps_label,
        symbol="ε",
    )
    with ui.row():
        live.draw(now, "h")
        live.draw(now, "dh")
    ui.notice(notes.family_notes(lnviz.epsilon_family(eps)))


@st.fragment
def variance_section(core: lnviz.Core, now: live.Charts) -> None:
    with ui.going_further("How far from variance 1? The whole curve q/(q+ε)"):
        live.draw(now, "variance")
        ui.notice(notes.variance_notes(core))


@st.fragment
def scaling_section(z: np.ndarray, eps: float) -> None:
    with ui.going_further("Scaling the input", "a"):
        ui.prose(
            r"Multiplying $z$ by $a>0$ gives $u_\varepsilon(az)=\dfrac{av}{\sqrt{a^2q+\varepsilon}}"
            r"=u_{\varepsilon/a^2}(z)$: scaling the input is the same as dividing ε by $a^2$, so "
            "for ε > 0 there is no scale invariance."
        )
        a = ui.control(STATE["a"])
        check = explorers.scaling_check(z, eps, a)
        s, exact = check.scaling, check.at_zero
        ui.chart(figs.SCALING, s, key="scaling")
        row = ui.row()
        row.metric("max |u_ε(az) − u_ε(z)|", ui.fmt(s.change, 8))
        row.metric("max |u_ε(az) − u_(ε/a²)(z)|", ui.fmt(s.identity_error, 12))
        row.metric("same change at ε = 0", "—" if exact is None else ui.fmt(exact.change, 12))
        ui.notice(notes.scaling_notes(check))


@st.fragment
def jacobian_section(z: np.ndarray, eps: float, now: live.Charts) -> None:
    with ui.going_further("Sensitivity: the Jacobian and the Lipschitz bound"):
        ui.prose(
            r"The Jacobian $Du_\varepsilon(z)$ is the matrix of partial derivatives: how far each "
            r"coordinate of the core moves per small move of each coordinate of $z$."
        )
        st.latex(
            r"Du_\varepsilon(z)=\frac{1}{\sqrt{q+\varepsilon}}"
            r"\Bigl(P-\frac{vv^{\mathsf T}}{d\,(q+\varepsilon)}\Bigr)"
        )
        ui.prose(
            r"Here $P=I-\mathbf 1\mathbf 1^{\mathsf T}/d$ is the centering matrix and $v=Pz$ "
            r"the centred input. No direction is stretched by more than $\varepsilon^{-1/2}$: "
            r"that is a "
            r"Lipschitz bound, the core never moves faster than $\varepsilon^{-1/2}$ times the "
            "change of z."
        )
        spec = lnviz.jacobian_spectrum(z, eps)
        with ui.row():
            live.draw(now, "jacobian")
            live.draw(now, "eigen")
        table = explorers.jacobian_table(spec)
        ui.table(table.as_dict(), formats=dict.fromkeys(table.names[3:], "%.6f"))
        st.caption(
            "b: a unit vector of the eigenspace; bᵀJb measures its eigenvalue on the matrix."
        )
        row = ui.row()
        row.metric("operator norm ‖Du‖₂", ui.fmt(spec.operator_norm, 6))
        row.metric("bound ε^(−1/2)", ui.fmt(spec.core_bound, 6))
        row.metric("bound attained?", "yes" if spec.attained else "no")
        reached = notes.bound_message(spec)
        if reached is not None:
            st.success(reached, icon=":material/check_circle:")
        ui.notice(notes.jacobian_notes(spec))


@ui.page_body
def body() -> None:
    with ui.page_controls():
        eps = ui.control(STATE["eps"])  # ε's home (URL, presets); its live control draws it
        z = ui.control(STATE["z"])
    quiz.ask(exercises.questions(z, eps), page="epsilon")

    core = lnviz.analyze_core(z, eps)

    others = explorers.compare_families(eps, COMPARE_EPS)  # faint: they stay during a drag
    now = charts_at(z, others, eps)
    family_section(eps, z, others, now)
    core_numbers(core, eps)
    variance_section(core, now)
    scaling_section(z, eps)
    jacobian_section(z, eps, now)


body()
ui.page_end()
