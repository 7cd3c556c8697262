"""Figures of the reduction-axes page: which entries share one statistic."""

from __future__ import annotations

from collections.abc import Mapping
from textwrap import wrap

import numpy as np
import plotly.graph_objects as go

from lnviz.axes import SCHEME_INFO, Reduction
from lnviz.content.text import short
from lnviz.figures._palette import GRAY, QUALITATIVE, discrete_scale, diverging
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, r
from lnviz.lessons.reduction_axes.notes import output_name

AXES = ("batch", "token", "feature")


def label_heatmap(red: Reduction, **kwargs: object) -> dict[str, object]:
    """Heatmap trace properties: groups on (batch·token) × feature cells, a colour per group."""
    bsz, tsz, fsz = red.x.shape
    labels = red.labels.reshape(bsz * tsz, fsz)  # (B*T, F)
    n = min(red.group_count, len(QUALITATIVE))
    style: dict[str, object] = {"showscale": False, "xgap": 1, "ygap": 1}
    style["texttemplate"] = "%{customdata}"  # each cell's group by number, not colour alone
    return {
        "z": (labels % len(QUALITATIVE)).astype(np.int32),
        "customdata": labels.astype(np.int32),
        "colorscale": discrete_scale(n),
        "zmin": -0.5,
        "zmax": n - 0.5,
        **style,
        **kwargs,
    }


def _palette(labels: np.ndarray) -> np.ndarray:
    """One colour per statistic group (cycling the qualitative palette)."""
    return np.array(QUALITATIVE, dtype=object)[labels % len(QUALITATIVE)]


BLOCKS_FROM = 512  # entries: from this size on, the groups are drawn as outlined blocks
# the 12 edges of a box, as pairs of its corners numbered x + 2y + 4z (each 0 or 1)
_EDGES = ((0, 1), (1, 3), (3, 2), (2, 0), (4, 5), (5, 7), (7, 6), (6, 4),
          (0, 4), (1, 5), (2, 6), (3, 7))  # fmt: skip


def _boxes(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Each box's 12 edges as one line trace's points (G·36, 3), NaN between edges."""
    bits = (np.arange(8)[:, None] >> np.arange(3)) & 1  # (8, 3): corner k = x + 2y + 4z
    corners = np.where(bits[None], hi[:, None], lo[:, None])  # (G, 8, 3)
    ends = corners[:, np.array(_EDGES)]  # (G, 12, 2, 3)
    gaps = np.full((*ends.shape[:2], 1, 3), np.nan)  # (G, 12, 1, 3)
    return np.concatenate([ends, gaps], axis=2).reshape(-1, 3).astype(np.float32)


def _group_boxes(red: Reduction) -> tuple[np.ndarray, np.ndarray]:
    """Each group's lower and upper faces (G, 3), in (feature, token, batch) order, index ± 0.5."""
    b, t, f = np.indices(red.x.shape)  # (B, T, F) each
    coords = np.stack([f.ravel(), t.ravel(), b.ravel()], axis=1)  # (N, 3)
    labels = red.labels.ravel()  # (N,)
    lo = np.full((red.group_count, 3), np.inf)
    hi = np.full((red.group_count, 3), -np.inf)
    np.minimum.at(lo, labels, coords)
    np.maximum.at(hi, labels, coords)
    return lo - 0.5, hi + 0.5


def _points(fig: FigureSpec, red: Reduction, entry: tuple[int, int, int], size: int) -> None:
    """Small tensors: every entry a point, one colour per group, the chosen group opaque."""
    b, t, f = np.indices(red.x.shape)  # (B, T, F) each
    chosen = red.members(*entry).ravel()  # (B*T*F,)
    colors = _palette(red.labels.ravel())
    custom = np.column_stack([b.ravel(), t.ravel(), f.ravel(), red.labels.ravel()])
    for mask, name, opacity, scale, symbol in (
        (~chosen, "other groups", 0.28, 1.0, "square-open"),  # open: not the group asked
        (chosen, f"group of entry {entry}", 1.0, 1.25, "square"),
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
                "symbol": symbol,
                "color": colors[mask].tolist(),
                "line": {"width": 0},
            },
            hovertemplate="batch %{customdata[0]}, token %{customdata[1]}, feature "
            "%{customdata[2]}<br>group %{customdata[3]}<extra></extra>",
        )


