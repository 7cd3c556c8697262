"""Figures of the epsilon page: h_eps and its slope, the core variance, scaling, Jacobian."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import eps_label, short, short_vector
from lnviz.core import Scaling
from lnviz.family import Family
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, RED
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, matrix_heatmap, r
from lnviz.jacobian import Spectrum
from lnviz.lessons.invariance.figures import scaling_text, scaling_traces

# Chart text is Plotly's HTML: ε as a subscript, powers as superscripts (alt text stays plain).
H_LABEL = "h<sub>ε</sub>(t)"
DH_LABEL = "h′<sub>ε</sub>(t)"


def peak_text(peak: float) -> str:
    """The peak's label without its value (the page asks for it first); frames may still vary it."""
    del peak
    return "peak ε<sup>−1/2</sup>"


def bound_text(bound: float) -> str:
    """The eigenvalue chart's label of the Lipschitz bound."""
    return f"bound ε<sup>−1/2</sup> = {short(bound)}"


def _curves(
    current: Family, others: Sequence[Family], field: str, label: str, color: str
) -> FigureSpec:
    """The chosen eps's curve `field` in bold over the other eps values' curves in thin grey."""
    fig = FigureSpec()

    def curve(fam: Family, name: str, **style: Any) -> None:
        fig.add_scatter(x=r(fam.t), y=r(getattr(fam, field)), mode="lines", name=name, **style)

    for fam in others:
        curve(fam, f"ε = {eps_label(fam.eps)}", line={"color": GRAY, "width": 1}, opacity=0.45,
              hoverinfo="skip", showlegend=False)  # fmt: skip
    curve(current, f"{label}, ε = {eps_label(current.eps)}", line={"color": color, "width": 3})
    return fig


def h_figure(current: Family, others: Sequence[Family]) -> go.Figure:
    """h_eps(t) for the chosen eps (bold) and a few others (faint), with ±sqrt(3/2) dashed."""
    fig = _curves(current, others, "h", H_LABEL, BLUE)
    for sign in (1, -1):
        hline(fig, sign * current.asymptote, {"dash": "dash", "color": RED, "width": 1.5})
    fig.add_annotation(
        x=current.t[-1],
        y=current.asymptote,
        text="+√(3/2)",
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
        font={"color": RED},
    )
    fig.add_annotation(
        x=current.t[0],
        y=-current.asymptote,
        text="−√(3/2)",
        showarrow=False,
        xanchor="left",
        yanchor="top",
        font={"color": RED},
    )
    layout(fig, title="Third core coordinate of (−t, 0, t)", x="t", y=H_LABEL)
    fig.update_yaxes(range=[-1.45, 1.45])
    return fig.figure()


def h_alt(current: Family, others: Sequence[Family]) -> str:
    rest = ", ".join(eps_label(f.eps) for f in others)
    i = int(np.searchsorted(current.t, 1.0))
    return (
        f"Line chart of h_ε(t) = t / sqrt(2t²/3 + ε) for t from {short(current.t[0])} to "
        f"{short(current.t[-1])} at ε = {eps_label(current.eps)}, rising through 0 at t = 0 "
        f"(h at t = 1 is {short(float(current.h[i]))}) and levelling off towards the dashed lines "
        f"at ±{short(current.asymptote)}. Faint comparison curves for ε = {rest}."
    )


H = Chart(h_figure, h_alt)


def dh_figure(current: Family, others: Sequence[Family]) -> go.Figure:
    """h'_eps(t) on a log axis: a peak of height eps^(-1/2) at t = 0."""
    fig = _curves(current, others, "dh", DH_LABEL, ORANGE)
    fig.add_scatter(
        x=[0.0],
        y=[current.peak_slope],
        mode="markers+text",
        text=[peak_text(current.peak_slope)],  # two short lines: fits a phone
        textposition="top right",
        cliponaxis=False,
        marker={"color": ORANGE, "size": 9},
        showlegend=False,
    )
    layout(
        fig, title=f"Its slope {DH_LABEL} = ε / (2t²/3 + ε)<sup>3/2</sup>", x="t",
        y=f"{DH_LABEL} (log scale)",
    )  # fmt: skip
    fig.update_yaxes(type="log", exponentformat="power")
    return fig.figure()


def dh_alt(current: Family, others: Sequence[Family]) -> str:
    return (
        f"Line chart, log vertical axis, of the slope h′_ε(t) at ε = {eps_label(current.eps)}: "
        f"a single peak of height ε^(−1/2) = {short(current.peak_slope)} at t = 0, falling to "
        f"{short(float(current.dh[-1]))} at t = {short(current.t[-1])}. "
        f"Faint curves for ε = {', '.join(eps_label(f.eps) for f in others)}."
    )


DH = Chart(dh_figure, dh_alt)


