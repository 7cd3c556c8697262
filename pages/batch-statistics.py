"""Batch statistics: what batch norm's batch and running statistics do, and why layer norm
needs neither."""

import streamlit as st

from lnviz.app import ui
from lnviz.figures import batchstats as figs
from lnviz.lessons.batchmates import batch_size_effect, companions, estimator_spread
from lnviz.lessons.batchstats import (
    MAX_BATCH,
    MAX_FEATURES,
    MAX_STEPS,
    Running,
    Stream,
    catch_up,
    gap_summary,
    keras_running,
    pytorch_running,
    sample_stream,
    steps_to_close,
    variance_ratio,
)

TORCH_M = (0.0, 0.001, 0.01, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.9, 1.0)  # PyTorch momentum
KERAS_M = (0.0, 0.1, 0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 0.995, 0.999, 1.0)  # Keras momentum
SHIFTS = tuple(k / 2 for k in range(-10, 11))  # mean shift, -5 to 5 standard deviations
SPREADS = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)  # factor on the standard deviation after the shift
SIZES = (2, 3, 4, 8, 16, 32, 64)  # batch sizes of the estimator chart
TORCH_EPS, KERAS_EPS = 1e-5, 1e-3  # each framework's default epsilon


@st.cache_data(max_entries=8, show_spinner=False)
def stream_runs(
    steps: int,
    b: int,
    f: int,
    seed: int,
    at: int,
    shift: float,
    spread: float,
    mt: float,
    mk: float,
) -> tuple[Stream, tuple[Running, Running] | None]:
    """The seeded stream and both conventions' running statistics (None for a batch of 1)."""
    stream = sample_stream(steps, b, f, seed=seed, shift_step=at, shift=shift, spread=spread)
    if b < 2:
        return stream, None
    return stream, (
        pytorch_running(stream.x, mt, TORCH_EPS),
        keras_running(stream.x, mk, KERAS_EPS),
    )


ui.page_intro(
    "Batch statistics: what batch norm borrows from the batch",
    r"""Batch normalization standardizes each **feature** with statistics pooled over the
**examples** of the current mini-batch, so one example's output depends on the others. For a
batch of $B$ examples and feature $f$, in training:""",
)
st.latex(r"\mu_f=\frac1B\sum_{i=1}^{B}x_{if}")
st.latex(r"\sigma_f^2=\frac1B\sum_{i=1}^{B}(x_{if}-\mu_f)^2")
st.latex(r"\hat x_{if}=\frac{x_{if}-\mu_f}{\sqrt{\sigma_f^2+\varepsilon}}")
st.markdown(
    r"""At evaluation there may be no batch at all, so training also keeps **running averages**
$\bar\mu_f,\bar\sigma^2_f$ of those statistics, and evaluation uses them instead. With $r$ a
running value and $b$ the new batch's value, the two big frameworks write the update
differently:"""
)
st.latex(r"\text{PyTorch:}\quad r\leftarrow(1-m)\,r+m\,b")
st.latex(r"\text{Keras:}\quad r\leftarrow m\,r+(1-m)\,b")
st.markdown(
    r"""with $m=0.1$ by default in PyTorch and $m=0.99$ in Keras. PyTorch feeds the
**unbiased** batch variance (divisor $B-1$), Keras 3 the **biased** one (divisor $B$); both
normalize a training batch with the biased one. Layer normalization takes $\mu_i,\sigma_i^2$
over the $F$ features of example $i$ alone: the same formula at training and evaluation, no
running state, and no dependence on the rest of the batch."""
)

BASE = {"steps": 200, "b": 8, "f": 3, "seed": 0, "at": 100, "shift": 3.0, "spread": 2.0}
BASE |= {"mt": 0.1, "mk": 0.99, "feat": 1}
ui.presets(
    {
        "PyTorch vs Keras m": BASE | {"at": 200, "shift": 0.0, "spread": 1.0},
        "A distribution shift": BASE | {"b": 16, "at": 80},
        "Batch of two": BASE | {"b": 2, "steps": 300, "at": 300, "shift": 0.0, "mk": 0.9},
        "New batch companions": BASE | {"b": 4, "steps": 100, "at": 50, "sets": 6},
    },
    key="bs-presets",
)

