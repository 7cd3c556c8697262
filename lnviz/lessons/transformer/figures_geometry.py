"""Figures of "Inside a transformer", geometry: the sphere, and layer norm against tanh."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, GRAY, ORANGE, PURPLE, RED
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, num, r
from lnviz.lessons.transformer.sphere import SphereView
from lnviz.lessons.transformer.tanh_fit import TanhFit

SCATTER_MAX = 4000  # points of the tanh scatter sent to the browser


def sphere_figure(view: SphereView) -> go.Figure:
    """d = 3: each stage of layer norm in 3-D; d > 3: inputs and cores in one fixed 2-D plane."""
    d = view.z.shape[1]
    fig = FigureSpec()
    if d == 3:
        sets = (
            ("inputs z", view.z, GRAY, 3),
            ("centred z − mean 𝟏", view.centred, PURPLE, 3),
            ("core u (layer norm)", view.core, BLUE, 4),
            ("output γ·u + β", view.output, ORANGE, 4),
        )
        for name, pts, color, size in sets:
            fig.add_scatter3d(
                x=r(pts[:, 0]), y=r(pts[:, 1]), z=r(pts[:, 2]), mode="markers", name=name,
                marker={"color": color, "size": size},
            )  # fmt: skip
        for name, curve, color in (
            ("circle of radius √3 in 𝟏⊥", view.circle, BLUE),
            ("the circle's image under γ", view.ellipse, ORANGE),
        ):
            fig.add_scatter3d(
                x=r(curve[:, 0]), y=r(curve[:, 1]), z=r(curve[:, 2]), mode="lines", name=name,
                line={"color": color, "width": 4}, hoverinfo="skip",
            )  # fmt: skip
        layout(fig, title="Layer norm puts tokens on a circle", x="", y="", height=500)
        fig.update_layout(
            scene={"aspectmode": "data", "camera": {"eye": {"x": 1.05, "y": 1.05, "z": 0.75}}},
            margin={"l": 0, "r": 0, "t": 40, "b": 10},
        )
        return legend_below(fig, 0.0).figure()
    plane = view.basis
    for name, pts, color in (
        ("inputs z (= centred z)", view.plane_input, GRAY),
        ("core u (layer norm)", view.plane_core, BLUE),
    ):
        fig.add_scatter(
            x=r(pts[:, 0]), y=r(pts[:, 1]), mode="markers", name=name,
            marker={"color": color, "size": 6},
        )  # fmt: skip
    circle = view.circle @ plane  # (K, 2)
    fig.add_scatter(
        x=r(circle[:, 0]), y=r(circle[:, 1]), mode="lines", name=f"radius √{d}",
        line={"color": BLUE, "width": 1.5, "dash": "dash"}, hoverinfo="skip",
    )  # fmt: skip
    layout(fig, title=f"Tokens projected onto a plane of 𝟏⊥ in ℝ^{d}", x="along (1, −1, 0, …)/√2",
           y="along (1, 1, −2, 0, …)/√6")  # fmt: skip
    fig.update_yaxes(scaleanchor="x")
    return legend_below(fig).figure()


def sphere_alt(view: SphereView) -> str:
    """What the chart shows; the gain only at d = 3, the one width with a gain control."""
    d = view.z.shape[1]
    inside = int(view.pulled_in.sum())
    where = (
        "a 3-D view"
        if d == 3
        else f"a projection onto one plane inside the plane orthogonal to 1 in ℝ^{d}"
    )
    text = (
        f"{where.capitalize()} of {view.z.shape[0]} tokens: after centring they lie in the "
        f"plane orthogonal to (1, …, 1); layer norm with ε = {num(view.eps)} puts their cores "
        f"at radius up to √{d} = {num(view.sphere_radius)} (from "
        f"{num(float(view.radius.min()))} to {num(float(view.radius.max()))}); {inside} "
        "tokens of small variance sit visibly inside."
    )
    if d != 3:
        return text
    a, b = (num(float(x)) for x in view.semi_axes)
    image = {
        "point": "a single point",
        "segment": f"a segment of half-length {a}",
        "circle": f"a circle of radius {a}",
        "ellipse": f"an ellipse with semi-axes {a} and {b}",
    }[view.image_shape]
    return text + f" The gain γ maps the circle onto {image}."


SPHERE = Chart(sphere_figure, sphere_alt)


def tanh_figure(fit: TanhFit) -> go.Figure:
    """Every element (x, LN(x)), outliers apart, and the fitted gamma * tanh(alpha x) + beta."""
    xf, yf, of = fit.x.ravel(), fit.y.ravel(), fit.outlier.ravel()
    step = max(1, xf.size // SCATTER_MAX)
    keep = np.zeros(xf.size, bool)
    keep[::step] = True
    keep |= of  # every outlier is shown
    fig = FigureSpec()
    for mask, name, color in ((keep & ~of, "ordinary entries", BLUE), (keep & of, "outliers", RED)):
        fig.add_scatter(
            x=r(xf[mask]), y=r(yf[mask]), mode="markers", name=name,
            marker={"color": color, "size": 4, "opacity": 0.5},
            hovertemplate="x = %{x:.3g}, LN(x) = %{y:.3g}<extra></extra>",
        )  # fmt: skip
    grid = np.linspace(float(xf.min()), float(xf.max()), 301)
    fig.add_scatter(
        x=r(grid),
        y=r(fit.gamma * np.tanh(fit.alpha * grid) + fit.beta),
        mode="lines",
        name=_curve(fit),
        line={"color": ORANGE, "width": 3},
    )
    layout(fig, title="Layer norm per element, against a tanh", x="input x", y="output LN(x)")
    return legend_below(fig).figure()


def _curve(fit: TanhFit) -> str:
    """The fitted curve's formula, 'γ·tanh(α·x) ± β' with its numbers (legend and alt text)."""
    sign = "−" if fit.beta < 0 else "+"
    return f"{num(fit.gamma, 3)}·tanh({num(fit.alpha, 3)}·x) {sign} {num(abs(fit.beta), 2)}"


def tanh_alt(fit: TanhFit) -> str:
    T, d = fit.x.shape
    return (
        f"Scatter of all {T * d} elements of {T} tokens of width {d}, input against layer-norm "
        f"output, {int(fit.outlier.sum())} of them outliers, with the fitted curve "
        f"{_curve(fit)}. The curve explains r² = {num(fit.r2, 3)} of the variance (a straight "
        f"line {num(fit.linear_r2, 3)}); the rest, RMS {num(fit.rms_residual, 3)}, is the "
        f"spread of the per-token lines, since layer norm divides each token by its own σ."
    )


TANH = Chart(tanh_figure, tanh_alt)
