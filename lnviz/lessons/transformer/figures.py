"""Figures of "Inside a transformer": placement here; geometry and attention re-exported."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, num, r
from lnviz.lessons.transformer.analysis import LastBlockSweep
from lnviz.lessons.transformer.depth_sweep import DepthSweep
from lnviz.lessons.transformer.figures_attention import (  # noqa: F401 (re-exported)
    ENTROPY,
    KEYS,
    WEIGHTS,
    entropy_alt,
    entropy_figure,
    keys_alt,
    keys_figure,
    weights_alt,
    weights_figure,
)
from lnviz.lessons.transformer.figures_geometry import (  # noqa: F401 (re-exported)
    SCATTER_MAX,
    SPHERE,
    TANH,
    sphere_alt,
    sphere_figure,
    tanh_alt,
    tanh_figure,
)
from lnviz.lessons.transformer.residual_stack import PLACEMENTS, PlacementComparison

NAMES = {"pre": "Pre-LN", "post": "Post-LN", "scaled": "Pre-LN, LN scaled by 1/√l"}
COLORS = {"pre": BLUE, "post": ORANGE, "scaled": GREEN}
DASHES = {"pre": "solid", "post": "dash", "scaled": "dot"}


def _line(p: str, focus: str | None) -> dict:
    """A placement's line: thicker when it is the focus, thinner and fainter beside one."""
    width = 2.5 if focus is None else (4.0 if p == focus else 1.5)
    return {"color": COLORS[p], "width": width, "dash": DASHES[p]}


def _opacity(p: str, focus: str | None) -> float:
    return 1.0 if focus is None or p == focus else 0.55


