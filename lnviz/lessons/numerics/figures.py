"""Figures of the numerics lab: epsilon placements, error heatmap, offset sweep, clamping."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import rel_error, short
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, PURPLE, RED, SEQUENTIAL
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, r, vline
from lnviz.lessons.numerics.notes import ALGORITHM_NAMES
from lnviz.lessons.numerics.recipes import Placements
from lnviz.lessons.numerics.sweep import Clamping, Sweep

PRECISION_COLORS = {"float64": BLUE, "float32": ORANGE, "float16": GREEN, "bfloat16": PURPLE}
ALGORITHM_STYLE = {  # dash, marker
    "one-pass": ("solid", "circle"),
    "two-pass": ("dash", "square"),
    "welford": ("dot", "diamond"),
}
FLOOR = 1e-17  # smaller errors (and exact zeros) are drawn here on log axes
CEILING = 1e3  # NaN and infinite errors are drawn here


def placements_figure(p: Placements) -> go.Figure:
    """Grouped bars: each coordinate of the output under the four conventions."""
    idx = [f"x{i + 1}" for i in range(p.x.size)]
    colors = [BLUE, ORANGE, GREEN, PURPLE]
    fig = FigureSpec()
    for label, row, color in zip(p.labels, p.outputs, colors, strict=True):
        fig.add_bar(x=idx, y=r(row), name=f"÷ {label}", marker_color=color)
    layout(fig, title="One input, four conventions", x="coordinate", y="normalized value")
    fig.update_layout(barmode="group")
    return legend_below(fig).update_layout(margin={"t": 40}).figure()


def placements_alt(p: Placements) -> str:
    parts = "; ".join(
        f"÷ {lab}: first coordinate {short(float(row[0]))}"
        for lab, row in zip(p.labels, p.outputs, strict=True)
    )
    return (
        f"Grouped bar chart of the normalized x = ({', '.join(short(v) for v in p.x)}) at "
        f"ε = {short(p.eps)} under four conventions — {parts}."
    )


PLACEMENTS = Chart(placements_figure, placements_alt)


def heatmap_figure(s: Sweep, k: int = 0) -> go.Figure:
    """log10 of the output's relative error, precision (rows) x algorithm, at offset index k."""
    rel = s.rel_error[:, :, k].T  # (P, A)
    finite = np.isfinite(rel)  # (P, A)
    z = np.where(finite, np.log10(np.clip(rel, FLOOR, CEILING)), np.nan)  # (P, A)
    text = [[rel_error(float(v)) for v in row] for row in rel]
    names = [ALGORITHM_NAMES[a] for a in s.algorithms]
    hover = "%{y}, %{x}: relative error %{text}<extra></extra>"
    fig = FigureSpec().add_heatmap(
        z=r(z, 4),  # NaN: no cell, the grey trace below draws it
        x=names,
        y=list(s.precisions),
        text=text,
        texttemplate="%{text}",
        colorscale=SEQUENTIAL,
        zmin=-17,
        zmax=3,
        colorbar={"title": {"text": "log₁₀ error"}, "thickness": 12},
        hovertemplate=hover,
    )
    title = f"Output error at offset {float(s.offsets[k]):,.0f}"
    if not finite.all():  # NaN or ∞: grey cells, apart from the scale's worst colour
        # its labels on its own cells only: Plotly writes a label on an empty (NaN) cell
        # too, over the first trace's, in another colour (a doubled, blurred "6e−16")
        own = [
            [t if not f else "" for t, f in zip(row, ok, strict=True)]
            for row, ok in zip(text, finite, strict=True)
        ]
        fig.add_heatmap(
            z=np.where(finite, np.nan, 0.0),  # (P, A)
            x=names, y=list(s.precisions), text=own, texttemplate="%{text}",
            colorscale=[[0, GRAY], [1, GRAY]], showscale=False, hovertemplate=hover,
        )  # fmt: skip
        title += " (grey: no finite output)"
    layout(fig, title=title, x="", y="", height=300)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category", side="top", tickangle=0)
    fig.update_layout(margin={"t": 80})
    return fig.figure()