def variance_figure(ratio_grid: np.ndarray, ratio: np.ndarray, q_over_eps: float) -> go.Figure:
    """q / (q + eps) against q / eps, with q = eps (value 1/2) and the current input marked."""
    fig = FigureSpec()
    fig.add_scatter(
        x=r(ratio_grid),
        y=r(ratio),
        mode="lines",
        name="q / (q + ε)",
        line={"color": BLUE, "width": 3},
    )
    fig.add_scatter(
        x=[1.0],
        y=[0.5],
        mode="markers+text",
        text=["q = ε → 1/2"],
        textposition="middle right",
        marker={"color": RED, "size": 10},
        name="q = ε",
    )
    if q_over_eps > 0:
        y = q_over_eps / (q_over_eps + 1)
        fig.add_scatter(
            x=[q_over_eps],
            y=[y],
            mode="markers",
            name="your z",
            marker={"color": GREEN, "size": 12, "symbol": "diamond"},
        )
    layout(fig, title="Variance of the core", x="q / ε (log scale)", y="variance of u_ε(z)")
    legend_below(fig, -0.25)
    fig.update_xaxes(type="log", exponentformat="power")
    fig.update_yaxes(range=[0, 1.05])
    return fig.figure()


def variance_alt(ratio_grid: np.ndarray, ratio: np.ndarray, q_over_eps: float) -> str:
    where = (
        f"The current input, with q/ε = {short(q_over_eps)}, sits at "
        f"{short(q_over_eps / (q_over_eps + 1))}."
        if q_over_eps > 0
        else "The current input is constant (q = 0), so its core variance is 0."
    )
    return (
        "S-shaped curve of the core variance q/(q+ε) against q/ε on a log axis: near 0 "
        "when q is much smaller than ε, exactly 1/2 at q = ε (marked), and approaching 1 "
        "when q is much larger. " + where
    )


VARIANCE = Chart(variance_figure, variance_alt)


def scaling_figure(s: Scaling) -> go.Figure:
    """u_eps(z), u_eps(a z) and u_{eps/a^2}(z) per coordinate."""
    idx = [f"coordinate {i + 1}" for i in range(s.core_z.size)]
    fig = FigureSpec()
    scaling_traces(fig, idx, (s.core_z, s.core_az, s.core_rescaled_eps), s.a)
    layout(fig, title="Scaling the input moves ε instead", x="", y="core value", height=400)
    fig.update_layout(barmode="group")
    return legend_below(fig, -0.12).figure()


def scaling_alt(s: Scaling) -> str:
    bars = scaling_text(s.core_z, s.core_az, s.a, s.eps)
    return (
        f"{bars} they differ by up to {short(s.change)}. Crosses mark u_(ε/a²)(z), which "
        f"coincides with u_ε(a·z) up to {short(s.identity_error)}."
    )


SCALING = Chart(scaling_figure, scaling_alt)


def jacobian_figure(spec: Spectrum) -> go.Figure:
    """Heatmap of Du_eps(z), symmetric colour scale around 0, values written in cells."""
    lim = float(np.abs(spec.matrix).max()) or 1.0
    small = spec.matrix.shape[0] <= 8  # entries written in the cells
    text = [[short(v, 3) for v in row] for row in spec.matrix] if small else None
    fig = matrix_heatmap(spec.matrix, text, lim, colorbar={"title": {"text": "∂u_i/∂z_j"}})
    layout(fig, title="Jacobian Du<sub>ε</sub>(z)", x="input coordinate j", y="output coordinate i")
    return fig.figure()


def jacobian_alt(spec: Spectrum) -> str:
    return (
        f"Heatmap of the {spec.matrix.shape[0]}×{spec.matrix.shape[0]} Jacobian at z = "
        f"{short_vector(spec.z)}, ε = {short(spec.eps)}: diagonal entries "
        f"{short_vector(np.diag(spec.matrix), 3)}, entries from "
        f"{short(float(spec.matrix.min()), 3)} to {short(float(spec.matrix.max()), 3)}, "
        "symmetric about the diagonal."
    )


JACOBIAN = Chart(jacobian_figure, jacobian_alt)


def eigen_figure(spec: Spectrum) -> go.Figure:
    """Eigenvalues by labelled direction, against the bound eps^(-1/2)."""
    colors = {"common offset": GRAY, "radial": ORANGE, "tangential": BLUE}
    fig = FigureSpec()
    for direction in spec.directions:
        k = direction.basis.shape[1]
        fig.add_bar(
            x=[f"{direction.label} (×{k})" if k > 1 else direction.label],
            y=[direction.value],
            name=direction.label,
            marker_color=colors[direction.label],
            text=[short(direction.value)],
            textposition="outside",
            showlegend=False,
        )
    if np.isfinite(spec.core_bound):
        label = bound_text(spec.core_bound)
        hline(fig, spec.core_bound, {"dash": "dash", "color": RED}, label)
    layout(fig, title="Eigenvalues of Du<sub>ε</sub>(z)", x="eigen-direction", y="eigenvalue")
    top = max(spec.core_bound if np.isfinite(spec.core_bound) else 0, spec.operator_norm)
    fig.update_yaxes(range=[0, 1.25 * top if top > 0 else 1])
    return fig.figure()


def eigen_alt(spec: Spectrum) -> str:
    parts = "; ".join(
        f"{d.label}: {short(d.value)} (multiplicity {d.basis.shape[1]})" for d in spec.directions
    )
    return (
        f"Bar chart of the Jacobian's eigenvalues by direction — {parts} — against the "
        f"dashed bound ε^(−1/2) = {short(spec.core_bound)}; operator norm "
        f"{short(spec.operator_norm)}."
    )


EIGEN = Chart(eigen_figure, eigen_alt)
