"""The home page's diagram: where layer norm sits in a transformer block (Pre-LN placement).

The residual stream runs left to right; a copy branches off, goes through layer norm, then
attention or an MLP, and the result is added back to the stream. Pure Plotly shapes and
annotations, drawn static (no data, nothing to hover).
"""

from __future__ import annotations

from itertools import pairwise

import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, GRAY, ORANGE
from lnviz.figures._spec import Chart, FigureSpec

__all__ = ["BLOCK", "block_alt", "block_figure"]

# (label, colour, x0, x1): the two boxes on the branch, at height BOX_Y ± BOX_H / 2
BOXES = (("layer norm", BLUE, 2.3, 4.5), ("attention<br>or MLP", ORANGE, 5.5, 7.7))
BOX_Y, BOX_H = 1.45, 0.8
SPLIT_X, ADD_X, END_X = 1.2, 8.7, 10.0  # where the copy leaves, where it is added back


def _arrow(fig: FigureSpec, start: tuple[float, float], end: tuple[float, float], color: str,
           width: float = 2.0) -> None:  # fmt: skip
    fig.add_annotation(
        x=end[0], y=end[1], ax=start[0], ay=start[1], xref="x", yref="y", axref="x",
        ayref="y", text="", showarrow=True, arrowhead=2, arrowsize=1, arrowwidth=width,
        arrowcolor=color,
    )  # fmt: skip


def _line(fig: FigureSpec, points: tuple[tuple[float, float], ...], color: str) -> None:
    for (x0, y0), (x1, y1) in pairwise(points):
        fig.add_shape(type="line", x0=x0, y0=y0, x1=x1, y1=y1, line={"color": color, "width": 2})


def block_figure() -> go.Figure:
    """One transformer block: stream → layer norm → attention or MLP → add back."""
    fig = FigureSpec()
    # the residual stream, with the addition as a circled plus
    _line(fig, ((0.0, 0.0), (ADD_X - 0.25, 0.0)), GRAY)
    _arrow(fig, (ADD_X + 0.25, 0.0), (END_X, 0.0), GRAY, 3.0)
    fig.add_shape(
        type="circle", x0=ADD_X - 0.25, x1=ADD_X + 0.25, y0=-0.25, y1=0.25,
        line={"color": GRAY, "width": 2},
    )  # fmt: skip
    fig.add_annotation(x=ADD_X, y=0.0, text="<b>+</b>", showarrow=False, font={"size": 18})
    fig.add_annotation(x=ADD_X, y=0.6, text="add back", showarrow=False, xanchor="right",
                       xshift=-6)  # fmt: skip
    fig.add_annotation(x=0.0, y=-0.45, text="residual stream", showarrow=False, xanchor="left")
    fig.add_annotation(x=END_X, y=-0.45, text="next block", showarrow=False, xanchor="right")
    # the branch: a copy up into layer norm, on into attention or the MLP, back down
    (ln0, ln1), (f0, f1) = BOXES[0][2:], BOXES[1][2:]
    _line(fig, ((SPLIT_X, 0.0), (SPLIT_X, BOX_Y)), GRAY)
    _arrow(fig, (SPLIT_X, BOX_Y), (ln0, BOX_Y), GRAY)
    _arrow(fig, (ln1, BOX_Y), (f0, BOX_Y), GRAY)
    _line(fig, ((f1, BOX_Y), (ADD_X, BOX_Y)), GRAY)
    _arrow(fig, (ADD_X, BOX_Y), (ADD_X, 0.27), GRAY)
    fig.add_annotation(x=SPLIT_X, y=0.6, text="a copy", showarrow=False, xanchor="left",
                       xshift=6)  # fmt: skip
    for label, color, x0, x1 in BOXES:
        fig.add_shape(
            type="rect", x0=x0, x1=x1, y0=BOX_Y - BOX_H / 2, y1=BOX_Y + BOX_H / 2,
            line={"color": color, "width": 2}, fillcolor=color, opacity=0.25, layer="below",
        )  # fmt: skip
        fig.add_annotation(x=(x0 + x1) / 2, y=BOX_Y, text=f"<b>{label}</b>", showarrow=False)
    fig.update_layout(
        height=210, margin={"l": 8, "r": 8, "t": 8, "b": 8}, showlegend=False,
        font={"size": 13},
    )  # fmt: skip
    fig.update_xaxes(range=[-0.1, END_X + 0.1], visible=False, fixedrange=True)
    fig.update_yaxes(range=[-0.85, BOX_Y + BOX_H / 2 + 0.15], visible=False, fixedrange=True)
    return fig.figure()


def block_alt() -> str:
    """What the diagram shows, in words (for screen readers and the picture's tooltip)."""
    return (
        "Diagram of one transformer block. The residual stream runs from left to right. A "
        "copy of it branches off, goes through layer norm, then through attention or an MLP, "
        "and the result is added back to the stream, which carries on to the next block."
    )


BLOCK = Chart(block_figure, block_alt)
