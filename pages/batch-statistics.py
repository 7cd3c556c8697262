"""Batch statistics: what batch norm's batch and running statistics do; layer norm needs neither."""

from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import streamlit as st

from lnviz.app import live, quiz, ui
from lnviz.content import text
from lnviz.lessons.batch_statistics import analysis as model
from lnviz.lessons.batch_statistics import figures as figs
from lnviz.lessons.batch_statistics import questions as exercises
from lnviz.lessons.batch_statistics.analysis import (
    FLAX_EPS,
    KERAS_EPS,
    KERAS_MOMENTUM,
    TORCH_EPS,
    TORCH_MOMENTUM,
    ConventionColumn,
    Conventions,
    StreamSettings,
)
from lnviz.lessons.batch_statistics.live import shift_steps
from lnviz.lessons.batch_statistics.running import Running, Stream
from lnviz.lessons.batch_statistics.state import PRESETS, STATE

NAMES = figs.NAMES

# Pure results cached per state (streams: 0.25-6.4 MB each, all within maxCacheDataSize).
stream_runs = ui.cached(model.stream_runs)
batch_sizes = ui.cached(max_entries=16)(model.batch_sizes)
stream_companions = ui.cached(model.stream_companions)


def stream_charts(s: StreamSettings, feat: int, at: int) -> live.Charts:
    """The stream charts the shift step moves, with the shift at `at`."""
    sr = model.stream_runs(replace(s, at=at))
    return page_charts(sr.stream, sr.runs, feat)


def page_charts(stream: Stream, runs: tuple[Running, Running], feat: int) -> live.Charts:
    """The running statistics and the gap, as the page draws them and the drag moves them."""
    charts = {f"run-{w}": (figs.STAT, (stream, runs, feat, w)) for w in ("mean", "var")}
    return charts | {"gap": (figs.GAP, (stream, runs))}


def shift_live(s: StreamSettings, feat: int) -> None:
    """Drag the shift step: the stream charts follow in the browser, the release sets it."""
    base, steps = replace(s, at=0), shift_steps(s.steps, s.at)  # base: the frames' key
    live.live_control(
        "Drag the step of the shift: the charts of this section follow",
        key="at-live",
        param="at",
        options=steps,
        value=s.at,
        charts=live.chart_frames(lambda k: stream_charts(base, feat, k), steps),
        fmt=lambda k: f"{k:g}" + (" (no shift)" if k >= s.steps else ""),
        symbol="step",
    )


def closing(columns: Sequence[ConventionColumn]) -> str:
    """How many updates close 90 % of a jump: "22 and 230 steps close 90 % of a jump"."""
    if all(c.close is not None for c in columns):
        return " and ".join(str(c.close) for c in columns) + " steps close 90 % of a jump"
    return "; ".join(
        f"{NAMES[c.convention]}: "
        + ("never closes a jump (w = 0)" if c.close is None else f"{c.close} steps close 90 %")
        for c in columns
    )


def convention_table(c: Conventions) -> dict[str, list[str]]:
    """The conventions table: one row per quantity, one column per framework."""
    table = {
        "quantity": [
            "momentum",
            "weight w of the new batch",
            "variance fed to the average",
            "steps to close 90 % of a jump (formula)",
            f"steps it took after the shift (feature {c.feature + 1})",
            f"running ÷ true variance (steps {c.first}–{c.last})",
            "long-run ratio",
        ]
    }
    for col in c.columns:
        table[NAMES[col.convention]] = [
            text.number(col.momentum),
            text.number(col.weight_new),
            "unbiased, ÷ (B − 1)" if col.unbiased else "biased, ÷ B",
            "never" if col.close is None else str(col.close),
            "—" if col.took is None else str(col.took),
            f"{text.number(col.ratio, 4)} ± {text.number(col.band, 2)}",
            text.with_exact(col.limit, 4),
        ]
    return table


# The questions run the page's model at its state: built once per state.
questions = ui.cached(exercises.questions)

