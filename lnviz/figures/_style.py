"""Colours, number formatting and layout shared by every figure."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

# Tableau-10 hues: distinguishable, and readable on both light and dark backgrounds.
BLUE, ORANGE, RED, TEAL, GREEN, YELLOW, PURPLE, PINK, BROWN, GRAY = (
    "#4E79A7",
    "#F28E2B",
    "#E15759",
    "#76B7B2",
    "#59A14F",
    "#EDC948",
    "#B07AA1",
    "#FF9DA7",
    "#9C755F",
    "#8C8C8C",
)
QUALITATIVE = [BLUE, ORANGE, GREEN, RED, PURPLE, TEAL, YELLOW, PINK, BROWN, GRAY]
DIVERGING = "RdBu_r"


def r(values: np.ndarray, digits: int = 5) -> list[float | None]:
    """Round to significant digits for a lean JSON payload; non-finite values become gaps."""
    arr = np.asarray(values, dtype=np.float64).ravel()
    out: list[float | None] = []
    for v in arr.tolist():
        out.append(float(f"{v:.{digits}g}") if math.isfinite(v) else None)
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


def legend_below(fig: go.Figure, y: float = -0.22) -> go.Figure:
    """Move the legend under the plot, where it cannot cover the title on a phone."""
    fig.update_layout(
        legend={"orientation": "h", "yanchor": "top", "y": y, "xanchor": "left", "x": 0},
        margin={"b": 10},
    )
    return fig


def layout(fig: go.Figure, *, title: str, x: str, y: str, height: int = 360) -> go.Figure:
    """Common layout: compact margins, legend on top, axis titles, no fixed colours."""
    fig.update_layout(
        title={"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}},
        height=height,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0},
        hovermode="closest",
        xaxis_title=x,
        yaxis_title=y,
    )
    return fig


def discrete_scale(n: int) -> list[list[float | str]]:
    """A stepped colourscale whose k-th band is QUALITATIVE[k], for z in 0..n-1.

    Positions are rounded so they never decrease (Plotly drops a non-monotonic scale):

    >>> positions = [p for p, _ in discrete_scale(10)]
    >>> positions == sorted(positions) and positions[-1] == 1.0
    True
    """
    scale: list[list[float | str]] = []
    for k in range(n):
        color = QUALITATIVE[k % len(QUALITATIVE)]
        scale += [[round(k / n, 9), color], [round((k + 1) / n, 9), color]]
    return scale
