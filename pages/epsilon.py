"""Epsilon: what the constant added to the variance changes, and what it protects."""

import math

import numpy as np
import streamlit as st

import lnviz
from lnviz.app import ui
from lnviz.figures import epsilon as figs

COMPARE_EPS = (1e-3, 1e-2, 0.1, 1.0, 10.0)  # faint comparison curves
RATIO_GRID = np.logspace(-3, 3, 241)  # q / eps axis of the variance chart
SCALE_OPTIONS = (0.01, 0.03, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 30.0, 100.0)  # a

ui.page_intro(
    "ε: the small constant that changes the geometry",
    r"""Layer normalization divides the centred input by $\sqrt{q+\varepsilon}$, not by the
standard deviation $\sqrt q$. For $z\in\mathbb R^d$ with mean $\mu$, centred vector
$v=z-\mu\mathbf 1$ and population variance $q=\tfrac1d\lVert v\rVert^2$:""",
)
st.latex(r"u_\varepsilon(z)=\frac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}")
st.markdown(
    "Move ε and watch each consequence below: the core stops having variance 1, scaling "
    "the input stops being harmless, and the slope of the map is capped at ε^(−1/2)."
)

ui.presets(
    {
        "ε = 1/3 (seed)": {"eps": 1 / 3, "z": "1, 2, 3"},
        "ε = 4/3 (seed)": {"eps": 4 / 3, "z": "1, 2, 3"},
        "Tiny ε = 1e-6": {"eps": 1e-6},
        "Constant input": {"z": "2, 2, 2", "eps": 0.01},
    },
    key="eps-presets",
)
c1, c2 = st.columns([3, 2])
with c1:
    eps = ui.eps_slider(help="Log scale from 10⁻⁶ to 10; 1/3 and 4/3 are the seed's values.")
with c2:
    z = ui.vector_input(
        "z (input vector)", "1, 2, 3", key="z", min_len=2, max_len=8, lo=-1000, hi=1000
    )

core = lnviz.analyze_core(z, eps)
st.subheader("The core of your z")
m1, m2, m3, m4 = st.columns(4)
m1.metric("mean μ", ui.fmt(float(core.mu)))
m2.metric("variance q", ui.fmt(float(core.q)))
m3.metric("core variance q/(q+ε)", ui.fmt(float(core.core_var)))
m4.metric("ε", ui.eps_label(eps))
st.markdown(f"$u_\\varepsilon(z)$ = **{ui.fmt_vec(core.core, 6)}**")
ui.notice(
    [
        "With z = (1, 2, 3) (q = 2/3), ε = 1/3 gives exactly (−1, 0, 1) and ε = 4/3 gives "
        "(−1, 0, 1)/√2 ≈ (−0.7071, 0, 0.7071): the same input, a different core.",
        "The core always has mean 0, but its variance is q/(q+ε), never exactly 1.",
        "A constant z has v = 0, so its core is 0 for every ε > 0.",
    ]
)


@st.fragment
def family_section(eps: float) -> None:
    st.subheader("The family (−t, 0, t)")
    st.markdown(
        r"For $z=(-t,0,t)$ the variance is $q=2t^2/3$, so the third coordinate of the core is "
        r"$h_\varepsilon(t)=t/\sqrt{2t^2/3+\varepsilon}$ with slope "
        r"$h'_\varepsilon(t)=\varepsilon/(2t^2/3+\varepsilon)^{3/2}$."
    )
    current = lnviz.epsilon_family(eps)
    others = [lnviz.epsilon_family(e) for e in COMPARE_EPS if not np.isclose(e, eps)]
    left, right = st.columns(2)
    with left:
        ui.chart(figs.H, current, others, key="h")
    with right:
        ui.chart(figs.DH, current, others, key="dh")
    scrub_eps = tuple(ui.eps_options())
    target = max(eps, scrub_eps[0])  # the page's ε, or the smallest the scrubber has
    start = int(np.argmin([abs(math.log(e / target)) for e in scrub_eps]))
    ui.chart(figs.SCRUB, scrub_eps, start, key="scrub")
    ui.notice(
        [
            "Far from t = 0 every curve approaches ±√(3/2) ≈ ±1.2247, whatever ε is.",
            f"The slope at t = 0 is ε^(−1/2) = {ui.fmt(current.peak_slope, 3)}: smaller ε, "
            "steeper jump through a nearly constant input.",
            "Larger ε makes the transition wider and gentler.",
        ]
    )


