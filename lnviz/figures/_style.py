"""Number formatting, layout and trace helpers shared by every figure (colours: _palette)."""

from __future__ import annotations

import math
from typing import Any, TypeVar

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from lnviz.figures._palette import diverging
from lnviz.figures._spec import FigureSpec

F = TypeVar("F", FigureSpec, go.Figure)  # the helpers work on either


def r(values: ArrayLike, digits: int = 5) -> np.ndarray:
    """A trace's numbers as a typed array: float32 for up to 6 significant digits, else float64."""
    arr = np.asarray(values, dtype=np.float64)  # any shape
    out = arr.astype(np.float32) if digits <= 6 else arr.copy()  # same shape
    out[~np.isfinite(out)] = np.nan  # float32 overflow lands here too
    return out


def num(x: float, digits: int = 4) -> str:
    """A short number for alt text and labels."""
    if math.isnan(x):
        return "undefined"
    if math.isinf(x):
        return "infinity" if x > 0 else "minus infinity"
    return f"{x:.{digits}g}".replace("-", "−")  # a true minus sign, as in the prose


def vec(v: np.ndarray, digits: int = 4) -> str:
    return "(" + ", ".join(num(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def legend_below(fig: F, y: float = -0.22) -> F:
    """Legend under the plot (its top at paper y), where it cannot cover the title on a phone."""
    fig.update_layout(
        legend={"orientation": "h", "yanchor": "top", "y": y, "xanchor": "left", "x": 0}
    )
    return fig


def value_bars(
    fig: F, x: Any, y: ArrayLike, text: list[str], *, name: str, color: str, **props: Any
) -> F:
    """Bars of y at x (7 significant digits) with `text` above each bar, never clipped."""
    fig.add_bar(
        x=x, y=r(y, 7), name=name, marker_color=color,
        text=text, textposition="outside", cliponaxis=False, **props,
    )  # fmt: skip
    return fig


def layout(fig: F, *, title: str, x: str, y: str, height: int = 360) -> F:
    """Common layout: title, legend on top, axis titles, in one nested update; top margin only."""
    fig.update_layout(
        {
            "title": {"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}},
            "height": height,
            "margin": {"t": 60},
            "legend": {
                "orientation": "h",
                "yanchor": "bottom",
                "y": 1.0,
                "xanchor": "left",
                "x": 0,
            },
            "hovermode": "closest",
            "xaxis": {"title": {"text": x}},
            "yaxis": {"title": {"text": y}},
        }
    )
    return fig


def matrix_heatmap(
    matrix: np.ndarray, text: list[list[str]] | None, lim: float, **props: Any
) -> FigureSpec:
    """A square matrix as a heatmap: rows and columns 1..n, row 1 on top, diverging scale ±lim."""
    names = [str(i + 1) for i in range(matrix.shape[0])]
    fig = FigureSpec().add_heatmap(
        **{
            "z": r(matrix),
            "x": names,
            "y": names,
            **diverging(lim),
            "text": text,
            "texttemplate": "%{text}" if text else None,
            "hovertemplate": "row %{y}, column %{x}: %{z}<extra></extra>",
            **props,
        }
    )
    fig.update_xaxes(type="category")
    fig.update_yaxes(type="category", autorange="reversed", scaleanchor="x")
    return fig


def hline(fig: F, y: float, line: dict, label: str | None = None) -> F:
    """A labelled horizontal rule at y as one shape: add_hline works out the axes on each call."""
    fig.add_shape(type="line", xref="x domain", yref="y", x0=0, x1=1, y0=y, y1=y, line=line)
    if label is not None:
        fig.add_annotation(
            text=label, showarrow=False, xref="x domain", yref="y", x=0, y=y,
            xanchor="left", yanchor="bottom",
        )  # fmt: skip
    return fig


def vline(fig: F, x: float, line: dict, label: str | None = None) -> F:
    """A vertical rule up the plot at x, labelled left of its top (as add_vline would)."""
    fig.add_shape(type="line", xref="x", yref="y domain", x0=x, x1=x, y0=0, y1=1, line=line)
    if label is not None:
        fig.add_annotation(
            text=label, showarrow=False, xref="x", yref="y domain", x=x, y=1,
            xanchor="right", yanchor="top",
        )  # fmt: skip
    return fig
