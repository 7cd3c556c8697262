"""Attention with and without QK-norm as single panels: side by side if wide, stacked on a phone."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, GRAY, PURPLE, QUALITATIVE
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, num, r
from lnviz.lessons.transformer.qk_attention import AttentionScan, Selectability


def weights_figure(raw: AttentionScan, normed: AttentionScan) -> go.Figure:
    """Each key's softmax weight against the logit scale s: solid without QK-norm, dashed with."""
    fig = FigureSpec()
    for j in range(raw.keys.shape[0]):
        color = QUALITATIVE[j % len(QUALITATIVE)]
        for scan, dash, label in ((raw, "solid", ""), (normed, "dash", ", QK-norm")):
            fig.add_scatter(
                x=r(scan.scales), y=r(scan.weights[:, j]), mode="lines",
                name=f"k{j + 1}{label}", legendgroup=f"k{j + 1}",
                line={"color": color, "dash": dash, "width": 2.5},
                hovertemplate=f"k{j + 1}{label}, s = %{{x:.3g}}: weight %{{y:.3f}}<extra></extra>",
            )  # fmt: skip
    layout(fig, title="Each key's weight (dashed: with QK-norm)", x="logit scale s (log)",
           y="softmax weight")  # fmt: skip
    fig.update_xaxes(type="log")
    fig.update_yaxes(range=[0, 1.02])
    return legend_below(fig, -0.3).figure()


def weights_alt(raw: AttentionScan, normed: AttentionScan) -> str:
    top, top_n = int(raw.weights[-1].argmax()), int(normed.weights[-1].argmax())
    return (
        f"Line chart of the softmax weights of {raw.keys.shape[0]} keys for one query against "
        f"the logit scale s from {num(float(raw.scales[0]))} to {num(float(raw.scales[-1]))}. "
        f"Without QK-norm (solid) k{top + 1} ends with weight "
        f"{num(float(raw.weights[-1, top]), 3)}; with QK-norm ({normed.qk_norm} norm, τ = "
        f"{num(normed.tau)}, dashed) the weights do not move with s and k{top_n + 1} gets "
        f"{num(float(normed.weights[-1, top_n]), 3)}."
    )


WEIGHTS = Chart(weights_figure, weights_alt)


def entropy_figure(raw: AttentionScan, normed: AttentionScan) -> go.Figure:
    """The attention entropy against s, without and with QK-norm; log n (uniform) marked."""
    fig = FigureSpec()
    for scan, color, label in (
        (raw, GRAY, "no norm"),
        (normed, PURPLE, f"QK-norm, τ = {num(normed.tau)}"),
    ):
        fig.add_scatter(
            x=r(scan.scales), y=r(scan.entropy), mode="lines+markers", name=label,
            line={"color": color, "width": 2.5}, marker={"size": 5},
            hovertemplate=f"{label}, s = %{{x:.3g}}: %{{y:.3f}} nats<extra></extra>",
        )  # fmt: skip
    hline(fig, raw.max_entropy, {"dash": "dot", "color": GRAY, "width": 1})
    n = raw.keys.shape[0]
    fig.add_annotation(  # at the right end: the curve without norm starts on this line
        text=f"uniform over {n} keys: log {n}", showarrow=False, xref="x domain", yref="y",
        x=1, y=raw.max_entropy, xanchor="right", yanchor="bottom",
    )  # fmt: skip
    layout(fig, title="Attention entropy", x="logit scale s (log)", y="entropy (nats)")
    fig.update_xaxes(type="log")
    fig.update_yaxes(range=[0, raw.max_entropy * 1.12])
    return legend_below(fig, -0.3).figure()


def entropy_alt(raw: AttentionScan, normed: AttentionScan) -> str:
    return (
        f"Line chart of the attention entropy against s. Without QK-norm it falls from "
        f"{num(float(raw.entropy[0]), 3)} to {num(float(raw.entropy[-1]), 3)} nats; with "
        f"QK-norm it stays between {num(float(normed.entropy.min()), 3)} and "
        f"{num(float(normed.entropy.max()), 3)}. Uniform attention over "
        f"{raw.keys.shape[0]} keys has {num(raw.max_entropy, 3)} nats, dotted."
    )


ENTROPY = Chart(entropy_figure, entropy_alt)


def _hull_order(pts: np.ndarray) -> list[int]:
    """Points ordered by angle about their centroid (for outlining a convex polygon)."""
    c = pts.mean(axis=0)
    return [int(j) for j in np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]


def keys_figure(sel: Selectability) -> go.Figure:
    """Keys as a query sees them (raw or layer-normed in 1^perp): selectable filled, on the hull."""
    pts = sel.coordinates
    fig = FigureSpec()
    if sel.layer_norm:  # the circle the normalized keys lie on (inside it by ε)
        radius = float(np.sqrt(sel.keys.shape[1]))
        turn = np.linspace(0.0, 2 * np.pi, 97)  # (97,)
        fig.add_scatter(
            x=r(radius * np.cos(turn)), y=r(radius * np.sin(turn)), mode="lines",
            line={"color": GRAY, "dash": "dot", "width": 1}, hoverinfo="skip",
            name=f"radius √{sel.keys.shape[1]}", showlegend=False,
        )  # fmt: skip
    hull = [j for j in _hull_order(pts) if sel.selectable[j]]
    if len(hull) >= 2:
        loop = [*hull, hull[0]]
        fig.add_scatter(
            x=r(pts[loop, 0]), y=r(pts[loop, 1]), mode="lines", line={"color": GRAY},
            hoverinfo="skip", showlegend=False,
        )  # fmt: skip
    fig.add_scatter(
        x=r(pts[:, 0]), y=r(pts[:, 1]), mode="markers+text",
        text=[f"k{j + 1}" for j in range(len(pts))], textposition="top right",
        marker={
            "size": 12,
            "color": [BLUE if s else "rgba(0,0,0,0)" for s in sel.selectable],
            "line": {"color": BLUE, "width": 2},
        },
        hovertemplate="%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>", showlegend=False,
    )  # fmt: skip
    if sel.layer_norm:
        title, x, y = "After layer norm: on a circle", "along (1, −1, 0)/√2", "along (1, 1, −2)/√6"
    else:
        title, x, y = "Before: the keys as given", "coordinate 1", "coordinate 2"
    layout(fig, title=title, x=x, y=y, height=340)
    fig.update_yaxes(scaleanchor="x")
    return fig.figure()


def keys_alt(sel: Selectability) -> str:
    hidden = [f"k{j + 1}" for j in np.flatnonzero(~sel.selectable)]
    where = (
        "after layer norm, in the plane orthogonal to (1, 1, 1)"
        if sel.layer_norm
        else "as given, first two coordinates"
    )
    d = sel.keys.shape[1]
    circle = f", and the dotted circle of radius √{d} they lie on" if sel.layer_norm else ""
    return (
        f"Scatter of {len(sel.coordinates)} keys {where}, with the outline of their convex "
        f"hull{circle}. Keys no query can select (hollow): "
        f"{', '.join(hidden) if hidden else 'none'}."
    )


KEYS = Chart(keys_figure, keys_alt)
