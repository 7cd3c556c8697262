"""The figures' colours in one place: hues, colour scales and the heatmap scale helpers."""

from __future__ import annotations

from typing import Any

from plotly.colors import get_colorscale

# Tableau-10 hues, the light ones (orange, teal, yellow, pink) darkened: every hue has at
# least 3:1 against both themes' backgrounds (WCAG 1.4.11; white and Streamlit's dark
# #171614: a relative luminance between 0.12 and 0.30), which
# tests/browser/test_accessibility.py measures in the drawn charts.
BLUE, ORANGE, RED, TEAL, GREEN, YELLOW, PURPLE, PINK, BROWN, GRAY = (
    "#4E79A7",
    "#DC740E",
    "#E15759",
    "#529C96",
    "#59A14F",
    "#AC8A11",
    "#B07AA1",
    "#DB5F9B",
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
    """Heatmap colours centred on 0 from -lim to lim: equal sizes, equal depth, either sign."""
    return {"colorscale": DIVERGING, "zmid": 0, "zmin": -lim, "zmax": lim}


def discrete_scale(n: int) -> list[list[float | str]]:
    """A stepped colourscale, band k = QUALITATIVE[k]; positions rounded so they never decrease."""
    scale: list[list[float | str]] = []
    for k in range(n):
        color = QUALITATIVE[k % len(QUALITATIVE)]
        scale += [[round(k / n, 9), color], [round((k + 1) / n, 9), color]]
    return scale


# A second cue per hue, for traces a legend would otherwise tell apart by colour alone
# (issue 35; tests/app/test_colour_alone.py checks every chart against colour-blind
# simulations): a line's dash, a marker's symbol (all eight valid in 3-D too), a bar's
# pattern. Blue, the first hue, keeps the plain form.
DASHES = dict(zip(QUALITATIVE, ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot",
    "2px,4px,8px,4px", "12px,3px,3px,3px", "1px,2px", "6px,2px"), strict=True))  # fmt: skip
SYMBOLS = dict(zip(QUALITATIVE[:8], ("circle", "square", "diamond", "cross", "x",
    "circle-open", "square-open", "diamond-open"), strict=True))  # fmt: skip
PATTERNS = dict(zip(QUALITATIVE[:8], ("", "/", "x", "\\", ".", "+", "|", "-"), strict=True))
SYMBOLS[GRAY], PATTERNS[GRAY] = "circle-open", "-"  # grey: context, with blue or orange


def finished(fig: dict[str, Any]) -> dict[str, Any]:
    """The palette as colorway (Streamlit's light hues lack contrast on white), plus second cues."""
    fig["layout"].setdefault("colorway", list(QUALITATIVE))  # a copy: figures change in place
    return second_cues(fig)


def second_cues(fig: dict[str, Any]) -> dict[str, Any]:
    """A dash, symbol or pattern for legend entries differing by colour alone (in place)."""
    if fig["layout"].get("showlegend") is False:
        return fig
    alike: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    used: dict[str, set[Any]] = {"dash": set(), "symbol": set(), "pattern": set()}
    for t in fig["data"]:
        kind, mode = t.get("type", "scatter"), t.get("mode", "lines")
        if not t.get("name") or t.get("showlegend", kind not in ("heatmap", "surface")) is False:
            continue
        if "text" in mode or kind not in ("scatter", "scatter3d", "bar"):
            continue
        marker, line = t.get("marker") or {}, t.get("line") or {}
        pattern = marker.get("pattern")
        shape = pattern.get("shape") if isinstance(pattern, dict) else pattern  # (hashable)
        cues = (kind, mode, line.get("dash"), marker.get("symbol"), shape)
        alike.setdefault(cues, []).append(t)
        used["dash"].add(line.get("dash"))
        used["symbol"].add(marker.get("symbol"))
    for same in alike.values():
        if len({_colour(t) for t in same}) > 1:
            for t in same:
                _add_cue(t, _colour(t), used)
    return fig


def _colour(t: dict[str, Any]) -> str | None:
    line, marker = t.get("line") or {}, t.get("marker") or {}
    found = line.get("color") if "lines" in t.get("mode", "") else None
    found = found or marker.get("color") or line.get("color")
    return found if isinstance(found, str) else None  # one colour, not one per point


def _pick(table: dict[str, str], colour: str, used: set[Any]) -> str:
    """The hue's own cue, or the first of the table's that the chart does not use yet."""
    own = table[colour]
    choice = own if own not in used else next((c for c in table.values() if c not in used), own)
    used.add(choice)
    return choice


def _add_cue(t: dict[str, Any], colour: str | None, used: dict[str, set[Any]]) -> None:
    if colour not in DASHES:
        return
    marker, mode = t.setdefault("marker", {}), t.get("mode", "lines")
    if t.get("type") == "bar":
        if colour in PATTERNS:
            shape = _pick(PATTERNS, colour, used["pattern"])
            marker["pattern"] = {"shape": shape, "fillmode": "overlay"}
        return
    line = t.setdefault("line", {})
    if "lines" in mode and "dash" not in line:
        line["dash"] = _pick(DASHES, colour, used["dash"])
    elif "markers" not in mode and colour in SYMBOLS:  # the dash says something else
        t["mode"], marker["maxdisplayed"], marker["color"] = mode + "+markers", 12, colour
    if "markers" in t.get("mode", "") and colour in SYMBOLS and "symbol" not in marker:
        marker["symbol"] = _pick(SYMBOLS, colour, used["symbol"])
