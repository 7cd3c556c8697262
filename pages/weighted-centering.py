"""Weighted centering: subtracting a weighted mean is a slanted projection along 𝟏."""

import math

import numpy as np
import streamlit as st

from lnviz import weighted as wt
from lnviz.app import ui
from lnviz.errors import LnvizError
from lnviz.figures import weighted as figs

A3_DEFAULT, X3_DEFAULT = "1, 2, 5", "3, 1, 2"  # n = 3 start: a = (1, 2, 5)/8
A3_FALLBACK = (1.0, 2.0, 5.0)  # A3_DEFAULT as numbers, used when typed weights are refused
DOT_FORM = r"$\langle\cdot,\cdot\rangle_D$"  # the D-form, inline LaTeX for markdown text
D_FORM = r"$\langle u,v\rangle_D=\sum_i a_iu_iv_i$"
MATRIX_OPTIONS = ("2", "3")  # which section's weights the matrix section uses


def latex_row(*formulas: str) -> None:
    """Formulas side by side on a wide screen, one under the other on a phone."""
    for col, formula in zip(st.columns(len(formulas)), formulas, strict=True):
        col.latex(formula)


ui.page_intro(
    "Weighted centering: a projection that leans",
    r"""Ordinary centering removes the plain average from every coordinate. Weighted
centering removes a *weighted* average instead: pick weights $a_i\ge 0$ that add up to 1
and subtract the single number $a^{\mathsf T}x$ from each coordinate of $x$.""",
)
latex_row(
    r"P_a=I-\mathbf 1a^{\mathsf T}",
    r"P_ax=x-(a^{\mathsf T}x)\,\mathbf 1",
    r"a^{\mathsf T}(P_ax)=0",
)
st.markdown(
    r"""The output always has weighted mean 0, yet its plain average is usually not 0.
In pictures, $P_a$ drops $x$ onto the hyperplane $\ker a^{\mathsf T}=\{y: a^{\mathsf T}y=0\}$,
but it travels there along the all-ones direction $\mathbf 1$, not along the shortest
path. Unless the weights are equal, that is a slanted (oblique) projection. Below: the
picture for two and three coordinates, the same map read as a least-squares fit, and the
matrix identities measured on your weights."""
)

ui.presets(
    {
        "Worked example: a = (¼, ¾), x = (4, 2)": {"w": 0.25, "x": "4, 2", "m": "2"},
        "Equal weights: the usual centering": {"w": 0.5, "a3": "1, 1, 1"},
        "A zero weight: degenerate D": {"w": 0.0, "a3": "0, 1, 1"},
    },
    key="wc-presets",
)


def zero_names(zero_weights: tuple[int, ...]) -> str:
    """'a₁, a₃' for 1-based positions (1, 3)."""
    return ", ".join(f"a{chr(0x2080 + i)}" for i in zero_weights)


def degenerate_warning(zero_weights: tuple[int, ...], *, brief: bool = False) -> None:
    """What a zero weight breaks, and what it leaves intact (brief: a one-line reminder)."""
    where = zero_names(zero_weights)
    sub = chr(0x2080 + zero_weights[0])  # subscript digit of the first zero weight
    if brief:
        text = (
            f"A zero weight ({where} = 0): {DOT_FORM} is only semi-definite here; the "
            "two-coordinate section above says what that breaks."
        )
    else:
        text = (
            f"**A zero weight ({where} = 0).** The form {D_FORM} then skips that coordinate, so "
            f"the nonzero vector e{sub} gets D-length 0: the form is only semi-definite, not an "
            "inner product. **What breaks:** D-lengths and D-angles can be 0 or undefined for "
            f"vectors that are not 0; e{sub} lies in ker aᵀ and is D-orthogonal to everything, so "
            "being D-orthogonal to the subspace no longer singles out the step along 𝟏 (many "
            f"projections pass that test); and the fit ignores x{sub} completely. "
            "**What survives:** the algebra: Pₐ² = Pₐ, Pₐ𝟏 = 0 and D Pₐ = Pₐᵀ D = D − a aᵀ "
            "(see the matrix checks)."
        )
    st.warning(text, icon=":material/warning:")


