"""Margins planned on the server, so that the browser draws each chart once."""

from __future__ import annotations

from typing import Any

# Pixels, in Streamlit's theme (12 px tick labels, 14 px titles), measured in Chromium.
Y_LABELS = 92  # y tick labels such as "−0.0001" or "1e−12", ticks and title standoff
X_LABELS = 76  # x tick labels, ticks and title standoff under the plot
HIDDEN_TITLED = 52  # an axis with hidden tick labels still keeps its title's standoff
TICKS = 10  # an axis with hidden tick labels and no title: its ticks
CHAR = 7  # one character of a category label
RIGHT = 24  # the last x tick label sticks out to the right
COLORBAR = 98  # a titled colour bar right of the plot, with its tick labels
COLORBAR_EXP = 110  # one with exponent labels (1e−12)
SLIDER = 80  # a Plotly slider (the epsilon page's scrubber) under the plot
LEGEND_ROW = 22  # one row of a horizontal legend
LEGEND_WIDTH = 300  # what one legend row holds in a half-width column
LEGEND_ENTRY = 40  # an entry's symbol and gaps, besides its name
LEGEND_PAD = 38  # the legend's padding and the gap above it
CARTESIAN_FREE = {"scatter3d", "mesh3d", "surface", "cone", "volume", "isosurface", "pie"}


def planned(spec: dict[str, Any], scale: float = 1.0) -> dict[str, int]:
    """The margins (l, r, t, b) to draw `spec` (a figure's JSON dict) in one pass."""
    layout = spec.get("layout", {})
    own = layout.get("margin", {})
    want = {"l": 0, "r": 0, "t": 0, "b": 0}
    traces = spec.get("data", [])
    if any(t.get("type", "scatter") not in CARTESIAN_FREE for t in traces):
        want["l"] = round(_side(layout, "yaxis", max(Y_LABELS, _categories(traces))) * scale)
        want["b"] = round(_side(layout, "xaxis", X_LABELS) * scale)
        want["r"] = round(RIGHT * scale) if want["b"] else 0
    bars = [_colorbar(t) for t in traces]
    if any(bar is not None for bar in bars):
        exp = any(bar and bar.get("exponentformat") == "e" for bar in bars)
        want["r"] = round((COLORBAR_EXP if exp else COLORBAR) * scale)
    if layout.get("sliders"):
        want["b"] += round(SLIDER * scale)
    legend = layout.get("legend", {})
    below = legend.get("y", 1.0) < 0 or (legend.get("y") == 0 and legend.get("yanchor") == "top")
    if _legend_shown(layout, traces) and below:
        names = [str(t.get("name", "")) for t in traces if t.get("showlegend", True) is not False]
        want["b"] = max(want["b"], _legend_below(layout, legend, own, names, scale))
    return {side: max(int(own.get(side, 0)), want[side]) for side in ("l", "r", "t", "b")}


def _side(layout: dict[str, Any], prefix: str, labels: int) -> int:
    """Room for the axes named prefix, prefix2, ...: `labels` while any shows tick labels."""
    axes = [a for k, a in layout.items() if k.startswith(prefix) and isinstance(a, dict)]
    visible = [a for a in axes or [{}] if a.get("visible", True)]
    if any(a.get("showticklabels", True) for a in visible):
        return labels
    if any("title" in a for a in visible):
        return HIDDEN_TITLED
    return TICKS if visible else 0


def _categories(traces: list[dict[str, Any]]) -> int:
    """Room for category labels on a y axis (a heatmap's row names), else 0."""
    rows = [t["y"] for t in traces if isinstance(t.get("y"), list)]  # not typed arrays
    names = [v for y in rows for v in y if isinstance(v, str)]
    return CHAR * max(map(len, names)) + 50 if names else 0


def _colorbar(trace: dict[str, Any]) -> dict[str, Any] | None:
    """The trace's colour bar if it draws one (a heatmap's scale, or its markers')."""
    if trace.get("type") in ("heatmap", "contour", "histogram2d") and trace.get("showscale", True):
        return trace.get("colorbar", {})
    marker = trace.get("marker", {})
    if isinstance(marker, dict) and marker.get("showscale"):
        return marker.get("colorbar", {})
    return None


def _legend_shown(layout: dict[str, Any], traces: list[dict[str, Any]]) -> bool:
    if "showlegend" in layout:
        return bool(layout["showlegend"])
    return sum(t.get("showlegend", True) is not False for t in traces) > 1


def _legend_below(
    layout: dict[str, Any],
    legend: dict[str, Any],
    own: dict[str, Any],
    names: list[str],
    scale: float,
) -> int:
    """Bottom margin for a legend under the plot: b = |y| (H - t - b) + legend, solved for b."""
    depth = -float(legend["y"])
    height = float(layout.get("height", 450))
    top = float(own.get("t", 100))
    entries = sum(LEGEND_ENTRY + 7 * len(name) for name in names if name) * scale
    rows = max(1, -(-int(entries) // LEGEND_WIDTH))  # ceiling division
    body = (LEGEND_ROW * rows + LEGEND_PAD) * scale
    return round((depth * (height - top) + body) / (1 + depth))
