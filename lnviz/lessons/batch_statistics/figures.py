"""Figures of the batch-statistics page: running statistics, train/eval gap, batch size."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import number, short
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, PURPLE, QUALITATIVE
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, r, vline
from lnviz.lessons.batch_statistics.batchmates import BatchSizes, Companions, Spread
from lnviz.lessons.batch_statistics.running import Running, Stream

NAMES = {"pytorch": "PyTorch", "keras": "Keras"}
COLORS = {"pytorch": BLUE, "keras": ORANGE}


def _label(run: Running) -> str:
    return f"{NAMES[run.convention]}, momentum {number(run.momentum)}"


def _mark_shift(fig: FigureSpec, stream: Stream) -> None:
    if stream.shift_step < stream.x.shape[0]:
        vline(fig, stream.shift_step - 0.5, {"dash": "dot", "color": PURPLE, "width": 1.5}, "shift")


def _shift_text(stream: Stream, which: str = "both") -> str:
    """The shift in words; which="var" omits the mean so a variance chart's alt text holds still."""
    if stream.shift_step >= stream.x.shape[0]:
        return "The distribution does not change over the stream."
    mean = f"the mean moves by {short(stream.shift)} standard deviations and "
    return (
        f"At step {stream.shift_step} {mean if which != 'var' else ''}the spread is "
        f"multiplied by {short(stream.spread)} (dotted line)."
    )


def stat_figure(stream: Stream, runs: tuple[Running, ...], feature: int, which: str) -> go.Figure:
    """Batch, true and running mean (which="mean") or variance ("var") of one feature."""
    steps = list(range(stream.x.shape[0]))  # (S,)
    batch = runs[0].batch_mean if which == "mean" else runs[0].batch_var
    true = stream.mean if which == "mean" else stream.var
    fig = FigureSpec()
    fig.add_scatter(
        x=steps,
        y=r(batch[:, feature]),
        mode="markers",
        name="each batch" + (" (biased)" if which == "var" else ""),
        marker={"color": GRAY, "size": 4},
        opacity=0.6,
    )
    fig.add_scatter(
        x=steps,
        y=r(true[:, feature]),
        mode="lines",
        name="true",
        line={"color": GREEN, "width": 2.5, "dash": "dash", "shape": "hv"},
    )
    for run in runs:
        fig.add_scatter(
            x=steps,
            y=r(run.running_mean[:, feature] if which == "mean" else run.running_var[:, feature]),
            mode="lines",
            name=_label(run),
            line={"color": COLORS[run.convention], "width": 2.5},
        )
    _mark_shift(fig, stream)
    word = "mean" if which == "mean" else "variance"
    layout(fig, title=f"Running {word} of feature {feature + 1}", x="step", y=word)
    legend_below(fig).update_layout(height=400)
    return fig.figure()


def stat_alt(stream: Stream, runs: tuple[Running, ...], feature: int, which: str) -> str:
    true = (stream.mean if which == "mean" else stream.var)[:, feature]
    parts = []
    for run in runs:
        hist = (run.running_mean if which == "mean" else run.running_var)[:, feature]
        parts.append(
            f"{_label(run)} goes from {short(float(hist[0]))} after step 0 to "
            f"{short(float(hist[-1]))} at the last step"
        )
    word = "mean" if which == "mean" else "variance"
    return (
        f"Line chart over {stream.x.shape[0]} steps of the {word} of feature {feature + 1}: "
        f"the true {word} starts at {short(float(true[0]))} and ends at {short(float(true[-1]))}; "
        + "; ".join(parts)
        + ". Grey dots are the values of each mini-batch. "
        + _shift_text(stream, which)
    )


STAT = Chart(stat_figure, stat_alt)


def gap_figure(stream: Stream, runs: tuple[Running, ...]) -> go.Figure:
    """max |y_train - y_eval| per step for each convention."""
    steps = list(range(stream.x.shape[0]))  # (S,)
    fig = FigureSpec()
    for run in runs:
        fig.add_scatter(
            x=steps,
            y=r(run.gap),
            mode="lines",
            name=NAMES[run.convention],
            line={"color": COLORS[run.convention], "width": 2},
        )
    _mark_shift(fig, stream)
    layout(fig, title="Training vs evaluation output", x="step", y="max |y_train − y_eval|")
    fig.update_yaxes(rangemode="tozero")
    return fig.figure()


def gap_alt(stream: Stream, runs: tuple[Running, ...]) -> str:
    parts = "; ".join(
        f"{NAMES[run.convention]}: median {short(float(np.median(run.gap)))}, largest "
        f"{short(float(run.gap.max()))} at step {int(run.gap.argmax())}"
        for run in runs
    )
    return (
        "Line chart of the largest difference between the training-mode and evaluation-mode "
        f"outputs of each batch, over {stream.x.shape[0]} steps. {parts}. " + _shift_text(stream)
    )


GAP = Chart(gap_figure, gap_alt)