with st.container(border=True):
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        steps = ui.int_input("steps", 10, MAX_STEPS, 200, key="steps")
    with c2:
        b = ui.int_input("batch size B", 1, MAX_BATCH, 8, key="b")
    with c3:
        f = ui.int_input("features F", 2, MAX_FEATURES, 3, key="f")
    with c4:
        seed = ui.int_input("random seed", 0, 9999, 0, key="seed")
    c5, c6, c7 = st.columns(3)
    with c5:
        at = ui.int_input(
            "shift at step", 0, steps, min(100, steps), key="at",
            help=f"The first step drawn from the shifted distribution; {steps} means no shift.",
        )  # fmt: skip
    with c6:
        shift = ui.choice_slider(
            "mean shift (in standard deviations)", SHIFTS, key="shift", default=3.0
        )
    with c7:
        spread = ui.choice_slider(
            "spread factor after the shift", SPREADS, key="spread", default=2.0,
            help="Each feature's standard deviation is multiplied by this from the shift on.",
        )  # fmt: skip
    c8, c9, c10 = st.columns(3)
    with c8:
        mt = ui.choice_slider("PyTorch momentum m", TORCH_M, key="mt", default=0.1)
    with c9:
        mk = ui.choice_slider("Keras momentum m", KERAS_M, key="mk", default=0.99)
    with c10:
        feat = ui.int_input("feature shown", 1, f, 1, key="feat") - 1

stream, runs = stream_runs(steps, b, f, seed, at, shift, spread, mt, mk)
if runs is None:
    st.error(
        "Batch norm cannot train on a batch of **one** example. Each feature's batch mean is "
        "then the example's own value, so x − μ = 0 and the batch variance is 0: every output "
        "would be 0 whatever the input, and the unbiased variance PyTorch feeds to its running "
        "average would divide by B − 1 = 0. PyTorch raises *Expected more than 1 value per "
        "channel when training*; lnviz refuses it too. Choose B ≥ 2 for the stream charts; "
        "the batch-size section below still works.",
        icon=":material/block:",
    )


def running_section(stream: Stream, runs: tuple[Running, Running], feat: int) -> None:
    st.subheader("Running statistics over the stream")
    steps, b, f = stream.x.shape
    st.caption(
        f"{steps} mini-batches of B = {b} examples with {f} features. PyTorch uses ε = 1e-05, "
        "Keras ε = 0.001 (their defaults); γ = 1, β = 0. Both running averages start at mean "
        "0, variance 1."
    )
    left, right = st.columns(2)
    for col, which in ((left, "mean"), (right, "var")):
        with col:
            ui.chart(figs.STAT, stream, runs, feat, which, key=f"run-{which}")
    rows: dict[str, list[str]] = {"quantity": [], "PyTorch": [], "Keras": []}
    labels = [
        "momentum m",
        "weight of the new batch",
        "variance fed to the average",
        "steps to close 90 % of a jump (formula)",
        f"steps it took after the shift (feature {feat + 1})",
        "running ÷ true variance (steps {lo}–{hi})",
        "long-run ratio",
    ]
    for run in runs:
        close = steps_to_close(run.weight_new)
        took = catch_up(run, stream, feat)
        ratio, limit, lo, hi = variance_ratio(run, stream, feat)
        name = figs.NAMES[run.convention]
        rows[name] = [
            f"{run.momentum:g}",
            ui.fmt(run.weight_new, 6),
            "unbiased, ÷ (B − 1)" if run.unbiased else "biased, ÷ B",
            "never" if close is None else str(close),
            "—" if took is None else str(took),
            ui.fmt(ratio, 4),
            ui.fmt(limit, 4) + ("" if run.unbiased else f" = {b - 1}/{b}"),
        ]
    rows["quantity"] = [label.format(lo=lo, hi=hi) for label in labels]
    st.dataframe(rows, hide_index=True, width="stretch")
    st.caption(
        "The variance ratio is averaged over the last quarter of the steps before the shift; "
        "far from its long-run value, the average has not settled yet (Keras's m = 0.99 needs "
        "hundreds of steps). Keras convention checked against Keras 3's source "
        "(BatchNormalization.call and ops.moments); some older versions differed: "
        "multi-backend Keras 2 and tf.keras's fused kernel fed a B/(B − 1)-corrected variance."
    )
    ui.notice(
        [
            "PyTorch's m = 0.1 and Keras's m = 0.99 are not the same knob: PyTorch's m weights "
            "the new batch, Keras's weights the old average. Keras's m = 0.9 matches "
            "PyTorch's m = 0.1: the running means then coincide and only the variances differ.",
            "After a jump, a fraction (1 − w)ⁿ of it is still missing n updates later (w the "
            "weight of the new batch): about 22 steps to close 90 % at w = 0.1, 230 at w = 0.01.",
            "Feeding the biased variance makes Keras's running variance settle at (B − 1)/B of "
            "the true one: half of it for B = 2. PyTorch's settles on the true variance.",
            "The batch values (grey) scatter around the truth; the running averages smooth "
            "them and pay for it with lag.",
        ]
    )