def angle_table(result: wt.WeightedCentering, orth: wt.Orthogonality) -> None:
    """The angle between the step c𝟏 and the result Pₐx, in both geometries."""
    st.markdown(
        f"| between Pₐx and the step c𝟏 | in {DOT_FORM} | Euclidean |\n|---|---|---|\n"
        f"| angle | **{angle_text(result.angle_d)}** | **{angle_text(result.angle_euclidean)}** |\n"
        f"| inner product | **{ui.fmt(orth.d_inner)}** | **{ui.fmt(orth.euclidean_inner)}** |"
    )
    if math.isnan(result.angle_d):
        if orth.euclidean_length == 0:
            st.info("x is constant, so Pₐx = 0: there is no angle to measure.")
        elif result.c == 0:
            st.info("x already has weighted mean 0: Pₐx = x, no step, so no angle.")
        else:
            st.info(
                f"Pₐx = {ui.fmt_vec(result.centered)} is not zero, yet its D-length is "
                f"{ui.fmt(orth.d_length)}: with a zero weight the D-angle is undefined."
            )


def number_table(rows: list[tuple[str, str]]) -> None:
    """Label-value pairs as a two-column markdown table (vectors do not fit in metrics)."""
    body = "\n".join(f"| {label} | **{value}** |" for label, value in rows)
    st.markdown("| quantity | value |\n|---|---|\n" + body)


def angle_text(degrees: float) -> str:
    return "undefined" if math.isnan(degrees) else f"{ui.fmt(degrees, 2)}°"


def centring_table(r: wt.WeightedCentering, weights_label: str) -> None:
    """The numbers of one centring: weights, weighted mean, P_a x and its two means."""
    number_table(
        [
            (weights_label, ui.fmt_vec(r.a)),
            ("aᵀx, the weighted mean of x", ui.fmt(r.c)),
            ("Pₐx = x − (aᵀx)𝟏", ui.fmt_vec(r.centered)),
            ("weighted mean of Pₐx", ui.fmt(r.weighted_mean, 12)),
            ("ordinary mean of Pₐx", ui.fmt(r.ordinary_mean)),
            ("Euclidean projection", ui.fmt_vec(r.euclidean)),
        ]
    )


def centre_or_default(a: np.ndarray, x: np.ndarray) -> wt.WeightedCentering:
    """The engine's result, or a message and the defaults if the weights are refused."""
    try:
        return wt.weighted_centering(a, x)
    except LnvizError as err:
        ui.refuse(err, f"Using the default weights `{A3_DEFAULT}`.")
        return wt.weighted_centering(A3_FALLBACK, x)


# --- n = 2 -----------------------------------------------------------------------------------
st.subheader("Two coordinates: one line, two ways to reach it")
st.markdown(
    r"""With two coordinates take $a=(w,\,1-w)$. The points with weighted mean 0 form the
line $\ker a^{\mathsf T}$ through the origin, perpendicular to $a$. $P_a$ reaches it by
sliding $x$ along the diagonal direction $\mathbf 1=(1,1)$; the Euclidean projection
meets it at a right angle instead."""
)
c1, c2 = st.columns(2)
with c1:
    w = ui.number_slider(
        "w (weight of the first coordinate)",
        0.0,
        1.0,
        0.25,
        key="w",
        step=0.01,
        help="a = (w, 1 − w). The worked example uses w = 0.25; w = 0.5 is ordinary centering.",
    )
with c2:
    x = ui.vector_input("x (a point in the plane)", "4, 2", key="x", length=2, lo=-100, hi=100)

r2 = wt.weighted_centering(wt.two_weights(w), x)
view2 = wt.projection_view(r2)
orth2 = wt.orthogonality(r2)

left, right = st.columns([3, 2])
with left:
    ui.chart(figs.PLANE, r2, view2, key="plane")
with right:
    centring_table(r2, "weights a = (w, 1 − w)")

st.markdown(
    r"""**Where is the right angle?** Put $D=\operatorname{diag}(a)$ and measure with
$\langle u,v\rangle_D=u^{\mathsf T}Dv=\sum_i a_iu_iv_i$. In that geometry the step
$x-P_ax=(a^{\mathsf T}x)\mathbf 1$ meets the line at exactly 90°, because
$\langle P_ax,\mathbf 1\rangle_D=a^{\mathsf T}P_ax=0$. With the ordinary dot product the
same two vectors are at another angle whenever the weights differ."""
)
angle_table(r2, orth2)
if r2.degenerate:
    degenerate_warning(wt.projection_checks(r2.a).zero_weights)
