"""Thumbnails for the home page cards: small, static figures drawn from live engine results."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from lnviz.axes import Reduction
from lnviz.core import AffineStages
from lnviz.family import Family
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, RED
from lnviz.figures._spec import FigureSpec
from lnviz.figures._style import hline, r
from lnviz.figures.axes import label_heatmap


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
    """Input, core and output of the untitled note's toy as grouped bars."""
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


def _cards() -> dict[str, Callable[[], go.Figure]]:
    import lnviz

    return {
        "reduction-axes": lambda: axes_thumb(
            lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 6), 0), "group", num_groups=2)
        ),
        "epsilon": lambda: epsilon_thumb(
            [lnviz.epsilon_family(e, n=121) for e in (1 / 3, 0.01, 3.0)]
        ),
        "gain-and-bias": lambda: affine_thumb(
            lnviz.affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], 0.0)
        ),
        "invariance": lambda: invariance_thumb(
            [lnviz.normalized_core(z, 1 / 3) for z in ([1, 2, 3], [101, 102, 103], [1, 2, 4])]
        ),
    }


# url_path -> the card picture of that page on the home page (from live engine results)
CARD_PICTURES: dict[str, Callable[[], go.Figure]] = _cards()


def card_alt(title: str, blurb: str) -> str:
    """The alt text of a card picture: which page it previews, and what that page shows."""
    return f"Preview of the {title.lower()} page. {blurb}"
