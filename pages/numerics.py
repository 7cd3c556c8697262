"""Numerics lab: why two layer norms of the same input give different numbers."""

import numpy as np
import streamlit as st

from lnviz.app import ui
from lnviz.figures import numerics as figs
from lnviz.lessons import numerics_recipes as rec
from lnviz.lessons import numerics_sweep as sw
from lnviz.lessons.numerics import ALGORITHMS, MAX_N, ulp
from lnviz.lessons.precision import PRECISIONS, SUMMATIONS

OFFSETS = (0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1e3, 2e3, 5e3)
OFFSETS += (*(m * 10.0**e for e in range(4, 8) for m in (1, 2, 5)), 1e8)  # 1-2-5 steps
# the swept offsets: 4 per decade plus every slider value, so the slider only reads a column
SWEEP_OFFSETS = tuple(sorted({float(c) for c in np.logspace(0, 8, 33)} | set(OFFSETS)))


def offset_label(c: float) -> str:
    """2000, 1e4, 5e7: short labels that also read well in a URL."""
    return f"{c:g}" if c < 1e4 else f"{c:.0e}".replace("e+0", "e").replace("e+", "e")


@st.cache_data(max_entries=64, show_spinner=False)
def sweep(kind: str, n: int, seed: int, offsets: tuple, eps: float, clamp: bool, summ: str):
    base = sw.sample(kind, n, seed)
    return sw.offset_sweep(base, offsets, eps, clamp=clamp, summation=summ)


@st.cache_data(max_entries=64, show_spinner=False)
def clamping(kind: str, n: int, seed: int, offset: float, prec: str, eps: float, summ: str):
    return sw.clamping(sw.sample(kind, n, seed, offset), prec, eps, summ)


@st.cache_data(max_entries=64, show_spinner=False)
def recipes(kind: str, n: int, seed: int, offset: float):
    return rec.run_recipes(sw.sample(kind, n, seed, offset))


ui.page_intro(
    "Numerics lab: why two layer norms disagree",
    """The same formula can give different numbers in two frameworks or two precisions.
Four things decide the digits: the **variance algorithm**, the **floating-point format**, the
**order of the sums**, and conventions such as **where ε sits**. Here every operation is rounded
to the chosen format, one at a time (bfloat16 is emulated: each result is computed in float32
and rounded to 8 significand bits, ties to even), and compared with a float64 two-pass truth.""",
)
st.latex(r"\text{one-pass:}\quad v=\tfrac1n\textstyle\sum_i x_i^2-\mu^2")
st.latex(r"\text{two-pass:}\quad v=\tfrac1n\textstyle\sum_i (x_i-\mu)^2")
st.latex(r"\text{Welford:}\quad m_k=m_{k-1}+\frac{x_k-m_{k-1}}{k}")
st.latex(r"M_k=M_{k-1}+(x_k-m_{k-1})(x_k-m_k)")
st.latex(r"v=M_n/n")
st.markdown(
    "The one-pass form reads the data once but subtracts two large, nearly equal numbers when "
    "the mean μ is large next to the spread: the digits that held the variance cancel."
)

ui.presets(
    {
        "noise + 2000": {"data": "noise", "n": 1000, "seed": 0, "off": 2000.0, "prec": "float32"},
        "16 values around 1e4": {"data": "grid", "off": 1e4, "prec": "float32"},
        "(1, 0, 0, 0)": {"x": "1, 0, 0, 0", "eps": 1e-6},
        "bfloat16": {"data": "noise", "n": 1000, "seed": 0, "off": 10.0, "prec": "bfloat16"},
    },
    key="num-presets",
)

with st.container(border=True):
    c1, c2 = st.columns(2)
    with c1:
        offset = ui.choice_slider(
            "mean offset c (added to every value)", OFFSETS, key="off", default=2000.0,
            fmt=offset_label, help="The sample is x = c + base; the base has mean about 0.",
        )  # fmt: skip
    with c2:
        eps = ui.eps_slider(default=1e-5, help="1e-5 is PyTorch's default, 1e-6 Flax's.")
    c1, c2, c3 = st.columns([2, 1, 1])
    with c1:
        kind = ui.choice(
            "base sample", sw.SAMPLES, key="data",
            help="noise: n standard normal values. grid: 16 values spaced 10⁻³, from +0.007 "
            "down to −0.008.",
        )  # fmt: skip
    if kind == "noise":
        with c2:
            n = ui.int_input("n (sample size)", 4, MAX_N, 1000, key="n")
        with c3:
            seed = ui.int_input("seed", 0, 9999, 0, key="seed")
    else:
        n, seed = 16, 0
    c1, c2 = st.columns(2)
    with c1:
        summation = ui.choice(
            "summation order", SUMMATIONS, key="sum",
            help="sequential: a plain loop, left to right. pairwise: a balanced tree of sums.",
        )  # fmt: skip
    with c2:
        clamp = ui.toggle("clamp negative variances at 0 (as Flax does)", key="clamp", default=True)