def _blocks(fig: FigureSpec, red: Reduction, entry: tuple[int, int, int]) -> None:
    """Groups as outlined blocks, the entry's solid: thousands of points would read as noise."""
    lo, hi = _group_boxes(red)
    g = int(red.labels[entry])
    others = np.arange(red.group_count) != g
    xyz = _boxes(lo[others], hi[others])
    fig.add_scatter3d(
        x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], mode="lines", name="other groups (outlines)",
        hoverinfo="skip", line={"color": GRAY, "width": 1}, opacity=0.45,
    )  # fmt: skip
    (x0, y0, z0), (x1, y1, z1) = lo[g].tolist(), hi[g].tolist()
    color = QUALITATIVE[g % len(QUALITATIVE)]
    fig.add_trace(
        "mesh3d",
        {
            "x": [x0, x1, x0, x1, x0, x1, x0, x1],
            "y": [y0, y0, y1, y1, y0, y0, y1, y1],
            "z": [z0, z0, z0, z0, z1, z1, z1, z1],
            "i": [0, 3, 4, 7, 0, 5, 2, 7, 0, 6, 1, 7],
            "j": [1, 2, 5, 6, 1, 4, 3, 6, 2, 4, 3, 5],
            "k": [3, 0, 7, 4, 5, 0, 7, 2, 6, 0, 7, 1],
            "color": color,
            "opacity": 0.55,
            "flatshading": True,
            "name": f"group of entry {entry}",
            "showlegend": True,
            "hovertemplate": f"group {g}: {red.group_size} entries<extra></extra>",
        },
    )
    xyz = _boxes(lo[[g]], hi[[g]])
    fig.add_scatter3d(
        x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], mode="lines", showlegend=False, hoverinfo="skip",
        line={"color": color, "width": 5},
    )  # fmt: skip


CAMERA_ASPECT = 0.85  # width / height of the 3-D scene the camera is set for: a 390 px phone
CAMERA_EYE = {"x": 1.45, "y": -1.8, "z": 1.15}


def _aspect(shape: tuple[int, int, int]) -> dict[str, float]:
    """Box proportions after the tensor's, none under 0.25 so a single batch stays visible."""
    b, t, f = shape
    longest = max(shape)
    return {k: round(max(n / longest, 0.25), 3) for k, n in (("x", f), ("y", t), ("z", b))}


def cube_figure(red: Reduction, entry: tuple[int, int, int]) -> go.Figure:
    """The tensor as a 3-D block coloured by group: points, or outlined blocks when large."""
    size = int(np.clip(22 - 2.2 * np.log2(red.x.size), 5, 16))
    fig = FigureSpec()
    if red.x.size >= BLOCKS_FROM:
        _blocks(fig, red, entry)
    else:
        _points(fig, red, entry, size)
    fig.add_scatter3d(
        x=[entry[2]],
        y=[entry[1]],
        z=[entry[0]],
        mode="markers",
        name="chosen entry",
        marker={"size": max(size, 6) * 1.6, "symbol": "diamond-open", "color": GRAY,
                "line": {"width": 4}},
        hoverinfo="skip",
    )  # fmt: skip
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
            "aspectmode": "manual",
            "aspectratio": _aspect(red.x.shape),
            # far enough that the whole box stays in view on a narrow phone screen too; a
            # wider chart brings it closer in the browser (lnviz/app/lazy_component/lazy.js)
            "camera": {"eye": CAMERA_EYE, "center": {"z": -0.1}},
            "domain": {"x": [0, 1], "y": [0.1, 1]},
        },
        meta={"lnvizCameraAspect": CAMERA_ASPECT, "lnvizCameraEye": CAMERA_EYE},
        legend={"orientation": "h", "yanchor": "bottom", "y": 0, "x": 0, "xanchor": "left"},
        margin={"l": 0, "r": 0, "t": 40, "b": 10},
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
    """Heatmap of (batch, token) rows × feature columns: "labels", "input" or "output"."""
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
            **diverging(lim),
            "customdata": labels.astype(np.int32),
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
    # short lines (a name wrapped, then its count): two columns of them fit a phone
    titles = [
        "<br>".join([*wrap(SCHEME_INFO[k][0], 22), f"{v.group_count} groups"]) for k, v in items
    ]
    fig = FigureSpec.subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.06,
        vertical_spacing=0.16 / max(1, nrows - 1) + 0.05,
    )
    fig.update_annotations(font={"size": 12})
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
        title="Every scheme: rows batch·token, columns feature",
        x="",
        y="",
        height=250 * nrows + 100,
    )
    fig.update_layout(margin={"t": 110})
    return fig.figure()


def schemes_alt(reductions: Mapping[str, Reduction]) -> str:
    parts = "; ".join(
        f"{SCHEME_INFO[k][0]}: {v.group_count} groups of {v.group_size}"
        for k, v in reductions.items()
    )
    return "Six small grids comparing the statistic groups of each scheme. " + parts + "."


SCHEMES = Chart(schemes_figure, schemes_alt)