ui.page_intro(
    "Batch statistics: what batch norm borrows from the batch",
    r"""Batch normalization standardizes each **feature** with statistics pooled over the
**examples** of the mini-batch: one example's output depends on the others. For evaluation it
keeps **running statistics**, r ← (1 − w)·r + w·b after each batch b.""",
)
with st.expander(
    "The formulas: batch statistics in training, running statistics at evaluation, and what "
    "each framework calls momentum",
    icon=":material/functions:",
):
    ui.prose(
        "For a batch of $B$ examples and feature $f$, in training:",
        ui.display(r"\mu_f=\frac1B\sum_{i=1}^{B}x_{if}"),
        ui.display(r"\sigma_f^2=\frac1B\sum_{i=1}^{B}(x_{if}-\mu_f)^2"),
        ui.display(r"\hat x_{if}=\frac{x_{if}-\mu_f}{\sqrt{\sigma_f^2+\varepsilon}}"),
        r"""At evaluation there may be no batch at all, so training also keeps running
statistics $\bar\mu_f,\bar\sigma^2_f$, averages of the batches' values, and evaluation uses them
instead. With $r$ a running value, $b$ the new batch's value and $w$ the weight of the new
batch, each step updates""",
        ui.display(r"r\leftarrow(1-w)\,r+w\,b"),
        f"""The frameworks all call their parameter *momentum* but mean different things by it:
PyTorch's momentum is $w$ ({text.number(TORCH_MOMENTUM)} by default), Keras's and Flax's is
$1-w$ ({text.number(KERAS_MOMENTUM)} by default). PyTorch feeds the running variance the
**unbiased** batch variance (divisor $B-1$), Keras 3 and Flax the **biased** one (divisor $B$).
Layer normalization takes $\\mu_i,\\sigma_i^2$ over the $F$ features of example $i$ alone: the
same formula at training and evaluation, no running state, no dependence on the batch.""",
        f"""All three normalize a training batch with the biased variance. Their default ε
differ: {text.eps_label(TORCH_EPS)} in PyTorch, {text.eps_label(KERAS_EPS)} in Keras,
{text.eps_label(FLAX_EPS)} in Flax. The conventions were checked against the sources of
PyTorch 2.13, Keras 3.15.1 and Flax 0.12.8; some older versions differed: multi-backend
Keras 2 and tf.keras's fused kernel fed a B/(B − 1)-corrected variance.""",
    )

ui.presets(PRESETS, key="bs-presets")


def running_section(
    stream: Stream, runs: tuple[Running, Running], feat: int, s: StreamSettings
) -> None:
    st.header("Running statistics over the stream")
    now = page_charts(stream, runs, feat)
    for col, which in zip(st.columns(2), ("mean", "var"), strict=True):
        with col:
            live.draw(now, f"run-{which}")
    shift_live(s, feat)  # under the charts it moves, as a scrubber
    conv = model.conventions(stream, runs, feat)
    torch, keras = conv.columns  # (their long-run variances: conventions_part)
    equal = abs(torch.weight_new - keras.weight_new) < 1e-12
    ui.notice(
        [
            (
                f"Here both momenta give w = {text.number(torch.weight_new)}, so the running "
                "means coincide: "
                if equal
                else f"Here w = {text.number(torch.weight_new)} (PyTorch) and "
                f"{text.number(keras.weight_new)} (Keras): "
            )
            + closing(conv.columns[:1] if equal else conv.columns)
            + ", as (1 − w)ⁿ of it is left after n steps.",
            "The running averages smooth the batch values (grey) around the truth and pay for "
            "it with lag.",
        ]
    )
    with ui.going_further(
        "The conventions in numbers, noisy small batches, training against evaluation",
        *("b", "at", "shift", "spread"),  # a link about B or the shift shows what they change
    ):
        conventions_part(stream, runs, conv)
        st.markdown(
            "Small batches give noisy statistics: for B = 2 the biased batch variance "
            "averages half of the true variance and often lands far from it. (The ±1 of a "
            "batch of two needs a batch with no spatial axis, as here: a convolution's channel "
            "pools B × H × W values, so two images still give many values per mean.)"
        )
        spread = batch_sizes(s.features, s.seed, TORCH_EPS).spread  # ε plays no part in it
        ui.chart(figs.SPREAD, spread, key="spread-box")
        gap_part(stream, runs, now)