swept = sweep(kind, n, seed, SWEEP_OFFSETS, eps, clamp, summation)
k = swept.index(offset)


def f32(field: str, algorithm: str) -> str:
    """One float32 entry of the sweep at the chosen offset, as text."""
    value = swept.cell(field, algorithm, "float32", k)
    return figs.var_text(value) if field == "variance" else figs.err_text(value)


st.subheader("One sample, three algorithms, four formats")
st.markdown(
    f"x = {offset_label(offset)} + {'noise' if kind == 'noise' else 'grid'}: **{n} values**, "
    f"true variance **{ui.fmt(swept.cell_true(k), 8)}**. At this offset float32 "
    f"numbers are {ui.fmt(ulp(offset, 'float32'), 8)} apart and bfloat16 numbers "
    f"{ui.fmt(ulp(offset, 'bfloat16'), 8)} apart."
)
left, right = st.columns([1, 1])
with left:
    ui.chart(figs.HEATMAP, swept, k, key="heat")
with right:
    st.caption(f"Variance as each setting computes it (true: {figs.var_text(swept.cell_true(k))})")
    st.dataframe(
        {
            "format": list(PRECISIONS),
            **{
                figs.ALGORITHM_NAMES[a]: [
                    figs.var_text(swept.cell("variance", a, p, k)) for p in PRECISIONS
                ]
                for a in ALGORITHMS
            },
        },
        hide_index=True,
        width="stretch",
    )
ui.notice(
    [
        f"float32 one-pass: v = {f32('variance', 'one-pass')}, output error "
        f"{f32('rel_error', 'one-pass')}; two-pass: {f32('rel_error', 'two-pass')}; "
        f"Welford: {f32('rel_error', 'welford')}.",
        "The one-pass error grows with the offset; two-pass and Welford barely notice it.",
        "float16 stops at 65504: x² overflows for |x| above 256, and a sequential sum of "
        "large values overflows long before that. NaN means no usable output.",
        "Errors also include storing x itself: a format cannot hold digits finer than its "
        "spacing at c (the dash-dotted lines below).",
    ]
)

st.subheader("Error against the offset")
ui.chart(figs.SWEEP, swept, offset, key="sweep")
st.caption(
    "Colour: format. Line style: algorithm. Dash-dotted: the error of storing the input in "
    "that format with everything else exact — a line lying on it loses nothing to the "
    "algorithm. Crosses at the top: no finite output. Errors below 10⁻¹⁷ are drawn at 10⁻¹⁷."
)
ui.notice(
    [
        "One-pass lines rise like c²: the cancelled digits grow with the square of the mean.",
        "Two-pass and Welford follow the input-rounding floor of their format until the "
        "format cannot hold the spread at all (error about 1).",
        "Switch the summation order to pairwise: every sum gets more accurate, but the "
        "one-pass cancellation remains.",
    ]
)


@st.fragment
def clamping_section(kind: str, n: int, seed: int, offset: float, eps: float, summ: str) -> None:
    st.subheader("One format up close: the mean, the variance, the clamp")
    prec = ui.choice("precision", PRECISIONS, key="prec", default="float32")
    c = clamping(kind, n, seed, offset, prec, eps, summ)
    m1, m2, m3 = st.columns(3)
    m1.metric(f"mean in {prec}", figs.var_text(c.mean))
    m2.metric("one-pass variance", figs.var_text(c.variance))
    m3.metric("clamped output: largest / true largest", figs.var_text(c.blowup))
    st.caption(
        f"True mean {figs.var_text(c.true_mean)}, true variance {figs.var_text(c.true_variance)}. "
        + (
            "The variance came out negative, so the clamp replaced it by 0."
            if c.negative
            else "The variance is not negative here, so the clamp changes nothing; any gap "
            "to the truth below is rounding alone."
        )
    )
    ui.chart(figs.CLAMPING, c, key="clamp-fig")
    st.latex(r"v<0\ \Rightarrow\ \max(v,0)=0\ \Rightarrow\ y=\frac{x-\mu}{\sqrt{\varepsilon}}")
    ui.notice(
        [
            "Without the clamp, a variance below −ε makes the square root NaN: the whole "
            "row is lost.",
            "With it the row survives, but the deviations are divided by √ε instead of the "
            "standard deviation: about √(v/ε) times too large.",
            "Two-pass cannot go negative: it sums squares, so this trap does not exist.",
            "In bfloat16 a running sum stops growing once each new value is below half its "
            "spacing: try the bfloat16 preset, then the pairwise order, and watch the mean.",
        ]
    )