def gradient_figure(cmp: PlacementComparison, focus: str | None = None) -> go.Figure:
    """Each block's weight-gradient norm per placement (log y); `focus` thick, the others faint."""
    fig = FigureSpec()
    for p in PLACEMENTS:
        run = cmp.run(p)
        fig.add_scatter(
            x=np.arange(1, run.depth + 1),
            y=r(run.grad_norm),
            mode="lines+markers" if run.depth <= 24 else "lines",
            name=NAMES[p],
            line=_line(p, focus),
            opacity=_opacity(p, focus),
            hovertemplate=f"{NAMES[p]}, block %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    run = cmp.pre
    layout(
        fig,
        title=f"Gradient norm per block (L = {run.depth})",
        x="block l (1 = next to the input)",
        y="|∂loss/∂W_l| (log scale)",
    )
    values = np.concatenate([cmp.run(p).grad_norm for p in PLACEMENTS])
    fig.update_yaxes(type="log", tickvals=_log_ticks(float(values.min()), float(values.max())))
    return legend_below(fig).figure()


def gradient_alt(cmp: PlacementComparison, focus: str | None = None) -> str:
    parts = "; ".join(
        f"{NAMES[p]} from {num(float(cmp.run(p).grad_norm[0]))} at block 1 to "
        f"{num(float(cmp.run(p).grad_norm[-1]))} at block {cmp.run(p).depth}"
        for p in PLACEMENTS
    )
    return (
        f"Line chart, log vertical axis, of each block's weight-gradient norm at "
        f"initialization in a stack of {cmp.pre.depth} blocks of width {cmp.pre.width}: "
        f"{parts}.{_bold(focus)}"
    )


GRADIENT = Chart(gradient_figure, gradient_alt)


def _bold(focus: str | None) -> str:
    return "" if focus is None else f" {NAMES[focus]} is drawn in bold."


def stream_figure(cmp: PlacementComparison, focus: str | None = None) -> go.Figure:
    """Mean token norm |x_l| of the residual stream after each block, with sqrt(d) marked."""
    fig = FigureSpec()
    for p in PLACEMENTS:
        run = cmp.run(p)
        fig.add_scatter(
            x=np.arange(run.depth + 1),
            y=r(run.stream_norm),
            mode="lines",
            name=NAMES[p],
            line=_line(p, focus),
            opacity=_opacity(p, focus),
            hovertemplate=f"{NAMES[p]}, after block %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    width = cmp.pre.width
    hline(fig, float(np.sqrt(width)), {"dash": "dash", "color": GRAY, "width": 1}, "√d")
    fig.layout["shapes"][-1]["layer"] = "below"  # Post-LN's stream lies on it: draw it on top
    fig.layout["annotations"][-1].update(x=1, xanchor="right")
    layout(
        fig,
        title="Residual stream norm after each block",
        x="block l (0 = the input)",
        y="mean token norm |x_l|",
    )
    fig.update_yaxes(rangemode="tozero")
    return legend_below(fig).figure()


def stream_alt(cmp: PlacementComparison, focus: str | None = None) -> str:
    parts = "; ".join(
        f"{NAMES[p]} ends at {num(float(cmp.run(p).stream_norm[-1]))}" for p in PLACEMENTS
    )
    return (
        f"Line chart of the residual stream's mean token norm after each of "
        f"{cmp.pre.depth} blocks, starting at {num(float(cmp.pre.stream_norm[0]))}, with "
        f"√d = {num(float(np.sqrt(cmp.pre.width)))} dashed: {parts}.{_bold(focus)}"
    )


STREAM = Chart(stream_figure, stream_alt)


def depth_figure(sweep: DepthSweep | LastBlockSweep, depth: int | None = None) -> go.Figure:
    """Last block's gradient norm against depth per placement, log-log; `depth` (shown) circled."""
    fig = FigureSpec()
    for p in PLACEMENTS:
        fig.add_scatter(
            x=sweep.depths,
            y=r(sweep.last[p]),
            mode="lines+markers",
            name=NAMES[p],
            line={"color": COLORS[p], "width": 2.5, "dash": DASHES[p]},
            hovertemplate=f"{NAMES[p]}, L = %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    at = _depth_index(sweep, depth)
    if at is not None:
        fig.add_scatter(
            x=[int(sweep.depths[at])] * len(PLACEMENTS),
            y=r([sweep.last[p][at] for p in PLACEMENTS]),
            mode="markers",
            name=f"circled: the stack above (L = {depth})",
            marker={
                "color": GRAY,  # each sits on its line's point: no colour of its own
                "size": 15,
                "symbol": "circle-open",
                "line": {"width": 2.5},
            },
            hoverinfo="skip",
        )
    layout(
        fig,
        title="The last block's gradient as the stack gets deeper",
        x="depth L (log scale)",
        y="|∂loss/∂W_L| (log scale)",
    )
    values = np.concatenate([sweep.last[p] for p in PLACEMENTS])
    fig.update_xaxes(type="log", tickvals=[int(v) for v in sweep.depths if v in _DEPTH_TICKS])
    fig.update_yaxes(type="log", tickvals=_log_ticks(float(values.min()), float(values.max())))
    return legend_below(fig, -0.3).figure()


_DEPTH_TICKS = (1, 2, 4, 6, 12, 24, 48)  # depths labelled on the log axis


def _log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 ticks around lo..hi: Plotly labels a short log axis with bare digits ('2' for 20)."""
    first, last = int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi)))
    ticks = [m * 10.0**e for e in range(first, last + 1) for m in (1, 2, 5)]
    below = [t for t in ticks if t <= lo]
    above = [t for t in ticks if t >= hi]
    inner = [t for t in ticks if lo < t < hi]
    return [float(f"{t:.3g}") for t in below[-1:] + inner + above[:1]]


def depth_alt(sweep: DepthSweep | LastBlockSweep, depth: int | None = None) -> str:
    ds = ", ".join(str(int(d)) for d in sweep.depths)
    parts = "; ".join(
        f"{NAMES[p]} {num(float(sweep.last[p][0]))} to {num(float(sweep.last[p][-1]))}"
        for p in PLACEMENTS
    )
    here = "" if _depth_index(sweep, depth) is None else f" Circled: L = {depth}, the stack above."
    return (
        f"Log-log line chart of the last block's weight-gradient norm for depths {ds}: "
        f"{parts}.{here}"
    )


DEPTH = Chart(depth_figure, depth_alt)


def _depth_index(sweep: DepthSweep | LastBlockSweep, depth: int | None) -> int | None:
    """Where `depth` is among the sweep's depths, or None."""
    hits = [] if depth is None else np.flatnonzero(sweep.depths == depth)
    return int(hits[0]) if len(hits) else None


# Each figure with its alt text, drawn by one call: ui.chart(PAIR, *args, key=...).