def gap_section(stream: Stream, runs: tuple[Running, Running]) -> None:
    st.subheader("Training mode vs evaluation mode")
    st.markdown(
        "Each batch is normalized twice: with its own statistics (training) and with the "
        "running statistics as they stand after that step's update (evaluation). Layer norm "
        "would give the same output both ways, so its gap is 0 at every step."
    )
    ui.chart(figs.GAP, stream, runs, key="gap")
    cols = st.columns(4)
    for i, run in enumerate(runs):
        before, after = gap_summary(run, stream)
        name = figs.NAMES[run.convention]
        cols[2 * i].metric(f"{name}: median gap before the shift", ui.fmt(before, 4))
        cols[2 * i + 1].metric(
            f"{name}: largest gap after it", "no shift" if after is None else ui.fmt(after, 4)
        )
    ui.notice(
        [
            "Before the shift the gap is batch noise: one batch's mean and variance are not "
            "the population's. It shrinks as B grows.",
            "Right after the shift the running statistics still describe the old data, so "
            "evaluation outputs are off by several units until the average catches up.",
            "The slower average (Keras's m = 0.99) keeps a large gap for hundreds of steps.",
        ]
    )


@st.fragment
def size_section(f: int, seed: int, feat: int) -> None:
    st.subheader("Batch size: one, two, many")
    eps = ui.eps_slider(default=1e-5, help="ε of this section's batch norm and layer norm.")
    pool_stream = sample_stream(1, MAX_BATCH, f, seed=seed)  # same feature distribution
    bs = batch_size_effect(pool_stream.x[0], eps, pool_stream.mean[0], pool_stream.var[0])
    st.markdown(
        f"**B = 1** is refused (*{bs.refused}*): the only example is its own mean. "
        "**B = 2**: for each feature the two values sit at μ ± d, the variance is d², so each "
        "normalized value is ±d/√(d² + ε), that is ±1 up to ε, for every feature, whatever the "
        "inputs. That needs a batch with no spatial axis, as here; a convolution's channel "
        "pools B × H × W values. Two examples of the stream's distribution:"
    )
    table = {"row": ["input 1", "input 2", "batch norm 1", "batch norm 2", "layer norm 1"]}
    table["row"].append("layer norm 2")
    for j in range(f):
        column = [*bs.pool[:2, j], *bs.pair[:, j], *bs.pair_ln[:, j]]
        table[f"f{j + 1}"] = [ui.fmt(float(v), 6) for v in column]
    st.dataframe(table, hide_index=True, width="stretch")
    left, right = st.columns(2)
    with left:
        ui.chart(figs.SIZE, bs, feat, key="size")
    with right:
        sp = estimator_spread(SIZES, 200, seed)
        ui.chart(figs.SPREAD, sp, key="spread-box")
    ui.notice(
        [
            "In the B = 2 rows every batch-norm value is ±1 (to within ε): the outputs only "
            "say which of the two examples is larger, feature by feature.",
            "Layer norm gives example 1 the same output in a batch of 1, 2 or 64: its "
            "statistics never leave the example.",
            "Small batches give noisy statistics: for B = 2 the biased batch variance averages "
            "half of the true variance and often lands far from it.",
            "As B grows, batch norm's output approaches the value computed with the true mean "
            "and variance (dashed).",
        ]
    )


@st.fragment
def companion_section(stream: Stream) -> None:
    st.subheader("Same example, new companions")
    with st.columns([1, 2])[0]:
        sets = ui.int_input("batches (companion sets)", 2, 8, 5, key="sets")
    comp = companions(stream, sets, TORCH_EPS)
    st.markdown(
        f"Example 1 of step 0 replaces the first row of the batch at steps "
        f"{', '.join(map(str, comp.steps))}; the other {stream.x.shape[1] - 1} rows are its "
        "companions."
    )
    left, right = st.columns(2)
    for col, which in ((left, "bn"), (right, "ln")):
        with col:
            ui.chart(figs.COMPANION, comp, which, key=f"comp-{which}")
    c1, c2 = st.columns(2)
    c1.metric("batch norm: largest spread", ui.fmt(float(comp.bn_range.max()), 6))
    c2.metric("layer norm: largest spread", ui.fmt(float(comp.ln_range.max()), 6))
    ui.notice(
        [
            "The input is the same in every batch; only the companions change, and batch "
            "norm's output moves with them, most after the shift.",
            "Layer norm's lines lie on top of each other: its spread is 0 (up to rounding in "
            "the last bit).",
            "This is why padding, masking or regrouping a batch can change batch-norm outputs "
            "in training, and never layer-norm outputs.",
        ]
    )


if runs is not None:
    running_section(stream, runs, feat)
    gap_section(stream, runs)
size_section(f, seed, feat)
if runs is not None:
    companion_section(stream)
