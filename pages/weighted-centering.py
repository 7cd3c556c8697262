"""Weighted centering: subtracting a weighted mean is a slanted projection along 𝟏."""

import numpy as np
import streamlit as st

from lnviz import weighted as wt
from lnviz.app import live, quiz, ui
from lnviz.errors import LnvizError
from lnviz.lessons.weighted_centering import figures as figs
from lnviz.lessons.weighted_centering import notes as wtext
from lnviz.lessons.weighted_centering import questions as exercises
from lnviz.lessons.weighted_centering.live import lattice_axis
from lnviz.lessons.weighted_centering.state import A3_DEFAULT, PRESETS, STATE

A3_FALLBACK = (1.0, 2.0, 5.0)  # A3_DEFAULT as numbers, used when typed weights are refused
W_OPTIONS = tuple(k / 100 for k in range(101))  # the w slider's values, for its live control


ui.page_intro(
    "Weighted centering: a projection that leans",
    r"""Ordinary centering removes the plain average from every coordinate. Weighted
centering removes a *weighted* average instead: pick weights $a_i\ge 0$ that add up to 1
and subtract the single number $a^{\mathsf T}x$ from each coordinate of $x$.""",
)
ui.latex_row(
    r"P_a=I-\mathbf 1a^{\mathsf T}",
    r"P_ax=x-(a^{\mathsf T}x)\,\mathbf 1",
    r"a^{\mathsf T}(P_ax)=0",
)

ui.presets(PRESETS, key="wc-presets")


def degenerate_warning(zero_weights: tuple[int, ...], *, brief: bool = False) -> None:
    """What a zero weight breaks, and what it leaves intact (brief: a one-line reminder)."""
    st.warning(wtext.degenerate_text(zero_weights, brief=brief), icon=":material/warning:")


def angle_table(result: wt.WeightedCentering) -> None:
    """The angle between the step (aᵀx)𝟏 and the result Pₐx, in both geometries."""
    orth = wt.orthogonality(result)
    st.markdown(wtext.angle_markdown(result, orth))
    note = wtext.angle_note(result, orth)
    if note:
        st.info(note)


def centre_or_default(a: np.ndarray, x: np.ndarray) -> wt.WeightedCentering:
    """The engine's result, or a message and the defaults if the weights are refused."""
    try:
        return wt.weighted_centering(a, x)
    except LnvizError as err:
        ui.refuse(err, f"Using the default weights `{A3_DEFAULT}`.")
        return wt.weighted_centering(A3_FALLBACK, x)


def weight_charts(x: np.ndarray, w: float) -> live.Charts:
    """The plane and the fit, as the page draws them at `w` and as the drag of w moves them."""
    r2 = wt.weighted_centering(wt.two_weights(w), x)
    return {
        "plane": (figs.PLANE, (r2, wt.projection_view(r2))),
        "objective": (figs.OBJECTIVE, (wt.constant_fit(r2),)),
    }


def point_charts(w: float, view: wt.ProjectionView, point: tuple[float, float]) -> live.Charts:
    """The plane as the page draws it with x at `point`, in the view `view` (it does not
    zoom while the point is dragged; the page fits the view again on release)."""
    r2 = wt.weighted_centering(wt.two_weights(w), np.asarray(point))
    return {"plane": (figs.PLANE, (r2, view))}


def set_x(point: tuple[float, float], text: str) -> None:
    """The released point becomes the x box's text (and so the link's x)."""
    st.session_state["x"] = text


# --- n = 3 and the matrix -------------------------------------------------------------------------
@st.fragment
def space_and_matrix(r2: wt.WeightedCentering) -> None:
    with ui.going_further("Three coordinates: a plane in space", "a3", "x3"):
        ui.prose(
            r"""With three coordinates the points of weighted mean 0 fill a plane through the
origin. Type any three weights $\ge 0$ (they are rescaled to add up to 1) and a point; drag
the view to look along the plane's edge."""
        )
        c1, c2 = st.columns(2)
        with c1:
            a3 = ui.control(STATE["a3"])
        with c2:
            x3 = ui.control(STATE["x3"])
        r3 = centre_or_default(a3, x3)
        view3 = wt.projection_view(r3)
        left, right = st.columns([3, 2])
        with left:
            ui.chart(figs.SPACE, r3, view3, key="space")
        with right:
            rows = wtext.centring_rows(r3, "weights a (rescaled to sum 1)")
            st.markdown(wtext.number_table(rows))
        angle_table(r3)
        if r3.degenerate:
            degenerate_warning(wt.projection_checks(r3.a).zero_weights, brief=r2.degenerate)
        ui.notice(wtext.space_notes(r3))

    with ui.going_further("Pₐ as a matrix, with its properties measured", "m"):
        which = ui.control(STATE["m"])
        checks = wt.projection_checks(r2.a if which == "2" else r3.a)
        left, right = st.columns([2, 3])
        with left:
            ui.chart(figs.MATRIX, checks, key="matrix")
        with right:
            ui.table(wtext.check_table(checks))
            if checks.symmetric:
                st.success(
                    "Equal weights: Pₐ = I − 𝟏𝟏ᵀ/n, the usual centering matrix, symmetric and an "
                    "orthogonal projection in the ordinary sense.",
                    icon=":material/check_circle:",
                )
            if checks.degenerate:
                st.warning(
                    f"{wtext.zero_names(checks.zero_weights)} = 0: D = diag(a) is singular, yet "
                    "the algebraic identities still hold.",
                    icon=":material/warning:",
                )
        st.markdown(r"With $D=\operatorname{diag}(a)$, computed on these weights:")
        ui.latex_row(  # side by side where they fit, wrapped where they do not
            *(
                f"{name}={figs.matrix_latex(mat)}"
                for name, mat in zip(
                    (r"DP_a", r"P_a^{\mathsf T}D", r"D-aa^{\mathsf T}"),
                    (checks.d_p, checks.pt_d, checks.d_minus_aat),
                    strict=True,
                )
            )
        )
        ui.notice(wtext.matrix_notes(checks))


