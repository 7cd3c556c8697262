"""Figures of the weighted-centering page: the plane and space pictures, f(c), and P_a."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import short
from lnviz.content.text import short_vector as vec
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, PURPLE
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, matrix_heatmap, r
from lnviz.weighted import ConstantFit, ProjectionChecks, ProjectionView, WeightedCentering

_POINTS = (  # (label, hover name, colour, marker symbol) of the drawn points
    ("x", "x (your point)", ORANGE, "circle"),
    ("Pₐx", "Pₐx: along 𝟏 onto the line", GREEN, "diamond"),
    ("Euclidean", "Euclidean projection", PURPLE, "square"),
)


def _entry(v: float, digits: int) -> str:
    """A matrix entry; -0 is shown as 0."""
    return short(float(v) + 0.0, digits)


def _points(result: WeightedCentering) -> list[np.ndarray]:
    return [result.x, result.centered, result.euclidean]


def _line(
    fig: FigureSpec, points: np.ndarray, name: str, color: str, width: float, dash: str = ""
) -> None:
    """A line through the rows of points (m, 2) or (m, 3), in the plane or in space; no hover."""
    coords = {axis: r(points[:, i]) for i, axis in enumerate("xyz"[: points.shape[1]])}
    line = {"color": color, "width": width, **({"dash": dash} if dash else {})}
    add = fig.add_scatter if points.shape[1] == 2 else fig.add_scatter3d
    add(**coords, mode="lines", name=name, line=line, hoverinfo="skip")


def _euclidean_path(result: WeightedCentering) -> np.ndarray:
    """From x to its Euclidean projection, (2, n)."""
    return np.stack([result.x, result.euclidean])


def plane_figure(result: WeightedCentering, view: ProjectionView) -> go.Figure:
    """n = 2: ker a^T, the line through x along 1, x, P_a x and the Euclidean projection."""
    assert view.kernel_line is not None and view.mean_zero_line is not None
    fig = FigureSpec()
    _line(fig, view.mean_zero_line, "ordinary mean 0 (usual centering)", GRAY, 1.5, "dot")
    _line(fig, view.kernel_line, "ker aᵀ: weighted mean 0", BLUE, 3)
    _line(fig, view.ones_line, "x + t𝟏: the direction 𝟏", GREEN, 1.5, "dash")
    _line(fig, _euclidean_path(result), "shortest Euclidean path", PURPLE, 1.5, "dot")
    # labels sit on short arrows (pixel offsets): right of x, up-left of P_a x (above the
    # line), below the Euclidean point, so they stay apart wherever the points are
    offsets = ((26, 0), (-34, -30), (0, 34))
    for (label, name, color, symbol), p, (ax, ay) in zip(
        _POINTS, _points(result), offsets, strict=True
    ):
        fig.add_scatter(
            x=r(p[:1]),
            y=r(p[1:]),
            mode="markers",
            name=name,
            text=[label],
            marker={"color": color, "size": 12, "symbol": symbol},
            hovertemplate=f"{label} = (%{{x}}, %{{y}})<extra></extra>",
            cliponaxis=False,
            showlegend=False,
        )
        fig.add_annotation(
            x=float(p[0]),
            y=float(p[1]),
            text=label,
            ax=ax,
            ay=ay,
            showarrow=True,
            arrowhead=0,
            arrowwidth=1,
            arrowcolor=color,
            standoff=6,
            font={"color": color, "size": 14},
        )
    fig.add_scatter(
        x=[0.0],
        y=[0.0],
        mode="markers",
        name="origin",
        marker={"color": GRAY, "size": 7},
        showlegend=False,
        hoverinfo="skip",
    )
    layout(fig, title="Centering moves x along 𝟏, not at a right angle", x="x₁", y="x₂", height=520)
    legend_below(fig, -0.16).update_layout(margin={"t": 40})
    fig.update_xaxes(range=[-view.half, view.half], zeroline=True, constrain="domain")
    fig.update_yaxes(range=[-view.half, view.half], zeroline=True, scaleanchor="x", scaleratio=1)
    return fig.figure()


def plane_alt(result: WeightedCentering, view: ProjectionView) -> str:
    return (
        f"Plane plot, equal scales, x₁ and x₂ from {short(-view.half)} to {short(view.half)}. "
        f"A solid line through the origin is ker aᵀ for a = {vec(result.a)}. The point "
        f"x = {vec(result.x)} moves along a dashed line of slope 1 (the direction 𝟏) to "
        f"Pₐx = {vec(result.centered)} on that line, a step of aᵀx = {short(result.c)} in every "
        f"coordinate. A dotted segment drops perpendicularly from x to the Euclidean "
        f"projection {vec(result.euclidean)}. A faint dotted line marks the vectors with "
        f"ordinary mean 0; Pₐx has ordinary mean {short(result.ordinary_mean)}."
    )


PLANE = Chart(plane_figure, plane_alt)


def space_figure(result: WeightedCentering, view: ProjectionView) -> go.Figure:
    """n = 3: the plane ker a^T as a patch, the line along 1 through x, and the three points."""
    assert view.plane is not None
    corners = view.plane
    fig = FigureSpec()
    fig.add_mesh3d(
        x=r(corners[:, 0]),
        y=r(corners[:, 1]),
        z=r(corners[:, 2]),
        i=[0, 0],
        j=[1, 2],
        k=[2, 3],
        color=BLUE,
        opacity=0.35,
        name="ker aᵀ: weighted mean 0",
        showlegend=True,
        hoverinfo="skip",
    )
    _line(fig, view.ones_line, "x + t𝟏: the direction 𝟏", GREEN, 4, "dash")
    _line(fig, _euclidean_path(result), "shortest Euclidean path", PURPLE, 6, "dot")
    positions = ("top center", "top center", "bottom center")
    for (label, name, color, symbol), p, pos in zip(
        _POINTS, _points(result), positions, strict=True
    ):
        fig.add_scatter3d(
            x=r(p[:1]),
            y=r(p[1:2]),
            z=r(p[2:]),
            mode="markers+text",
            name=name,
            text=[label],
            textposition=pos,
            textfont={"color": color, "size": 13},
            marker={"color": color, "size": 6, "symbol": symbol},
            hovertemplate=f"{label} = (%{{x}}, %{{y}}, %{{z}})<extra></extra>",
            showlegend=False,
        )
    axis = {"range": [-view.half, view.half], "zeroline": True}
    layout(fig, title="The plane ker aᵀ and the step along 𝟏", x="", y="", height=500)
    fig.update_layout(
        scene={
            "xaxis": {**axis, "title": {"text": "x₁"}},
            "yaxis": {**axis, "title": {"text": "x₂"}},
            "zaxis": {**axis, "title": {"text": "x₃"}},
            "aspectmode": "cube",
            "camera": {"eye": {"x": 1.5, "y": -1.5, "z": 0.9}},
        },
        legend={"y": 0, "yanchor": "top"},
        margin={"l": 0, "r": 0, "t": 40, "b": 10},
    )
    return fig.figure()


def space_alt(result: WeightedCentering, view: ProjectionView) -> str:
    return (
        f"3-D view, equal scales from {short(-view.half)} to {short(view.half)} on each axis. "
        f"A translucent square is part of the plane ker aᵀ for a = {vec(result.a)}. The point "
        f"x = {vec(result.x)} moves along a dashed line in the direction (1, 1, 1) to "
        f"Pₐx = {vec(result.centered)} in the plane (step aᵀx = {short(result.c)}); a dotted "
        f"segment meets the plane at right angles at the Euclidean projection "
        f"{vec(result.euclidean)}."
    )


SPACE = Chart(space_figure, space_alt)


def objective_figure(fit: ConstantFit) -> go.Figure:
    """f(c) = sum_i a_i (x_i - c)^2 with its minimum and the ordinary mean marked."""
    fig = FigureSpec()
    fig.add_scatter(
        x=r(fit.grid),
        y=r(fit.values),
        mode="lines",
        name="f(c) = Σ aᵢ (xᵢ − c)²",
        line={"color": BLUE, "width": 3},
    )
    marks = (  # (c, f(c), label, its position, colour, marker, legend name)
        (fit.ordinary_mean, fit.at_ordinary_mean, f"ordinary mean {short(fit.ordinary_mean)}",
         "middle right", ORANGE, {"size": 11, "symbol": "circle-open", "line": {"width": 3}},
         "ordinary mean of x"),
        (fit.c, fit.minimum, f"minimum at c = {short(fit.c)}",
         "bottom center", GREEN, {"size": 13, "symbol": "diamond"}, "minimum: c = aᵀx"),
    )  # fmt: skip
    for c, f, label, position, color, marker, name in marks:
        fig.add_scatter(
            x=r(np.array([c])),
            y=r(np.array([f])),
            mode="markers+text",
            text=[label],
            textposition=position,
            textfont={"color": color},
            marker={"color": color, **marker},
            name=name,
        )
    layout(
        fig,
        title="Weighted squared error of a constant fit",
        x="constant c",
        y="f(c) = Σ aᵢ(xᵢ − c)²",
    )
    fig.update_layout(showlegend=False)
    fig.update_traces(cliponaxis=False)
    return fig.figure()


def objective_alt(fit: ConstantFit) -> str:
    return (
        f"Parabola of f(c) = Σ aᵢ (xᵢ − c)² for c from {short(float(fit.grid[0]))} to "
        f"{short(float(fit.grid[-1]))}. Its lowest point, marked, is at c = {short(fit.c)} with "
        f"f = {short(fit.minimum)}; the ordinary mean {short(fit.ordinary_mean)} is also marked, "
        f"where f = {short(fit.at_ordinary_mean)}."
    )


OBJECTIVE = Chart(objective_figure, objective_alt)


def matrix_figure(checks: ProjectionChecks) -> go.Figure:
    """Heatmap of P_a with its entries written in the cells."""
    text = [[_entry(v, 3).replace("-", "−") for v in row] for row in checks.matrix]
    fig = matrix_heatmap(checks.matrix, text, 1.0, textfont={"size": 16}, showscale=False)
    layout(fig, title=f"Pₐ = I − 𝟏aᵀ for a = {vec(checks.a, 3)}", x="column j", y="row i")
    return fig.figure()


def matrix_alt(checks: ProjectionChecks) -> str:
    rows = "; ".join(vec(row, 3) for row in checks.matrix)
    return (
        f"Heatmap of the {checks.n}×{checks.n} matrix Pₐ for a = {vec(checks.a, 3)}, rows "
        f"{rows}. Each row i is the unit vector eᵢ minus aᵀ, so every row sums to 0; "
        + ("it is symmetric." if checks.symmetric else "it is not symmetric.")
    )


MATRIX = Chart(matrix_figure, matrix_alt)


def matrix_latex(m: np.ndarray, digits: int = 4) -> str:
    """A matrix as a LaTeX bmatrix with short numbers."""
    rows = [" & ".join(_entry(v, digits) for v in row) for row in m]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"
