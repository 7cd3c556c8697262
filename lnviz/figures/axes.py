"""Figures of the reduction-axes page: which entries share one statistic."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from lnviz.axes import SCHEME_INFO, Reduction
from lnviz.content.axes_text import output_name
from lnviz.content.text import short
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import DIVERGING, GRAY, QUALITATIVE, discrete_scale, layout, r

AXES = ("batch", "token", "feature")


def label_heatmap(red: Reduction, **kwargs: object) -> dict[str, object]:
    """Statistic groups unfolded to (batch·token) rows × feature columns, a colour per group.

    The heatmap trace's properties (for FigureSpec.add_heatmap or go.Heatmap).
    """
    bsz, tsz, fsz = red.x.shape
    labels = red.labels.reshape(bsz * tsz, fsz)  # (B*T, F)
    n = min(red.group_count, len(QUALITATIVE))
    style: dict[str, object] = {"showscale": False, "xgap": 1, "ygap": 1}
    return {
        "z": (labels % len(QUALITATIVE)).tolist(),
        "customdata": labels.tolist(),
        "colorscale": discrete_scale(n),
        "zmin": -0.5,
        "zmax": n - 0.5,
        **style,
        **kwargs,
    }


def _palette(labels: np.ndarray) -> np.ndarray:
    """One colour per statistic group (cycling the qualitative palette)."""
    return np.array(QUALITATIVE, dtype=object)[labels % len(QUALITATIVE)]


def cube_figure(red: Reduction, entry: tuple[int, int, int]) -> go.Figure:
    """The tensor as a 3-D block of points, one colour per group, the chosen group opaque."""
    b, t, f = np.indices(red.x.shape)  # (B, T, F) each
    chosen = red.members(*entry).ravel()  # (B*T*F,)
    colors = _palette(red.labels.ravel())
    custom = np.column_stack([b.ravel(), t.ravel(), f.ravel(), red.labels.ravel()])
    size = int(np.clip(22 - 2.2 * np.log2(red.x.size), 5, 16))
    fig = FigureSpec()
    for mask, name, opacity, scale in (
        (~chosen, "other groups", 0.28, 1.0),
        (chosen, f"group of entry {entry}", 1.0, 1.25),
    ):
        if not mask.any():
            continue
        fig.add_scatter3d(
            x=f.ravel()[mask],
            y=t.ravel()[mask],
            z=b.ravel()[mask],
            mode="markers",
            name=name,
            opacity=opacity,
            customdata=custom[mask],
            marker={
                "size": size * scale,
                "symbol": "square",
                "color": colors[mask].tolist(),
                "line": {"width": 0},
            },
            hovertemplate="batch %{customdata[0]}, token %{customdata[1]}, feature "
            "%{customdata[2]}<br>group %{customdata[3]}<extra></extra>",
        )
    fig.add_scatter3d(
        x=[entry[2]],
        y=[entry[1]],
        z=[entry[0]],
        mode="markers",
        name="chosen entry",
        marker={"size": size * 1.6, "symbol": "diamond-open", "color": GRAY, "line": {"width": 4}},
        hoverinfo="skip",
    )
    name = SCHEME_INFO[red.scheme][0]
    layout(
        fig,
        title=f"{name}: {red.group_count} statistic groups of {red.group_size} entries",
        x="",
        y="",
        height=520,
    )
    axis = {"showbackground": False, "dtick": 1 if max(red.x.shape) <= 16 else 4}
    fig.update_layout(
        scene={
            "xaxis": {"title": {"text": "feature"}, **axis},
            "yaxis": {"title": {"text": "token"}, **axis},
            "zaxis": {"title": {"text": "batch"}, **axis},
            "aspectmode": "data" if max(red.x.shape) <= 3 * min(red.x.shape) else "cube",
            "camera": {"eye": {"x": 1.6, "y": -1.6, "z": 1.0}},
        },
        margin={"l": 0, "r": 0, "t": 60, "b": 0},
    )
    return fig.figure()


def cube_alt(red: Reduction, entry: tuple[int, int, int]) -> str:
    g = int(red.labels[entry])
    size = int(red.members(*entry).sum())
    return (
        f"3-D view of a {'×'.join(map(str, red.x.shape))} (batch, token, feature) tensor under "
        f"{SCHEME_INFO[red.scheme][0].lower()}: {red.group_count} statistic groups, each of "
        f"{red.group_size} entries and its own colour. Entry (batch {entry[0]}, token "
        f"{entry[1]}, feature {entry[2]}) belongs to group {g}, highlighted with its {size} "
        f"entries; reduction over {' and '.join(red.reduce_axes)}."
    )


CUBE = Chart(cube_figure, cube_alt)


def _row_names(shape: tuple[int, ...]) -> list[str]:
    return [f"b{b}·t{t}" for b in range(shape[0]) for t in range(shape[1])]


def unfolded_figure(red: Reduction, which: str) -> go.Figure:
    """Heatmap of the tensor unfolded to rows (batch, token) × columns (feature).

    which: "labels" (statistic groups as colours), "input" or "output" (values).
    """
    bsz, tsz, fsz = red.x.shape
    rows = _row_names(red.x.shape)
    cols = [str(k) for k in range(fsz)]
    labels = red.labels.reshape(bsz * tsz, fsz)  # (B*T, F)
    if which == "labels":
        trace = label_heatmap(
            red,
            x=cols,
            y=rows,
            hovertemplate="%{y}, feature %{x}: group %{customdata}<extra></extra>",
        )
        title = "Statistic groups (one colour per group)"
    else:
        values = (red.x if which == "input" else red.output).reshape(bsz * tsz, fsz)
        lim = float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0
        trace = {
            "z": r(values, 4),
            "x": cols,
            "y": rows,
            "colorscale": DIVERGING,
            "zmid": 0,
            "zmin": -lim,
            "zmax": lim,
            "customdata": labels.tolist(),
            "xgap": 1,
            "ygap": 1,
            "colorbar": {"thickness": 12},
            "hovertemplate": "%{y}, feature %{x}: %{z}<br>group %{customdata}<extra></extra>",
        }
        title = "Input x" if which == "input" else f"Output {output_name(red)}"
    fig = FigureSpec().add_trace("heatmap", trace)
    layout(
        fig,
        title=title,
        x="feature",
        y="(batch, token)",
        height=int(min(720, 140 + 18 * bsz * tsz)),
    )
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category")
    return fig.figure()


def unfolded_alt(red: Reduction, which: str) -> str:
    bsz, tsz, fsz = red.x.shape
    if which == "labels":
        return (
            f"Grid of {bsz * tsz} rows (batch, token) by {fsz} feature columns coloured by "
            f"statistic group under {SCHEME_INFO[red.scheme][0].lower()}: {red.group_count} "
            f"groups reducing over {' and '.join(red.reduce_axes)}."
        )
    values = red.x if which == "input" else red.output
    return (
        f"Heatmap of the {which} values, {bsz * tsz} rows (batch, token) by {fsz} features, "
        f"ranging from {short(float(np.nanmin(values)))} to {short(float(np.nanmax(values)))}."
    )


UNFOLDED = Chart(unfolded_figure, unfolded_alt)


def schemes_figure(reductions: Mapping[str, Reduction]) -> go.Figure:
    """Small multiples: the statistic groups of every scheme on the same tensor."""
    items = list(reductions.items())
    ncols = 2
    nrows = -(-len(items) // ncols)
    titles = [f"{SCHEME_INFO[k][0]} · {v.group_count} groups" for k, v in items]
    fig = FigureSpec.subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.06,
        vertical_spacing=0.12 / max(1, nrows - 1) + 0.04,
    )
    for i, (_, red) in enumerate(items):
        fig.add_trace(
            "heatmap",
            label_heatmap(
                red, hovertemplate="row %{y}, feature %{x}: group %{customdata}<extra></extra>"
            ),
            row=i // ncols + 1,
            col=i % ncols + 1,
        )
    fig.update_yaxes(autorange="reversed", showticklabels=False)
    fig.update_xaxes(showticklabels=False)
    layout(
        fig,
        title="All schemes on the same tensor (rows: batch·token, columns: feature)",
        x="",
        y="",
        height=240 * nrows + 60,
    )
    return fig.figure()


def schemes_alt(reductions: Mapping[str, Reduction]) -> str:
    parts = "; ".join(
        f"{SCHEME_INFO[k][0]}: {v.group_count} groups of {v.group_size}"
        for k, v in reductions.items()
    )
    return "Six small grids comparing the statistic groups of each scheme. " + parts + "."


SCHEMES = Chart(schemes_figure, schemes_alt)
