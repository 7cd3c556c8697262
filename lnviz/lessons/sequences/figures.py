"""Figures of the sequences page: price paths, dependency maps, the leak table and scatter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from lnviz.content import text
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, PURPLE, QUALITATIVE, RED, diverging
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, r
from lnviz.lessons.sequences import HISTORY, Market
from lnviz.lessons.sequences.analysis import scheme_label
from lnviz.lessons.sequences.causality import SCHEME_INFO, SCHEMES, Dependence
from lnviz.lessons.sequences.leakage import LeakTable, correlations

SCHEME_COLORS = dict(zip(SCHEMES, (BLUE, ORANGE, GREEN, PURPLE), strict=True))
PAST_SCALE = [[0.0, "#B9D3EA"], [1.0, BLUE]]  # light to mid blue: visible on both themes
FUTURE_SCALE = [[0.0, "#F6C0C1"], [1.0, RED]]
TITLES = {"token": "Token-wise", "sequence": "Sequence", "causal": "Causal", "batch": "Batch"}
FLOOR = -8.0  # log10 of the smallest relative magnitude drawn


def prices_figure(m: Market) -> go.Figure:
    """Log price of each series (in % since token 0) against the token index."""
    fig = FigureSpec()
    tok = np.arange(m.x.shape[1])
    for b in range(m.x.shape[0]):
        level = m.log_price[b, HISTORY : HISTORY + tok.size] - m.log_price[b, HISTORY]
        fig.add_scatter(
            x=tok.tolist(),
            y=r(level, 4),
            mode="lines",
            name=f"series {b}",
            line={"color": QUALITATIVE[b % len(QUALITATIVE)], "width": 2},
        )
    layout(fig, title="Simulated log prices", x="token t", y="log price since t = 0 (%)")
    legend_below(fig, -0.22).update_layout(height=380)
    return fig.figure()


def prices_alt(m: Market) -> str:
    b, t, _ = m.x.shape
    ends = m.x[:, -1, 3]
    return (
        f"Line chart of {b} simulated log-price paths over {t} tokens, each starting at 0; "
        f"final levels from {text.short(float(ends.min()), 3)}% to "
        f"{text.short(float(ends.max()), 3)}%."
    )


PRICES = Chart(prices_figure, prices_alt)


def _rel_log(values: np.ndarray, mask: np.ndarray, top: float) -> np.ndarray:
    """log10(|v| / top) where mask holds, NaN (a gap) elsewhere, as float32."""
    with np.errstate(divide="ignore"):
        lg = np.maximum(np.log10(np.abs(values) / top), FLOOR)
    out = np.where(mask, lg, np.nan)
    return r(out, 3)


def _future_path(n: int, lo: float, hi: float) -> str:
    """SVG path of the cells with column > row (rows 0..n-1 downwards), clipped to [lo, hi]."""
    pts = []
    for t in range(n):
        x = min(max(t + 0.5, lo), hi)
        pts += [(x, t - 0.5), (x, t + 0.5)]
    pts += [(hi, n - 0.5), (hi, -0.5)]
    return "M " + " L ".join(f"{x:g},{y:g}" for x, y in pts) + " Z"


def dependence_figure(dep: Dependence) -> go.Figure:
    """Heatmap of max |dy_t / d input_s|: blue on or before t, red after t, blank if zero."""
    top = max(float(dep.token.max()), 1e-300)
    depends = dep.depends
    cols = dep.columns.tolist()
    rows = list(range(dep.token.shape[0]))
    hover = "output token %{y}, input %{x}<br>log10 relative size %{z}<extra></extra>"
    fig = FigureSpec()
    for mask, scale, name in (
        (depends & ~dep.future, PAST_SCALE, "past or present"),
        (depends & dep.future, FUTURE_SCALE, "future"),
    ):
        fig.add_heatmap(
            z=_rel_log(dep.token, mask, top),
            x=cols,
            y=rows,
            colorscale=scale,
            zmin=FLOOR,
            zmax=0,
            showscale=False,
            name=name,
            hovertemplate=hover,
        )
    lo, hi = cols[0] - 0.5, cols[-1] + 0.5
    fig.add_shape(  # the future region s > t: right of a staircase through x = t + 1/2
        type="path",
        path=_future_path(len(rows), lo, hi),
        fillcolor=RED,
        opacity=0.08,
        line={"color": RED, "width": 1},
        layer="above",
    )
    what = "token s of x" if dep.wrt == "x" else "return time τ"
    layout(
        fig,
        title=f"{TITLES[dep.scheme]} · {dep.future_pairs} in the future",
        x=f"input: {what}",
        y="output token t",
        height=250,
    )
    fig.update_yaxes(autorange="reversed", range=None, showgrid=False, zeroline=False)
    fig.update_xaxes(showgrid=False, zeroline=False, range=[lo, hi])
    fig.update_layout(margin={"t": 40})
    return fig.figure()


def dependence_alt(dep: Dependence) -> str:
    t, s = dep.token.shape
    d = dep.depends
    what = "tokens of the normalized tensor" if dep.wrt == "x" else "market return times"
    shape = (
        "only the diagonal"
        if d.sum() == np.trace(d) and dep.wrt == "x"
        else "entries on or below the diagonal"
        if dep.future_pairs == 0
        else "entries above the diagonal too"
    )
    return (
        f"Heatmap, {t} output tokens by {s} {what}, for {SCHEME_INFO[dep.scheme][0].lower()}: "
        f"{int(d.sum())} nonzero dependencies, {shape}; {dep.future_pairs} of them on a "
        f"later input (drawn in red); blank cells are exact zeros."
    )


DEPENDENCE = Chart(dependence_figure, dependence_alt)


def examples_figure(deps: Sequence[Dependence]) -> go.Figure:
    """One small B x B map per scheme: does example b's output depend on example b'?"""
    fig = FigureSpec.subplots(
        rows=1,
        cols=len(deps),
        subplot_titles=[scheme_label(d.scheme) for d in deps],
        horizontal_spacing=0.04,
    )
    for i, dep in enumerate(deps):
        top = max(float(dep.example.max()), 1e-300)
        big = dep.example > 1e-10 * top
        b = dep.example.shape[0]
        fig.add_heatmap(
            z=big.astype(int).tolist(),
            x=list(range(b)),
            y=list(range(b)),
            colorscale=[[0.0, "rgba(0,0,0,0)"], [1.0, SCHEME_COLORS[dep.scheme]]],
            zmin=0,
            zmax=1,
            showscale=False,
            xgap=2,
            ygap=2,
            hovertemplate="output example %{y}, input example %{x}: %{z}<extra></extra>",
            row=1,
            col=i + 1,
        )
        fig.update_yaxes(autorange="reversed", row=1, col=i + 1, showticklabels=i == 0)
        fig.update_xaxes(row=1, col=i + 1, dtick=1)
    layout(fig, title="Which examples each example depends on", x="", y="", height=260)
    fig.update_xaxes(title_text="input")  # short: four maps share a phone width
    fig.update_yaxes(title_text="output example", row=1, col=1)
    fig.update_yaxes(dtick=1, showgrid=False, zeroline=False)
    fig.update_xaxes(showgrid=False, zeroline=False)
    fig.update_annotations(font_size=12)
    return fig.figure()


def examples_alt(deps: Sequence[Dependence]) -> str:
    parts = "; ".join(f"{scheme_label(d.scheme)}: {d.cross_examples}" for d in deps)
    return (
        "Four small grids, output example by input example, filled where the output depends "
        f"on that example. Ordered pairs of different examples with a dependence — {parts}."
    )


EXAMPLES = Chart(examples_figure, examples_alt)


def leak_figure(t: LeakTable) -> go.Figure:
    """Correlation with the next return: features (rows) by treatment (columns), in cells."""
    names = [f"{n} ⚠" if n == "next return" else n for n in t.names]
    cols = ["raw" if c == "raw" else scheme_label(c) for c in t.columns]
    fig = FigureSpec().add_heatmap(
        z=r(t.corr, 3),
        x=cols,
        y=names,
        **diverging(1),
        text=[[text.number(v, 2) if np.isfinite(v) else "—" for v in row] for row in t.corr],
        texttemplate="%{text}",
        textfont={"size": 13},
        xgap=2,
        ygap=2,
        showscale=False,  # every cell writes its value; the bar took a fifth of a phone's width
        hovertemplate="%{y}, %{x}: corr %{z}<extra></extra>",
    )
    layout(fig, title="Correlation with the next return", x="", y="", height=320)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category", side="bottom")
    return fig.figure()


def leak_alt(t: LeakTable) -> str:
    rows = "; ".join(
        f"{n}: "
        + ", ".join(f"{c} {text.short(float(v), 2)}" for c, v in zip(t.columns, row, strict=True))
        for n, row in zip(t.names, t.corr, strict=True)
    )
    return f"Table of correlations with the next return over {t.samples} tokens — {rows}."


LEAK = Chart(leak_figure, leak_alt)


def scatter_figure(raw: np.ndarray, normed: np.ndarray, target: np.ndarray, name: str) -> go.Figure:
    """A feature before and after token-wise layer norm against the next return."""
    fig = FigureSpec.subplots(rows=1, cols=2, subplot_titles=["raw", "token-wise layer norm"])
    for i, (vals, color) in enumerate(((raw, GRAY), (normed, BLUE))):
        fig.add_scatter(
            x=r(vals.ravel(), 4),  # (B*T,): one point per token
            y=r(target.ravel(), 4),  # (B*T,)
            mode="markers",
            marker={"color": color, "size": 5, "opacity": 0.7},
            showlegend=False,
            hovertemplate="feature %{x}<br>next return %{y}%<extra></extra>",
            row=1,
            col=i + 1,
        )
    layout(fig, title=f"“{name}” against the next return", x="", y="", height=320)
    fig.update_yaxes(title_text="next return (%)", row=1, col=1)
    # short titles: the two panels share a phone's width; the chart's title names the feature
    fig.update_xaxes(title_text="value (%)", row=1, col=1)
    fig.update_xaxes(title_text="normalized (no units)", row=1, col=2)
    return fig.figure()


def scatter_alt(raw: np.ndarray, normed: np.ndarray, target: np.ndarray, name: str) -> str:
    c1 = correlations(target, raw[..., None])[0]
    c2 = correlations(target, normed[..., None])[0]
    return (
        f"Two scatter plots of {raw.size} tokens: the feature “{name}” against the next return, "
        f"raw (correlation {text.short(float(c1), 3)}) and after token-wise layer norm "
        f"(correlation {text.short(float(c2), 3)})."
    )


SCATTER = Chart(scatter_figure, scatter_alt)