def size_figure(bs: BatchSizes, feature: int) -> go.Figure:
    """Batch-norm and layer-norm output of example 0 against the batch size."""
    sizes = bs.sizes[1:]  # (N - 1,) size 1 is refused
    fig = FigureSpec()
    fig.add_scatter(
        x=sizes,
        y=r(bs.bn[1:, feature]),
        mode="lines+markers",
        name="batch norm (training)",
        line={"color": BLUE, "width": 2},
        marker={"size": 5},
    )
    fig.add_scatter(
        x=bs.sizes,
        y=r(bs.ln[:, feature]),
        mode="lines",
        name="layer norm",
        line={"color": ORANGE, "width": 3},
    )
    if bs.population is not None:
        fig.add_scatter(
            x=[1, int(bs.sizes[-1])],
            y=[float(bs.population[feature])] * 2,
            mode="lines",
            name="true mean and variance",
            line={"dash": "dash", "color": GREEN, "width": 1.5},
        )
    layout(
        fig,
        title=f"Example 1, feature {feature + 1}, in batches of 1 to {bs.sizes[-1]}",
        x="batch size B (at B = 1 batch norm is refused)",
        y="normalized value",
    )
    fig.update_xaxes(type="log", tickvals=[1, 2, 4, 8, 16, 32, 64])
    legend_below(fig).update_layout(height=420)
    return fig.figure()


def size_alt(bs: BatchSizes, feature: int) -> str:
    pop = "" if bs.population is None else (
        f" The value with the true statistics is {short(float(bs.population[feature]))}."
    )  # fmt: skip
    return (
        f"Line chart against the batch size (log axis) of the normalized value of example 1, "
        f"feature {feature + 1}. Batch norm is refused at B = 1, gives "
        f"{short(float(bs.bn[1, feature]))} at B = 2 and {short(float(bs.bn[-1, feature]))} at "
        f"B = {bs.sizes[-1]}; layer norm stays at {short(float(bs.ln[0, feature]))} for every "
        "size." + pop
    )


SIZE = Chart(size_figure, size_alt)


def spread_figure(sp: Spread) -> go.Figure:
    """Box plots of batch variance / true variance, biased and unbiased, by batch size."""
    fig = FigureSpec()
    for label, values, color in (
        ("divisor B (biased)", sp.biased, ORANGE),
        ("divisor B − 1 (unbiased)", sp.unbiased, BLUE),
    ):
        xs = np.repeat([str(b) for b in sp.sizes], values.shape[1])  # (K * R,)
        fig.add_box(
            x=xs.tolist(),
            y=r(values.ravel(), 4),
            name=label,
            marker_color=color,
            boxmean=True,
            boxpoints=False,
        )
    fig.add_scatter(
        x=[str(sp.sizes[0]), str(sp.sizes[-1])],
        y=[1.0, 1.0],
        mode="lines",
        name="true variance",
        line={"dash": "dash", "color": GREEN},
    )
    layout(
        fig,
        title=f"Batch variance ÷ true variance, {sp.biased.shape[1]} batches per size",
        x="batch size B",
        y="ratio",
    )
    fig.update_layout(boxmode="group")
    fig.update_xaxes(type="category")
    fig.update_yaxes(range=[0, 3.2])
    legend_below(fig).update_layout(height=420)
    return fig.figure()


def spread_alt(sp: Spread) -> str:
    rows = "; ".join(
        f"B = {b}: biased mean {short(float(lo.mean()), 3)} (expected {short(float(e), 3)}), "
        f"unbiased mean {short(float(hi.mean()), 3)}, middle half of the biased ratios from "
        f"{short(float(np.quantile(lo, 0.25)), 3)} to {short(float(np.quantile(lo, 0.75)), 3)}"
        for b, lo, hi, e in zip(sp.sizes, sp.biased, sp.unbiased, sp.expected_biased, strict=True)
    )
    return "Box plots of the batch variance divided by the true variance, by batch size: " + rows


SPREAD = Chart(spread_figure, spread_alt)


def companion_figure(comp: Companions, which: str) -> go.Figure:
    """The example's output (per feature) in each batch: batch norm or layer norm."""
    values = comp.bn if which == "bn" else comp.ln  # (R, F)
    names = [f"f{j + 1}" for j in range(values.shape[1])]
    lo = float(min(comp.bn.min(), comp.ln.min()))
    hi = float(max(comp.bn.max(), comp.ln.max()))
    pad = 0.1 * (hi - lo) + 0.1
    fig = FigureSpec()
    for i, (step, row) in enumerate(zip(comp.steps, values, strict=True)):
        fig.add_scatter(
            x=names,
            y=r(row),
            mode="lines+markers",
            name=f"step {step}",
            line={"color": QUALITATIVE[i % len(QUALITATIVE)], "width": 2},
            marker={"size": 8 if which == "bn" else 6 + 4 * (len(values) - i)},  # nested dots
        )
    title = "Batch norm (training)" if which == "bn" else "Layer norm"
    layout(fig, title=f"{title}: the same example", x="feature", y="normalized value")
    fig.update_yaxes(range=[lo - pad, hi + pad])
    fig.update_layout(legend_title_text="companions from")
    legend_below(fig).update_layout(height=420)
    return fig.figure()


def companion_alt(comp: Companions, which: str) -> str:
    values, spread = (comp.bn, comp.bn_range) if which == "bn" else (comp.ln, comp.ln_range)
    name = "batch norm (training)" if which == "bn" else "layer norm"
    return (
        f"Lines, one per batch, of the {name} output of the same example in batches whose "
        f"other members come from steps {', '.join(str(s) for s in comp.steps)}. Feature 1 "
        f"ranges from {short(float(values[:, 0].min()))} to {short(float(values[:, 0].max()))}; "
        f"the largest spread over all features is {short(float(spread.max()))}."
    )


COMPANION = Chart(companion_figure, companion_alt)