def heatmap_alt(s: Sweep, k: int = 0) -> str:
    rows = "; ".join(
        ALGORITHM_NAMES[a]
        + ": "
        + ", ".join(
            f"{p} {rel_error(float(s.rel_error[i, j, k]))}" for j, p in enumerate(s.precisions)
        )
        for i, a in enumerate(s.algorithms)
    )
    return (
        f"Heatmap of the relative error of the layer-norm output at mean offset "
        f"{float(s.offsets[k]):,.0f}, by precision and algorithm (darker is smaller): {rows}."
    )


HEATMAP = Chart(heatmap_figure, heatmap_alt)


def sweep_figure(s: Sweep, current: float | None = None) -> go.Figure:
    """Relative output error against the offset, log-log, per algorithm/precision; dotted: input."""
    fig = FigureSpec()
    pos = s.offsets > 0  # (K,) a log axis has no room for c = 0
    offsets = s.offsets[pos]
    errors = s.rel_error[:, :, pos]  # (A, P, K+)
    worst = float(np.max(errors[np.isfinite(errors)], initial=CEILING))
    ceiling = max(CEILING, 10.0 ** math.ceil(math.log10(worst)))  # the top row: every line below
    x = r(offsets)
    for j, prec in enumerate(s.precisions):
        color = PRECISION_COLORS[prec]
        for i, alg in enumerate(s.algorithms):
            dash, symbol = ALGORITHM_STYLE[alg]
            err = s.rel_error[i, j, pos]  # (K+,)
            shown = np.where(np.isfinite(err), np.clip(err, FLOOR, None), np.nan)
            name = f"{prec} · {ALGORITHM_NAMES[alg]}"
            fig.add_scatter(
                x=x, y=r(shown, 3), mode="lines+markers", name=name, legendgroup=prec,
                line={"color": color, "dash": dash, "width": 2}, showlegend=False,
                marker={"symbol": symbol, "size": 5, "color": color},
            )  # fmt: skip
            bad = ~np.isfinite(err)
            if bad.any():
                fig.add_scatter(
                    x=r(offsets[bad]), y=[ceiling] * int(bad.sum()), mode="markers",
                    name=name, legendgroup=prec, showlegend=False, hovertemplate=(
                        f"{name}: no finite output at offset %{{x}}<extra></extra>"),
                    marker={"symbol": "x-thin", "size": 9, "line": {"width": 2, "color": color}},
                )  # fmt: skip
        inp = s.input_error[j, pos]  # (K+,)
        floor = np.where(np.isfinite(inp), np.clip(inp, FLOOR, None), 1)
        if prec != "float64":
            fig.add_scatter(
                x=x, y=r(floor, 3), mode="lines", name=f"{prec} · input rounding alone",
                line={"color": color, "dash": "dashdot", "width": 1}, opacity=0.6,
                legendgroup=prec, showlegend=False,
            )  # fmt: skip
        first = errors[:, j, 0]  # (A,) every algorithm at the smallest offset
        level = float(np.min(first[np.isfinite(first)], initial=ceiling))
        fig.add_scatter(  # legend key: colour = format, its name written by its lines (the
            # colours alone do not tell formats apart to every eye); a click hides the format
            x=[x[0]], y=[max(level, FLOOR)], mode="lines+text", name=prec, legendgroup=prec,
            line={"color": color, "width": 3}, text=[prec], textposition="top right",
            hoverinfo="skip",
        )  # fmt: skip
    for alg in s.algorithms:  # legend key: line style = algorithm
        dash, symbol = ALGORITHM_STYLE[alg]
        fig.add_scatter(
            x=[None], y=[None], mode="lines+markers", name=ALGORITHM_NAMES[alg],
            line={"color": GRAY, "dash": dash, "width": 2},
            marker={"symbol": symbol, "color": GRAY},
        )  # fmt: skip
    fig.add_scatter(
        x=[None], y=[None], mode="lines", name="input rounding alone",
        line={"color": GRAY, "dash": "dashdot", "width": 1},
    )  # fmt: skip
    if current is not None and current > 0:
        vline(fig, current, {"color": GRAY, "dash": "dash", "width": 1})
    layout(
        fig, title="Output error as the mean moves away from 0", x="mean offset c (log scale)",
        y="relative error of the output", height=500,
    )  # fmt: skip
    fig.update_xaxes(type="log", exponentformat="power")
    fig.update_yaxes(type="log", exponentformat="power", range=[-17.5, math.log10(ceiling) + 0.5])
    return legend_below(fig).update_layout(margin={"t": 40}).figure()