def conventions_part(stream: Stream, runs: tuple[Running, Running], conv: Conventions) -> None:
    """The conventions table, and where each running variance settles."""
    steps, b, f = stream.x.shape
    st.caption(
        f"{steps} mini-batches of B = {b} examples with {f} features. PyTorch uses "
        f"ε = {text.eps_label(TORCH_EPS)}, Keras ε = {text.eps_label(KERAS_EPS)} (their "
        "defaults); γ = 1, β = 0. Both running averages start at mean 0, variance 1."
    )
    ui.table(convention_table(conv))
    late = [NAMES[c.convention] for c in conv.columns if not c.settled]
    st.caption(
        (
            f"Not settled on its long-run value yet: {' and '.join(late)}."
            if late
            else "Both running variances have settled on their long-run values."
        )
        + " The variance ratio: the running variance over the true one, averaged over the "
        "last quarter of the steps before the shift; ± two standard deviations of that ratio "
        "over those steps."
    )
    limit = text.with_exact(conv.columns[1].limit, 4)
    ui.notice(
        [
            "Keras feeds the biased batch variance (÷ B): its running variance settles at "
            f"(B − 1)/B = {limit} of the true one. PyTorch feeds the unbiased one (÷ (B − 1)) "
            "and settles on the true variance. "
            + (
                "The measured ratios show it."
                if conv.limits_differ
                else "Here the measured ratios do not show it beyond their noise (the ± in "
                "the table): "
                + (
                    "the gap 1/B is small at this B."
                    if all(c.settled for c in conv.columns)
                    else "not every average has settled yet."
                )
            ),
        ]
    )


def gap_part(stream: Stream, runs: tuple[Running, Running], now: live.Charts) -> None:
    st.markdown(
        "**Training mode vs evaluation mode.** Each batch is normalized twice: with its own "
        "statistics (training) and with the running statistics as they stand after that "
        "step's update (evaluation). Layer norm would give the same output both ways, so its "
        "gap is 0 at every step."
    )
    live.draw(now, "gap")
    gap = model.gaps(stream, runs)
    row = ui.row()
    for g in gap:
        name = NAMES[g.convention]
        before = "no steps" if g.median_before is None else text.number(g.median_before, 4)
        after = "no shift" if g.max_after is None else text.number(g.max_after, 4)
        when = " before the shift" if g.max_after is not None else ""
        row.metric(f"{name}: median gap{when}", before)
        row.metric(f"{name}: largest gap after it", after)
    has_shift, has_before = gap[0].max_after is not None, gap[0].median_before is not None
    shown = [g for g in gap if g.shift_shows]
    slow = min(gap, key=lambda g: g.weight_new)
    items = []
    if has_before:
        items.append(
            ("Before the shift the gap" if has_shift else "Without a shift the gap")
            + " is batch noise: one batch's mean and variance are not the population's. It "
            "shrinks as B grows."
        )
    if has_shift and not has_before:
        items.append(
            "The shift comes at step 0, so there is no earlier gap to compare with: the "
            "running statistics catch up from their start (mean 0, variance 1)."
        )
    elif has_shift and not shown:
        items.append(
            "This shift does not lift the gap above the batch noise of the steps before it."
        )
    elif has_shift:
        items.append(
            "Right after the shift the running statistics still describe the old data, so "
            "evaluation outputs are off by up to "
            + " and ".join(f"{text.number(g.max_after, 2)} ({NAMES[g.convention]})" for g in shown)
            + ", more than the batch noise before it, until the average catches up."
        )
        if len(shown) == 2 and gap[0].weight_new != gap[1].weight_new:
            items.append(
                f"The slower average ({NAMES[slow.convention]}'s, w = "
                f"{text.number(slow.weight_new)}) keeps the gap longest: "
                + (
                    "it never moves."
                    if slow.close is None
                    else f"{slow.close} steps to close 90 % of a jump."
                )
            )
    ui.notice(items)


