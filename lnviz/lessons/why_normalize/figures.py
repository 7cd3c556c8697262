"""Figures of the opening page: activation spread by layer, with and without layer norm."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import short
from lnviz.figures._palette import BLUE, GRAY, ORANGE
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, r
from lnviz.lessons.why_normalize import Drift

FLOOR = 1e-12  # spreads below this are drawn here (a log axis has no 0)


def drift_figure(drift: Drift) -> go.Figure:
    """Spread per layer on a log scale: the plain stack drifts, the normalized one stays."""
    layers = np.arange(drift.depth + 1)
    fig = FigureSpec()
    drawn = []
    for stack, name, color in (
        (drift.plain, "without normalization", ORANGE),
        (drift.normalized, "layer norm after every layer", BLUE),
    ):
        spread = np.clip(np.nan_to_num(stack.spread, nan=FLOOR, posinf=1e300), FLOOR, 1e300)
        drawn.append(spread)
        fig.add_scatter(
            x=layers, y=r(spread), mode="lines+markers", name=name,
            line={"color": color, "width": 2}, marker={"size": 5},
            hovertemplate="layer %{x}<br>spread %{y:.3g}<extra></extra>",
        )  # fmt: skip
    hline(fig, 1.0, {"color": GRAY, "width": 1, "dash": "dot"})
    layout(
        fig,
        title=f"Spread of the activations, {drift.activation} layers, weight scale {drift.gain:g}",
        x="layer",
        y="standard deviation (log scale)",
    )
    # labels on whole decades only (at most about 8 of them): Plotly's own choice adds 2 and 5
    # between decades once the axis is tall enough, a crowded ladder in presentation mode
    spread = np.concatenate([*drawn, [1.0]])
    decades = np.log10(spread.max()) - np.log10(spread.min())
    fig.update_yaxes(type="log", exponentformat="power", dtick=max(1, int(np.ceil(decades / 8))))
    legend_below(fig)
    return fig.figure()


def drift_alt(drift: Drift) -> str:
    first, last = drift.plain.spread[0], drift.plain.spread[-1]
    return (
        f"Line chart over {drift.depth} layers, log scale. Without normalization the spread "
        f"of the activations goes from {short(first)} to {short(last)}; with layer norm after "
        f"every layer it stays at {short(drift.normalized.spread[-1])}."
    )


DRIFT = Chart(drift_figure, drift_alt)