ui.notice(
    [
        f"Both coordinates drop by the same amount, aᵀx = {ui.fmt(r2.c)}: the dashed step is "
        "parallel to (1, 1), "
        + (
            "and with equal weights that is also the shortest path."
            if r2.symmetric
            else "so Pₐx is not the nearest point of the line."
        ),
        f"Pₐx has weighted mean 0 but ordinary mean {ui.fmt(r2.ordinary_mean)}: it lies on the "
        "solid line, and on the faint dotted line (ordinary mean 0) only if that number is 0.",
        "At w = 0.5 the two lines coincide and Pₐx equals the Euclidean projection: ordinary "
        "centering is an orthogonal projection.",
        (
            "The D-angle is undefined here (see the note above); wherever it is defined it is 90°."
            if math.isnan(r2.angle_d)
            else f"The D-angle is {angle_text(r2.angle_d)}; the Euclidean angle is "
            f"{angle_text(r2.angle_euclidean)}."
        ),
    ]
)

# --- weighted least squares -------------------------------------------------------------------
st.subheader("The same map as a least-squares fit")
st.markdown(
    r"""Summarise the numbers $x_i$ by one constant $c$, counting coordinate $i$ with
weight $a_i$. Setting the derivative to zero gives the weighted mean:"""
)
latex_row(
    r"f(c)=\sum_i a_i(x_i-c)^2",
    r"f'(c)=-2\sum_i a_i(x_i-c)",
    r"f'(c)=0\iff c=a^{\mathsf T}x",
)
st.markdown(
    r"""What the fit leaves over, the residual $x-c\mathbf 1$, is exactly $P_ax$: weighted
centering is the residual map of an intercept-only weighted least-squares fit. The fitted
$c$ below comes from a least-squares solver that is not told the formula."""
)
fit = wt.constant_fit(r2)
left, right = st.columns([3, 2])
with left:
    ui.chart(figs.OBJECTIVE, fit, key="objective")
with right:
    number_table(
        [
            ("fitted c (solver)", ui.fmt(fit.c)),
            ("aᵀx", ui.fmt(r2.c)),
            ("residual x − c𝟏", ui.fmt_vec(fit.residual)),
            ("Pₐx", ui.fmt_vec(r2.centered)),
            ("f at the minimum", ui.fmt(fit.minimum)),
            (f"f at the ordinary mean {ui.fmt(fit.ordinary_mean)}", ui.fmt(fit.at_ordinary_mean)),
        ]
    )
ui.notice(
    [
        f"The parabola bottoms out at c = aᵀx = {ui.fmt(fit.c)}, not at the ordinary mean "
        f"{ui.fmt(fit.ordinary_mean)} of x; equal weights make the two the same.",
        "The residual of the fit and Pₐx are the same vector.",
        f"The lowest value, f = {ui.fmt(fit.minimum)}, is the squared D-length of Pₐx: a "
        "weighted variance.",
        "With a zero weight, f ignores that coordinate: edit it in x and c stays put.",
    ]
)