@st.fragment
def size_section(f: int, seed: int, feat: int) -> None:
    st.header("Batch size: one, two, many")
    intro = st.container()  # written once the batches are computed
    left, right = st.columns(2)
    with right:  # ε right above the batch-size chart it acts on (and the table beside it)
        eps = ui.control(STATE["eps"])
        z = batch_sizes(f, seed, eps)
        ui.chart(figs.SIZE, z.sizes, feat, key="size")
    with left:
        table = {"row": list(z.pair.rows)}
        table |= {
            f"f{j + 1}": [text.number(v) for v in col] for j, col in enumerate(z.pair.features)
        }
        ui.table(table)
        ui.notice(
            [
                "Layer norm gives example 1 the same output in a batch of 1, 2 or 64 (the chart): "
                "its statistics never leave the example. Batch norm's nears the value with the "
                "true mean and variance (dashed) as B grows."
            ]
        )
    ones = z.pair.largest_off_one < 0.01
    intro.markdown(
        "**B = 1** is refused: the only example is its own mean. **B = 2**: a feature's two "
        "values μ ± d have variance d² and become ±d/√(d² + ε): in the table's B = 2 rows "
        + (
            "every batch-norm value is ±1 (off by at most "
            f"{text.short(z.pair.largest_off_one, 2)}, from ε)"
            if ones
            else f"ε = {text.eps_label(eps)} pulls the batch-norm values from ±1 toward 0"
        )
        + ", saying only which example is larger."
    )


@st.fragment
def companion_section(s: StreamSettings) -> None:
    with ui.going_further("Same example, new companions", "sets"):
        with st.columns([1, 2])[0]:
            sets = ui.control(STATE["sets"])
        cs = stream_companions(s, sets)
        comp = cs.comp
        st.markdown(
            f"Example 1 of step 0 replaces the first row of the batch at steps "
            f"{', '.join(map(str, comp.steps))}; the other {s.batch - 1} rows are its "
            f"companions. Both norms use PyTorch's ε = {text.eps_label(TORCH_EPS)}."
        )
        left, right = st.columns(2)
        for col, which in ((left, "bn"), (right, "ln")):
            with col:
                ui.chart(figs.COMPANION, comp, which, key=f"comp-{which}")
        row = ui.row()
        row.metric("batch norm: largest spread", text.number(cs.bn_spread))
        row.metric("layer norm: largest spread", text.number(cs.ln_spread))
        ui.notice(
            [
                "The input is the same in every batch; only the companions change, and batch "
                "norm's output moves with them"
                + (", most after the shift." if cs.most_after_shift else "."),
                "Layer norm's lines lie on top of each other: its spread is 0 (up to rounding in "
                "the last bit).",
                "So padding, masking or regrouping a batch can change batch-norm outputs in "
                "training, never the outputs of a layer norm taken over each example's (or each "
                "token's) own features.",
            ]
        )


@ui.page_body
def body() -> None:
    quiz_box = st.container()  # the questions first, the controls right above their charts
    with ui.page_controls(sticky=False):  # (too tall to stay on screen)
        steps, b, f, seed = ui.int_row(*(STATE[k] for k in ("steps", "b", "f", "seed")))
        c5, c6, c7 = st.expander(
            "The distribution shift", icon=":material/moving:",
            expanded=ui.in_link("at", "shift", "spread"),
        ).columns(3)  # fmt: skip
        with c5:
            at = ui.control(
                replace(STATE["at"], hi=steps),
                default=min(100, steps),
                help=f"The first step drawn from the shifted distribution; {steps} means no shift.",
            )
        with c6:
            shift = ui.control(STATE["shift"])
        with c7:
            spread = ui.control(STATE["spread"])
        mt, mk, feat = ui.side_by_side(
            *(
                partial(ui.control, k)
                for k in (STATE["mt"], STATE["mk"], replace(STATE["feat"], hi=f))
            )
        )
        feat -= 1  # the box counts features from 1
    with quiz_box:
        quiz.ask(questions(b, mk, f, seed), page="batch-statistics")
    settings = StreamSettings(steps, b, f, seed, at, shift, spread, mt, mk)
    sr = stream_runs(settings)
    stream, runs = sr.stream, sr.runs
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
    else:
        running_section(stream, runs, feat, settings)
    size_section(f, seed, feat)
    if runs is not None:
        companion_section(settings)


body()
ui.page_end()