@st.fragment
def placement_section(eps: float) -> None:
    st.subheader("Where ε sits, and which divisor")
    x = ui.vector_input(
        "x (input vector)", "1, 0, 0, 0", key="x", min_len=2, max_len=16, lo=-1e6, hi=1e6
    )
    p = rec.eps_placements(x, eps)
    st.dataframe(
        {
            "denominator": list(p.labels),
            "divisor": [d for _, d, _ in rec.PLACEMENTS],
            "s": [float(v) for v in p.scales],
            "first coordinate": [float(v) for v in p.outputs[:, 0]],
            "output": [ui.fmt_vec(row, 4) for row in p.outputs],
        },
        hide_index=True,
        width="stretch",
        column_config={
            "s": st.column_config.NumberColumn(format="%.6f"),
            "first coordinate": st.column_config.NumberColumn(format="%.6f"),
        },
    )
    ui.chart(figs.PLACEMENTS, p, key="place")
    ui.notice(
        [
            "For x = (1, 0, 0, 0): μ = 1/4, v = 3/16, so the first coordinate is "
            "(3/4)/√(3/16) = √3 ≈ 1.732; with the divisor d − 1, v′ = 1/4 and it is 1.5.",
            "PyTorch, Flax and Keras divide by √(v + ε) with the divisor d. "
            "`(x - mean) / (x.std(-1) + eps)`, found in many hand-written layer norms, uses "
            "d − 1 (torch.std's default) and ε outside.",
            "ε inside the root matters once v is near ε; outside it, once √v is near ε.",
        ]
    )


clamping_section(kind, n, seed, offset, eps, summation)
placement_section(eps)

st.subheader("What each framework computes")
runs = recipes(kind, n, seed, offset)
st.dataframe(
    {
        "framework": [r.recipe.framework for r in runs],
        "variance": [figs.ALGORITHM_NAMES[r.recipe.algorithm] for r in runs],
        "clamp at 0": ["yes" if r.recipe.clamp else "no" for r in runs],
        "default ε": [f"{r.recipe.eps:g}" for r in runs],
        "v on this sample": [figs.var_text(r.variance) for r in runs],
        "output error": [figs.err_text(r.rel_error) for r in runs],
        "max |Δ| vs PyTorch": [figs.var_text(r.gap_to_first) for r in runs],
    },
    hide_index=True,
    width="stretch",
)
st.markdown(
    "Float32 input, statistics in float32, pairwise sums. **Verified in the frameworks' "
    "source**: PyTorch's CPU kernel gets mean and variance from a Welford pass with cascaded "
    "(tree) merges, accumulating float16 and bfloat16 inputs in float32. Flax linen's "
    "`LayerNorm` defaults to `use_fast_variance=True`: E[x²] − E[x]², reduced in at least "
    "float32, then clamped at 0. Keras 3's `ops.moments` (NumPy and torch backends) is "
    "E[x²] − E[x]² without a clamp; older Keras 3 `LayerNormalization` always used it, newer "
    "releases hand the torch backend (contiguous axes) to `torch.nn.functional.layer_norm`. "
    "**Not verified, so not shown**: GPU kernels, Keras's JAX and TensorFlow backends, XLA's "
    "summation order. The emulations reproduce the formulas, not the last digits."
)
with st.expander("Source files read for each row", icon=":material/fact_check:"):
    st.markdown("\n".join(f"- **{r.framework}**: `{r.source}`" for r in rec.RECIPES))
ui.notice(
    [
        "Near c = 0 all four agree to float32 rounding; the rows differ mainly by their default ε.",
        "Move the offset up: the two one-pass recipes drift away, the Welford ones do not.",
        "Flax's clamp keeps the output finite; Keras's `moments` gives NaN once v + ε < 0.",
    ]
)