# --- n = 3 and the matrix ---------------------------------------------------------------------
@st.fragment
def space_and_matrix(r2: wt.WeightedCentering) -> None:
    st.subheader("Three coordinates: a plane in space")
    st.markdown(
        r"""With three coordinates the points of weighted mean 0 fill a plane through the
origin. Type any three weights $\ge 0$ (they are rescaled to add up to 1) and a point; drag
the view to look along the plane's edge."""
    )
    c1, c2 = st.columns(2)
    with c1:
        a3 = ui.vector_input("a (three weights ≥ 0)", A3_DEFAULT, key="a3", length=3, lo=0, hi=1000)
    with c2:
        x3 = ui.vector_input(
            "x (a point in space)", X3_DEFAULT, key="x3", length=3, lo=-100, hi=100
        )
    r3 = centre_or_default(a3, x3)
    view3 = wt.projection_view(r3)
    left, right = st.columns([3, 2])
    with left:
        ui.chart(figs.SPACE, r3, view3, key="space")
    with right:
        centring_table(r3, "weights a (rescaled to sum 1)")
    angle_table(r3, wt.orthogonality(r3))
    if r3.degenerate:
        degenerate_warning(wt.projection_checks(r3.a).zero_weights, brief=r2.degenerate)
    ui.notice(
        [
            "Whatever x is, the step is along (1, 1, 1): Pₐ only ever subtracts one common number.",
            "Turn the view edge-on to the plane: the dashed step crosses it at a slant, the "
            "dotted Euclidean segment at a right angle.",
            "With weights 1, 1, 1 the plane is perpendicular to (1, 1, 1) and the two "
            "projections land on the same point.",
        ]
    )

    st.subheader("Pₐ as a matrix, with its properties measured")
    which = ui.choice(
        "Use the weights of the picture with n =",
        MATRIX_OPTIONS,
        key="m",
        help="2: a = (w, 1 − w) from the plane picture; 3: the weights typed above.",
    )
    checks = wt.projection_checks(r2.a if which == "2" else r3.a)
    left, right = st.columns([2, 3])
    with left:
        ui.chart(figs.MATRIX, checks, key="matrix")
    with right:
        st.dataframe(check_table(checks), hide_index=True, width="stretch")
        if checks.symmetric:
            st.success(
                "Equal weights: Pₐ = I − 𝟏𝟏ᵀ/n, the usual centering matrix, symmetric and an "
                "orthogonal projection in the ordinary sense.",
                icon=":material/check_circle:",
            )
        if checks.degenerate:
            st.warning(
                f"{zero_names(checks.zero_weights)} = 0: D = diag(a) is singular, yet the "
                "algebraic identities still hold.",
                icon=":material/warning:",
            )
    st.markdown(r"With $D=\operatorname{diag}(a)$, computed on these weights:")
    cols = st.columns(3)
    for col, name, mat in zip(
        cols,
        (r"DP_a", r"P_a^{\mathsf T}D", r"D-aa^{\mathsf T}"),
        (checks.d_p, checks.pt_d, checks.d_minus_aat),
        strict=True,
    ):
        with col:
            st.latex(f"{name}={figs.matrix_latex(mat)}")
    ui.notice(
        [
            "Every row of Pₐ adds up to 0 — that is Pₐ𝟏 = 0 — but the columns do so only "
            "for equal weights.",
            "Applying Pₐ twice changes nothing: a vector with weighted mean 0 has nothing "
            "left to subtract.",
            "Pₐᵀ = I − a𝟏ᵀ differs from Pₐ unless a is a multiple of 𝟏; still D Pₐ is "
            f"symmetric, and that is what makes Pₐ orthogonal for {DOT_FORM}.",
        ]
    )


def check_table(checks: wt.ProjectionChecks) -> dict[str, list[str]]:
    """The properties of P_a, each with the measured number and a verdict."""
    yes = {True: "yes", False: "no"}
    return {
        "property": [
            "Pₐ² = Pₐ (idempotent)",
            "Pₐ𝟏 = 0",
            "rank n − 1",
            "symmetric, Pₐ = Pₐᵀ",
            "D Pₐ = Pₐᵀ D = D − a aᵀ",
            "⟨·,·⟩_D is an inner product",
        ],
        "measured": [
            f"max |Pₐ² − Pₐ| = {ui.fmt(checks.idempotent_error, 12)}",
            f"Pₐ𝟏 = {ui.fmt_vec(checks.ones_image, 12)}",
            f"rank {checks.rank}, n = {checks.n}",
            f"max |Pₐ − Pₐᵀ| = {ui.fmt(checks.asymmetry)}",
            f"largest difference {ui.fmt(checks.d_identity_error, 12)}",
            f"zero weight: {zero_names(checks.zero_weights)}"
            if checks.degenerate
            else "all aᵢ > 0",
        ],
        "holds": [
            yes[checks.idempotent],
            yes[checks.kills_ones],
            yes[checks.rank_ok],
            yes[checks.symmetric],
            yes[checks.d_identity],
            yes[not checks.degenerate],
        ],
    }


space_and_matrix(r2)