def sweep_alt(s: Sweep, current: float | None = None) -> str:
    pos = s.offsets > 0
    lo, hi = short(float(s.offsets[pos][0])), short(float(s.offsets[pos][-1]))
    parts = []
    for i, alg in enumerate(s.algorithms):
        for j, prec in enumerate(s.precisions):
            err = s.rel_error[i, j, pos]
            parts.append(
                f"{prec} {ALGORITHM_NAMES[alg]}: {rel_error(float(err[0]))} at {lo}, "
                f"{rel_error(float(err[-1]))} at {hi}"
            )
    return (
        f"Log-log line chart of the relative error of the layer-norm output against the mean "
        f"offset from {lo} to {hi}, one line per precision and algorithm; crosses at the top "
        f"mark offsets with no finite output. " + "; ".join(parts) + "."
    )


SWEEP = Chart(sweep_figure, sweep_alt)


def clamping_figure(c: Clamping, limit: int = 64) -> go.Figure:
    """Each entry's output, sorted by its true value: truth, two-pass, one-pass clamped."""
    order = np.argsort(c.truth, kind="stable")
    if order.size > limit:  # evenly spaced ranks keep the picture readable
        order = order[np.linspace(0, order.size - 1, limit).round().astype(int)]
    rank = list(range(1, order.size + 1))
    fig = FigureSpec()
    fig.add_scatter(
        x=rank, y=r(c.truth[order]), mode="lines", name="float64 truth",
        line={"color": BLUE, "width": 3},
    )  # fmt: skip
    fig.add_scatter(
        x=rank, y=r(c.two_pass[order]), mode="markers", name=f"two-pass, {c.precision}",
        marker={"color": GREEN, "symbol": "square", "size": 7},
    )  # fmt: skip
    fig.add_scatter(
        x=rank, y=r(c.clamped[order]), mode="markers", name=f"one-pass clamped, {c.precision}",
        marker={"color": RED, "symbol": "x", "size": 8},
    )  # fmt: skip
    if np.isfinite(c.unclamped).any():
        fig.add_scatter(
            x=rank, y=r(c.unclamped[order]), mode="markers", name=f"one-pass, {c.precision}",
            marker={"color": ORANGE, "symbol": "circle-open", "size": 8},
        )  # fmt: skip
    else:
        fig.add_annotation(
            text="unclamped one-pass: NaN, not drawn", x=0, y=1,
            xref="paper", yref="paper", xanchor="left", yanchor="top", showarrow=False,
            font={"color": ORANGE},
        )  # fmt: skip
    layout(fig, title="Entries sorted by their true output", x="rank", y="output")
    return legend_below(fig).update_layout(margin={"t": 40}).figure()


def clamping_alt(c: Clamping) -> str:
    unclamped = (
        "is NaN for every entry (the square root of a negative number)"
        if np.isnan(c.unclamped).all()
        else f"reaches at most {short(float(np.nanmax(np.abs(c.unclamped))))} in absolute value"
    )
    clamped = (
        "is NaN for every entry as well (the format overflowed)"
        if np.isnan(c.clamped).all()
        else f"reaches {short(float(np.nanmax(np.abs(c.clamped))))}, {short(c.blowup, 3)} times "
        "the largest true value"
    )
    return (
        f"Scatter of the {c.x.size} outputs sorted by their true value, which runs from "
        f"{short(float(c.truth.min()))} to {short(float(c.truth.max()))}. In {c.precision} the "
        f"one-pass variance is {short(c.variance)} (true {short(c.true_variance)}); the unclamped "
        f"output {unclamped}; the clamped output {clamped}; two-pass follows the truth."
    )


CLAMPING = Chart(clamping_figure, clamping_alt)
