"""Figures of the framework-parity page: output gaps, causes, running statistics, variance error."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import short
from lnviz.figures._palette import BLUE, DIVERGING, GRAY, GREEN, ORANGE, PURPLE, RED
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, r
from lnviz.lessons.frameworks import LAYOUT_AXES, channel_axis, framework_label
from lnviz.lessons.frameworks.diff import (
    Comparison,
    Diagnosis,
    RunningStats,
    VarianceError,
    pair_label,
)

_FLOOR = 1e-17  # log axes: exact agreement is drawn at this height


def delta_figure(comp: Comparison, a: str, b: str) -> go.Figure:
    """Heatmap of y_a - y_b: one row per (example, position), one column per channel."""
    d = comp.delta(a, b)  # (rows, C)
    finite = d[np.isfinite(d)]
    span = float(np.abs(finite).max()) if finite.size else 0.0
    span = span or 1e-12
    names = LAYOUT_AXES[comp.layout]
    ch = names[channel_axis(comp.layout)]
    fig = FigureSpec().add_heatmap(
        z=r(d, 4),
        zmin=-span,
        zmax=span,
        colorscale=DIVERGING,
        colorbar={"title": {"text": "Δ"}, "exponentformat": "e"},
        hovertemplate=f"row %{{y}}, {ch} %{{x}}<br>Δ = %{{z:.3e}}<extra></extra>",
    )
    rows_label = "token (b, t)" if comp.layout == "btf" else "pixel (n, h, w)"
    title = f"{pair_label(a, b, comp.backend)}, entry by entry"
    layout(fig, title=title, x=f"{ch} (channel)", y=rows_label)
    fig.update_yaxes(autorange="reversed")
    return fig.figure()


def delta_alt(comp: Comparison, a: str, b: str) -> str:
    d = comp.delta(a, b)
    bad = int(np.isnan(d).sum())
    finite = np.abs(d[np.isfinite(d)])
    peak = short(float(finite.max())) if finite.size else "undefined"
    where = ""
    if finite.size:
        i, j = np.unravel_index(int(np.nanargmax(np.abs(np.nan_to_num(d)))), d.shape)
        where = f", largest at row {i}, channel {j}"
    nan = f" {bad} entries are NaN (no number)." if bad else ""
    return (
        f"Heatmap of {pair_label(a, b, comp.backend)} for {comp.scheme} norm on a "
        f"{d.shape[0]} × {d.shape[1]} grid (rows: example and position; columns: channels). "
        f"Largest |Δ| = {peak}{where}; "
        f"median |Δ| = {short(float(np.median(finite))) if finite.size else 'undefined'}.{nan}"
    )


DELTA = Chart(delta_figure, delta_alt)


def diagnosis_figure(diag: Diagnosis) -> go.Figure:
    """max |y - y_PyTorch| for Keras and Flax as each convention is aligned in turn."""
    fig = FigureSpec()
    for step, color in zip(range(3), (RED, ORANGE, GREEN), strict=True):
        ys = [diag.of(f)[step] for f in ("keras", "flax")]
        fig.add_bar(
            x=[framework_label(f, diag.backend) for f in ("keras", "flax")],
            y=[_floor(v) for v in ys],
            name=diag.labels[step],
            marker_color=color,
            hovertemplate="%{x}: max |Δ| = %{y:.3g}<extra>" + diag.labels[step] + "</extra>",
        )
    layout(fig, title="Max |Δ| from PyTorch", x="", y="", height=400)
    shown = [_floor(v) for f in ("keras", "flax") for v in diag.of(f)]
    shown = [v for v in shown if v is not None] or [1.0]
    lo, hi = math.log10(min(shown)), math.log10(max(shown))
    fig.update_yaxes(type="log", exponentformat="power", title_text="max |Δ| (log scale)",
                     range=[lo - 0.7, hi + 0.5])  # fmt: skip
    legend_below(fig, -0.18).update_layout(barmode="group")
    return fig.figure()


def diagnosis_alt(diag: Diagnosis) -> str:
    parts = []
    for f in ("keras", "flax"):
        a, b, c = diag.of(f)
        parts.append(
            f"{framework_label(f, diag.backend)}: {short(a)} with its own defaults, "
            f"{short(b)} with PyTorch's ε, {short(c)} with PyTorch's ε and the two-pass variance"
        )
    return "Grouped bar chart on a log scale of the largest output difference from PyTorch. " + (
        "; ".join(parts) + "."
    )


DIAGNOSIS = Chart(diagnosis_figure, diagnosis_alt)


def _floor(v: float) -> float | None:
    if math.isnan(v):
        return None
    return max(v, _FLOOR)


def running_figure(stats: tuple[RunningStats, ...], channel: int) -> go.Figure:
    """Running variance of one channel against the training step, per convention."""
    fig = FigureSpec()
    colors = (BLUE, ORANGE, PURPLE, RED)
    dashes = ("solid", "solid", "dot", "dash")
    for s, color, dash in zip(stats, colors, dashes, strict=True):
        steps = np.arange(s.var.shape[0])
        fig.add_scatter(
            x=steps.tolist(),
            y=r(s.var[:, channel]),
            mode="lines",
            name=s.label,
            line={"color": color, "dash": dash, "width": 2.5},
        )
    unbiased, biased = float(stats[0].target[channel]), float(stats[1].target[channel])
    for value, text in ((biased, "batch variance (biased)"), (unbiased, "unbiased")):
        hline(fig, value, {"color": GRAY, "dash": "dot", "width": 1})
        fig.add_annotation(
            x=0, y=value, text=text, showarrow=False, xanchor="left", yanchor="bottom",
            font={"color": GRAY, "size": 11},
        )  # fmt: skip
    title = f"Running variance of channel {channel}"
    layout(fig, title=title, x="training steps", y="running variance", height=440)
    legend_below(fig, -0.2)
    return fig.figure()


def running_alt(stats: tuple[RunningStats, ...], channel: int) -> str:
    n = stats[0].var.shape[0] - 1
    target = (float(stats[1].target[channel]), float(stats[0].target[channel]))
    ends = "; ".join(f"{s.label} ends at {short(float(s.var[-1, channel]))}" for s in stats)
    return (
        f"Line chart of the running variance of channel {channel} over {n} training steps on "
        f"the same batch, starting from 1. The batch variance is {short(target[0])} (biased) and "
        f"{short(target[1])} (unbiased). {ends}."
    )


RUNNING = Chart(running_figure, running_alt)


def variance_error_figure(v: VarianceError) -> go.Figure:
    """Relative variance error against |mean| / sd, with the page's input marked."""
    fig = FigureSpec()
    for ys, name, color in (
        (v.fast32, "E[x²] − E[x]², float32 (Flax's default; Keras's moments on NumPy, torch)", RED),
        (v.twopass32, "two-pass, float32 (as accurate as PyTorch's kernels)", BLUE),
        (v.fast64, "E[x²] − E[x]², float64", GRAY),
    ):
        fig.add_scatter(x=r(v.ratio), y=r(ys), mode="lines+markers", name=name,
                        line={"color": color, "width": 2}, marker={"size": 5})  # fmt: skip
    if math.isfinite(v.input_ratio) and v.input_ratio > 0:
        fig.add_scatter(
            x=[v.input_ratio],
            y=[_floor(v.input_error)],
            mode="markers",
            name="your input (Flax's variance)",
            marker={"color": GREEN, "size": 13, "symbol": "diamond"},
        )
    layout(fig, title="Relative error of the variance", x="|mean| / sd (log scale)", y="",
           height=460)  # fmt: skip
    fig.update_xaxes(type="log", exponentformat="power")
    fig.update_yaxes(type="log", exponentformat="power", title_text="relative error (log scale)")
    legend_below(fig, -0.22)
    return fig.figure()


def variance_error_alt(v: VarianceError) -> str:
    k = int(np.searchsorted(v.ratio, 1e3))
    mark = (
        f" Your input sits at ratio {short(v.input_ratio)} with relative error "
        f"{short(v.input_error)}."
        if math.isfinite(v.input_ratio) and v.input_ratio > 0
        else " Your input has no mean to cancel (RMS norm or zero mean)."
    )
    return (
        "Log-log chart of the relative error of a variance against |mean| / sd. At ratio "
        f"{short(float(v.ratio[k]))}: E[x²] − E[x]² in float32 errs by "
        f"{short(float(v.fast32[k]))}, the two-pass float32 formula by "
        f"{short(float(v.twopass32[k]))}, and E[x²] − E[x]² in "
        f"float64 by {short(float(v.fast64[k]))}." + mark
    )


VARIANCE_ERROR = Chart(variance_error_figure, variance_error_alt)