@ui.page_body
def body() -> None:
    # --- n = 2 ------------------------------------------------------------------------------------
    st.header("Two coordinates: one line, two ways to reach it")
    ui.prose(
        r"""With $a=(w,\,1-w)$ the points of weighted mean 0 form the line $\ker a^{\mathsf T}$,
perpendicular to $a$. $P_a$ reaches it by sliding $x$ along $\mathbf 1=(1,1)$; the Euclidean
projection meets it at a right angle instead."""
    )
    quiz_box = st.container()  # the questions first, the controls right above the picture
    w = ui.control(STATE["w"])  # w's home (URL, presets); the live control below draws it
    # w above x, each across the width (a phone keeps inputs in columns side by side, which
    # leaves a drag rail too narrow to use)
    w_box = st.container()
    x = ui.control(STATE["x"])
    with w_box:
        live.live_control(  # the one w control: the plane and the fit follow, the release sets w
            "w (weight of the first coordinate): drag it, the plane follows",
            key="w-live",
            param="w",
            options=W_OPTIONS,
            value=w,
            charts=live.chart_frames(lambda v: weight_charts(x, v), W_OPTIONS),
            fmt=lambda v: f"{v:g}",
            symbol="w",
        )

    now = weight_charts(x, w)
    r2, view2 = now["plane"][1]  # the plane's arguments: the centering of x and its view
    with quiz_box:
        quiz.ask(exercises.questions(w, tuple(x)), page="weighted-centering")

    xs = lattice_axis(view2.half)  # x can be dragged to the points xs × xs of today's view
    left, right = st.columns([3, 2])
    with left:  # the point's live control sits right below the picture it moves
        live.draw(now, "plane")
        live.live_point(  # drag the point x on the plane: both projections follow
            "Or drag the orange point x on the plane above",
            key="x-live",
            chart="plane",
            trace=4,
            xs=xs,
            ys=xs,
            value=x,
            charts=live.chart_frames(
                lambda p: point_charts(w, view2, p), [(u, v) for v in xs for u in xs]
            ),
            symbol="x",
            apply=set_x,
        )
    with right:
        st.markdown(wtext.number_table(wtext.centring_rows(r2, "weights a = (w, 1 − w)")))

    ui.prose(
        r"""**It leans: where is the right angle?** The output has weighted mean 0 but usually
not plain mean 0: unless the weights are equal, $P_a$ is an oblique projection. Measure with
the D-inner product $\langle u,v\rangle_D=u^{\mathsf T}Dv=\sum_i a_iu_iv_i$,
$D=\operatorname{diag}(a)$: in that geometry the step $(a^{\mathsf T}x)\mathbf 1$ meets the
line at exactly 90°, since
$\langle P_ax,\mathbf 1\rangle_D=a^{\mathsf T}P_ax=0$. The ordinary dot product sees another
angle whenever the weights differ."""
    )
    angle_table(r2)
    zeros2 = wt.projection_checks(r2.a).zero_weights
    if r2.degenerate:
        degenerate_warning(zeros2)
    ui.notice(wtext.plane_notes(r2))

    # --- weighted least squares -------------------------------------------------------------------
    with ui.going_further("The same map as a least-squares fit"):
        ui.prose(
            r"""Summarise the numbers $x_i$ by one constant $c$, counting coordinate $i$ with
weight $a_i$. Setting the derivative to zero gives the weighted mean:"""
        )
        ui.latex_row(
            r"f(c)=\sum_i a_i(x_i-c)^2",
            r"f'(c)=-2\sum_i a_i(x_i-c)",
            r"f'(c)=0\iff c=a^{\mathsf T}x",
        )
        ui.prose(
            r"""What the fit leaves over, the residual $x-\hat c\,\mathbf 1$ at the minimiser
$\hat c=a^{\mathsf T}x$, is exactly $P_ax$: weighted centering is the residual map of an
intercept-only weighted least-squares fit. The fitted $\hat c$ below comes from a
least-squares solver that is not told the formula."""
        )
        fit = wt.constant_fit(r2)
        left, right = st.columns([3, 2])
        with left:
            live.draw(now, "objective")
        with right:
            st.markdown(wtext.number_table(wtext.fit_rows(fit, r2)))
        ui.notice(wtext.fit_notes(fit, r2, zeros2))

    space_and_matrix(r2)


body()
ui.page_end()
