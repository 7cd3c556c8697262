"""Thumbnails for the home page cards: small, static figures drawn from live engine results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.axes import Reduction
from lnviz.core import AffineStages
from lnviz.family import Family
from lnviz.figures._spec import FigureSpec
from lnviz.figures._style import BLUE, GRAY, GREEN, ORANGE, RED, hline, r
from lnviz.figures.axes import label_heatmap
from lnviz.weighted import WeightedCentering


def _thumb(fig: FigureSpec) -> FigureSpec:
    fig.update_layout(height=170, margin={"l": 4, "r": 4, "t": 4, "b": 4}, showlegend=False)
    fig.update_xaxes(showticklabels=False, title=None)
    fig.update_yaxes(showticklabels=False, title=None)
    return fig


def axes_thumb(red: Reduction) -> go.Figure:
    """Statistic groups of a small tensor, unfolded to (batch·token) × feature."""
    fig = FigureSpec().add_trace("heatmap", label_heatmap(red, xgap=2, ygap=2, hoverinfo="skip"))
    fig.update_yaxes(autorange="reversed")
    return _thumb(fig).figure()


def epsilon_thumb(fams: list[Family]) -> go.Figure:
    """h_eps(t) for a few eps, with the asymptotes."""
    fig = FigureSpec()
    for fam, color in zip(fams, (BLUE, ORANGE, GREEN), strict=False):
        fig.add_scatter(x=r(fam.t, 3), y=r(fam.h, 3), mode="lines", line={"color": color})
    for sign in (1, -1):
        hline(fig, sign * fams[0].asymptote, {"dash": "dash", "color": RED, "width": 1})
    return _thumb(fig).figure()


def affine_thumb(stages: AffineStages) -> go.Figure:
    """Input, core and output of the seed's toy as grouped bars."""
    fig = FigureSpec()
    for stage, color in zip(stages.stages, (GRAY, BLUE, ORANGE), strict=True):
        fig.add_bar(y=r(stage.values, 4), marker_color=color)
    fig.update_layout(barmode="group")
    return _thumb(fig).figure()


def invariance_thumb(cores: list[np.ndarray]) -> go.Figure:
    """Cores of a vector and of its shifted copies, as grouped bars."""
    fig = FigureSpec()
    for core, color in zip(cores, (BLUE, GREEN, RED), strict=False):
        fig.add_bar(y=r(core, 4), marker_color=color)
    fig.update_layout(barmode="group")
    return _thumb(fig).figure()


def weighted_thumb(wc: WeightedCentering) -> go.Figure:
    """x, its oblique projection along 1 and its Euclidean projection onto ker a^T."""
    span = 1.2 * float(np.abs(np.concatenate([wc.x, wc.euclidean, wc.centered])).max())
    line = np.array([-span, span])
    fig = FigureSpec()
    fig.add_scatter(x=r(line * wc.a[1]), y=r(-line * wc.a[0]), mode="lines", line={"color": GRAY})
    for target, color in ((wc.centered, BLUE), (wc.euclidean, ORANGE)):
        fig.add_scatter(
            x=[wc.x[0], target[0]],
            y=[wc.x[1], target[1]],
            mode="lines+markers",
            line={"color": color, "dash": "dot"},
            marker={"size": 7},
        )
    fig.update_yaxes(scaleanchor="x")
    return _thumb(fig).figure()
