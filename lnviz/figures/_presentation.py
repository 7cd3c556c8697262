"""Presentation mode: every text size set explicitly, as the theme's own sizes beat layout.font."""

from __future__ import annotations

from typing import Any

from lnviz.figures._margins import planned

SCALE = 1.6  # chart text and height: 19 px against the theme's 12 (page type grows 23/16)
FONT = 19  # text without a size of its own (annotations, hover labels)
TICKS = 19  # tick labels
TITLES = 21  # axis titles and the legend
HEADING = 24  # the figure's title
TOP = 1.5  # the top margin holds the title and a legend row or two above the plot


def enlarged(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` (a figure's JSON dict, changed in place and returned) for presentation mode."""
    layout = spec.setdefault("layout", {})
    layout["height"] = int((layout.get("height") or 360) * SCALE)
    layout["font"] = {**layout.get("font", {}), "size": FONT}
    axes = [k for k in layout if k.startswith(("xaxis", "yaxis"))] or ["xaxis", "yaxis"]
    for key in {*axes, "xaxis", "yaxis"}:
        axis = layout.setdefault(key, {})
        axis["tickfont"] = {**axis.get("tickfont", {}), "size": TICKS}
        title = axis.get("title") or {}
        axis["title"] = {**title, "font": {**title.get("font", {}), "size": TITLES}}
    legend = layout.setdefault("legend", {})
    legend["font"] = {**legend.get("font", {}), "size": TITLES}
    if layout.get("title"):  # at the very top, above a legend that now takes more rows
        title = layout["title"]
        top = {"y": 1, "yref": "container", "yanchor": "top", "pad": {"t": 8}}
        layout["title"] = {**title, **top, "font": {**title.get("font", {}), "size": HEADING}}
    for note in layout.get("annotations", []):  # subplot titles and labels with their own size
        if "size" in note.get("font", {}):
            note["font"] = {**note["font"], "size": round(note["font"]["size"] * SCALE)}
    margin = planned(spec, scale=SCALE)
    margin["t"] = round(margin["t"] * TOP)  # the larger title and a legend above the plot
    layout["margin"] = margin
    return spec
