"""Where layer norm sits in a transformer block, Pre-LN and Post-LN, drawn side by side."""

from __future__ import annotations

from itertools import pairwise

import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, GRAY, ORANGE
from lnviz.figures._spec import Chart, FigureSpec

PLACEMENT_TITLES = {
    "pre": "Pre-LN: the copy is normalized on its way in",
    "post": "Post-LN: the stream is normalized after the addition",
}
BOX_Y, BOX_H = 1.45, 0.8  # the branch's height, and every box's height
SPLIT_X, END_X = 0.9, 10.0  # where the copy leaves the stream, where the block ends
# per placement: the boxes (label, colour, x0, x1, y) and where the branch is added back
LAYOUTS = {
    "pre": (
        (("layer norm", BLUE, 1.9, 4.3, BOX_Y), ("attention<br>or MLP", ORANGE, 5.1, 7.5, BOX_Y)),
        8.5,
    ),
    "post": (
        (("attention<br>or MLP", ORANGE, 1.9, 4.3, BOX_Y), ("layer norm", BLUE, 6.7, 9.1, 0.0)),
        5.3,
    ),
}


def _arrow(fig: FigureSpec, start: tuple[float, float], end: tuple[float, float],
           width: float = 2.0) -> None:  # fmt: skip
    fig.add_annotation(
        x=end[0], y=end[1], ax=start[0], ay=start[1], xref="x", yref="y", axref="x",
        ayref="y", text="", showarrow=True, arrowhead=2, arrowsize=1, arrowwidth=width,
        arrowcolor=GRAY,
    )  # fmt: skip


def _line(fig: FigureSpec, points: tuple[tuple[float, float], ...]) -> None:
    for (x0, y0), (x1, y1) in pairwise(points):
        fig.add_shape(type="line", x0=x0, y0=y0, x1=x1, y1=y1, line={"color": GRAY, "width": 2})


def block_figure(placement: str = "pre") -> go.Figure:
    """One transformer block: layer norm on the copy (Pre-LN) or on the stream after the add."""
    boxes, add_x = LAYOUTS[placement]
    fig = FigureSpec()
    branch = [b for b in boxes if b[4] == BOX_Y]
    on_stream = [b for b in boxes if b[4] == 0.0]
    # the stream: to the addition (a circled plus), then through any box on it, to the end
    _line(fig, ((0.0, 0.0), (add_x - 0.25, 0.0)))
    x = add_x + 0.25
    for _, _, x0, x1, _ in on_stream:
        _arrow(fig, (x, 0.0), (x0, 0.0))
        x = x1
    _arrow(fig, (x, 0.0), (END_X, 0.0), 3.0)
    fig.add_shape(
        type="circle", x0=add_x - 0.25, x1=add_x + 0.25, y0=-0.25, y1=0.25,
        line={"color": GRAY, "width": 2},
    )  # fmt: skip
    fig.add_annotation(x=add_x, y=0.0, text="<b>+</b>", showarrow=False, font={"size": 18})
    fig.add_annotation(x=add_x, y=0.6, text="add back", showarrow=False, xanchor="right",
                       xshift=-6)  # fmt: skip
    fig.add_annotation(x=0.0, y=-0.5, text="residual stream", showarrow=False, xanchor="left")
    fig.add_annotation(x=END_X, y=-0.5, text="next block", showarrow=False, xanchor="right")
    # the branch: a copy up, through its boxes, back down into the addition
    _line(fig, ((SPLIT_X, 0.0), (SPLIT_X, BOX_Y)))
    x = SPLIT_X
    for _, _, x0, x1, _ in branch:
        _arrow(fig, (x, BOX_Y), (x0, BOX_Y))
        x = x1
    _line(fig, ((x, BOX_Y), (add_x, BOX_Y)))
    _arrow(fig, (add_x, BOX_Y), (add_x, 0.27))
    fig.add_annotation(x=SPLIT_X, y=0.6, text="a copy", showarrow=False, xanchor="left",
                       xshift=6)  # fmt: skip
    for label, color, x0, x1, y in boxes:
        fig.add_shape(
            type="rect", x0=x0, x1=x1, y0=y - BOX_H / 2, y1=y + BOX_H / 2,
            line={"color": color, "width": 2}, fillcolor=color, opacity=0.25, layer="below",
        )  # fmt: skip
        fig.add_annotation(x=(x0 + x1) / 2, y=y, text=f"<b>{label}</b>", showarrow=False)
    fig.update_layout(
        title={"text": PLACEMENT_TITLES[placement], "font": {"size": 14}},
        height=240, margin={"l": 8, "r": 8, "t": 40, "b": 8}, showlegend=False,
        font={"size": 13},
    )  # fmt: skip
    fig.update_xaxes(range=[-0.1, END_X + 0.1], visible=False, fixedrange=True)
    fig.update_yaxes(range=[-0.85, BOX_Y + BOX_H / 2 + 0.15], visible=False, fixedrange=True)
    return fig.figure()


def block_alt(placement: str = "pre") -> str:
    """What the diagram shows, in words (for screen readers and the picture's tooltip)."""
    where = (
        "goes through layer norm, then through attention or an MLP, and the result is added "
        "back to the stream, which itself is never normalized"
        if placement == "pre"
        else "goes through attention or an MLP, the result is added back to the stream, and "
        "the sum goes through layer norm"
    )
    return (
        f"Diagram of one {'Pre-LN' if placement == 'pre' else 'Post-LN'} transformer block. "
        f"The residual stream runs from left to right. A copy of it branches off, {where}, "
        "before the stream carries on to the next block."
    )


BLOCK = Chart(block_figure, block_alt)