@st.fragment
def variance_section(core: lnviz.Core) -> None:
    st.subheader("How far from variance 1?")
    ratio = lnviz.core_variance_ratio(RATIO_GRID)
    q_over_eps = float(core.q) / core.eps
    ui.chart(figs.VARIANCE, RATIO_GRID, ratio, q_over_eps, key="variance")
    ui.notice(
        [
            "At q = ε the core has variance exactly 1/2.",
            "It approaches 1 only when q is many times ε, and 0 when q is much smaller.",
            "Gain and bias act after this, so the final output can have any variance.",
        ]
    )


@st.fragment
def scaling_section(z: np.ndarray, eps: float) -> None:
    st.subheader("Scaling the input")
    st.markdown(
        r"Multiplying $z$ by $a>0$ gives $u_\varepsilon(az)=\dfrac{av}{\sqrt{a^2q+\varepsilon}}"
        r"=u_{\varepsilon/a^2}(z)$: scaling the input is the same as dividing ε by $a^2$."
    )
    a = ui.choice_slider(
        "a (scale factor)", SCALE_OPTIONS, key="a", default=10.0, fmt=lambda v: f"{v:g}"
    )
    s = lnviz.scaling_identity(z, eps, a)
    exact = lnviz.scaling_identity(z, 0.0, a) if float(np.ptp(z)) > 0 else None
    ui.chart(figs.SCALING, s, key="scaling")
    c1, c2, c3 = st.columns(3)
    c1.metric("max |u_ε(az) − u_ε(z)|", ui.fmt(s.change, 8))
    c2.metric("max |u_ε(az) − u_(ε/a²)(z)|", ui.fmt(s.identity_error, 12))
    c3.metric("same change at ε = 0", "—" if exact is None else ui.fmt(exact.change, 12))
    ui.notice(
        [
            "For ε > 0 and a non-constant z the core changes unless a = 1.",
            "The identity u_ε(az) = u_(ε/a²)(z) holds to rounding for every a.",
            "With ε = 0 the change is zero (to rounding): exact invariance, the form in which "
            "the original argument was made.",
        ]
    )


@st.fragment
def jacobian_section(z: np.ndarray, eps: float) -> None:
    st.subheader("Sensitivity: the Jacobian and the Lipschitz bound")
    st.latex(
        r"Du_\varepsilon(z)=\frac{1}{\sqrt{q+\varepsilon}}"
        r"\Bigl(P-\frac{vv^{\mathsf T}}{d\,(q+\varepsilon)}\Bigr)"
    )
    st.caption("P = I − 𝟏𝟏ᵀ/d is the centering matrix, v = Pz the centred input.")
    spec = lnviz.jacobian_spectrum(z, eps)
    left, right = st.columns(2)
    with left:
        ui.chart(figs.JACOBIAN, spec, key="jacobian")
    with right:
        ui.chart(figs.EIGEN, spec, key="eigen")
    st.dataframe(
        {
            "direction": [d.label for d in spec.directions],
            "multiplicity": [d.basis.shape[1] for d in spec.directions],
            "formula": [d.formula_text for d in spec.directions],
            "from the formula": [d.value for d in spec.directions],
            "measured vᵀJv": [float(d.measured[0]) for d in spec.directions],
        },
        hide_index=True,
        width="stretch",
        column_config={
            "from the formula": st.column_config.NumberColumn(format="%.6f"),
            "measured vᵀJv": st.column_config.NumberColumn(format="%.6f"),
        },
    )
    c1, c2, c3 = st.columns(3)
    c1.metric("operator norm ‖Du‖₂", ui.fmt(spec.operator_norm, 6))
    c2.metric("bound ε^(−1/2)", ui.fmt(spec.core_bound, 6))
    c3.metric("bound attained?", "yes" if spec.attained else "no")
    if spec.attained:
        st.success(
            "Constant input: the Jacobian is P/√ε and its norm equals the bound ε^(−1/2).",
            icon=":material/check_circle:",
        )
    ui.notice(
        [
            "The common offset 𝟏 is always sent to 0: shifting every coordinate changes nothing.",
            "The radial direction v has the small eigenvalue ε/(q+ε)^(3/2); "
            "the directions orthogonal to 𝟏 and v get (q+ε)^(−1/2).",
            "No eigenvalue exceeds ε^(−1/2); try the 'Constant input' preset to reach it.",
        ]
    )


family_section(eps)
variance_section(core)
scaling_section(z, eps)
jacobian_section(z, eps)
