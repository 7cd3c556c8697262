"""The figures' colours, in one place: the hues, the colour scales, and the scale helpers a
heatmap takes its colours from. Every figure module imports its colours from here."""

from __future__ import annotations

from typing import Any

from plotly.colors import get_colorscale

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
# Colour scales spelt out as [position, colour] lists: figures reach Plotly unchecked on the
# server (lnviz.figures._spec), and only Plotly's check turns a name into the list (the
# browser does not know "RdBu_r", plotly.py's name for the reversed scale).
DIVERGING = get_colorscale("RdBu_r")  # blue (negative) to red (positive)
SEQUENTIAL = get_colorscale("Viridis")


def diverging(lim: float) -> dict[str, Any]:
    """A heatmap trace's colours for values around 0: the diverging scale (blue negative,
    red positive) centred on 0 and spanning -lim to lim, so that equal sizes get equal
    depths of colour whatever their sign.

    >>> {k: v for k, v in diverging(2.5).items() if k != "colorscale"}
    {'zmid': 0, 'zmin': -2.5, 'zmax': 2.5}
    """
    return {"colorscale": DIVERGING, "zmid": 0, "zmin": -lim, "zmax": lim}


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
