"""No chart tells things apart by colour alone (issue 35).

Every chart of every page, at its defaults and after each of its presets (through the
router, as visitors get them): each
pair of traces its legend names, and each pair of categories one trace colours apart
(statistic groups), must either differ by something other than colour (line dash, marker
symbol, bar pattern, a line against markers or bars, or a label written on the chart)
or keep colours that stay apart for normal vision and under simulated protanopia,
deuteranopia and tritanopia (tests/colour_vision.py: Machado et al. 2009 at severity 1.0
in linear RGB; CIEDE2000 at least MIN_DELTA_E).

MIN_DELTA_E = 20 is deliberately high: thin lines and small markers need more difference
than large patches, and two colours 20 apart in CIEDE2000 are told apart at a glance (the
Tableau-10 blue and orange of most charts: 47.7 at worst; its green and red: 0.7 under
deuteranopia).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import plotly.graph_objects as go
import pytest

from lnviz.content.registry import PAGES
from tests import apptest_helpers as ah
from tests.app.test_behaviour_snapshot import PRESET
from tests.colour_vision import least_difference

MIN_DELTA_E = 20.0
# Traces allowed to colour categories apart, with the reason.
EXEMPT = {
    "other groups": "the 3-D block's faint groups repeat the statistic-groups heatmap beside "
    "it, whose cells carry their group's number; the group asked about is told apart by "
    "its filled squares",
}
NAMES = [p.url_path or "home" for p in PAGES]


@cache
def _page_figures(name: str) -> dict[str, tuple[dict[str, Any], ...]]:
    """The page's charts at its defaults and after each preset: {state: figures}."""
    at = ah.page(name)
    ah.assert_clean(at)
    shown = {"defaults": tuple(ah.figures(at))}
    for preset in [b.key for b in at.button if b.key and PRESET.search(b.key)]:
        after = ah.page(name)
        after.button(key=preset).click().run()
        ah.assert_clean(after)
        shown[preset] = tuple(ah.figures(after))
    return shown


def _modes(trace: dict[str, Any]) -> set[str]:
    kind = trace.get("type", "scatter")
    if kind in ("bar", "box", "mesh3d", "surface", "heatmap"):
        return {kind}
    return set(trace.get("mode", "lines").split("+"))


def _colours(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return set(value)
    return set()  # unset (the theme's colour) or numbers on a colour scale


def legend_entries(fig: dict[str, Any]) -> list[dict[str, Any]]:
    """The traces the legend lists (a legend group's hidden members go with its entry)."""
    if fig["layout"].get("showlegend") is False:
        return []
    return [
        t
        for t in fig["data"]
        if t.get("name")
        and t.get("showlegend", t.get("type") not in ("heatmap", "surface")) is not False
    ]


def cues(trace: dict[str, Any]) -> tuple[Any, ...]:
    """What tells the trace apart besides its colour: the kind of mark, the line's dash,
    the markers' symbol, the bars' pattern."""
    modes, marker = _modes(trace), trace.get("marker") or {}
    return (
        frozenset(modes - {"text"}),
        trace.get("line", {}).get("dash", "solid") if "lines" in modes else None,
        str(marker.get("symbol", "circle")) if "markers" in modes else None,
        (marker.get("pattern") or {}).get("shape", "") if modes & {"bar", "box"} else None,
    )


def colours(trace: dict[str, Any]) -> set[str]:
    modes = _modes(trace)
    line = _colours((trace.get("line") or {}).get("color"))
    fill = _colours((trace.get("marker") or {}).get("color")) | _colours(trace.get("color"))
    return (line or fill) if "lines" in modes else (fill or line)


def labelled(trace: dict[str, Any]) -> bool:
    """A label written next to the trace's marks on the chart."""
    return "text" in _modes(trace) and bool(trace.get("text"))


def closest(colours_a: set[str], colours_b: set[str]) -> tuple[float, str, str, str]:
    """The least CIEDE2000 difference between a colour of each set, over the four visions
    (0 when either is unknown: the theme's colour, or a colour scale)."""
    if not colours_a or not colours_b:
        return (0.0, "unknown", "?", "?")
    return min(
        (*least_difference(a, b), a, b) for a in colours_a for b in colours_b
    )  # fmt: skip


def legend_problems(fig: dict[str, Any]) -> list[str]:
    out = []
    for a, b in itertools.combinations(legend_entries(fig), 2):
        if cues(a) != cues(b) or labelled(a) or labelled(b):
            continue
        delta, vision, ca, cb = closest(colours(a), colours(b))
        if delta < MIN_DELTA_E:
            out.append(f"{a['name']!r} / {b['name']!r}: {ca} vs {cb}, ΔE {delta:.1f} ({vision})")
    return out


def category_problems(fig: dict[str, Any]) -> list[str]:
    """Categories coloured apart inside one trace: a marker colour per point, or a
    heatmap's stepped colour scale (a band per category). They pass with a label in each
    cell or point, or with colours far enough apart."""
    out = []
    for t in fig["data"]:
        if labelled(t) or (t.get("type") == "heatmap" and t.get("texttemplate")):
            continue
        if t.get("name") in EXEMPT:
            continue
        marker = t.get("marker") or {}
        found = _colours(marker.get("color")) if "markers" in _modes(t) else set()
        if isinstance(marker.get("symbol"), list):
            found = set()  # a symbol per point tells the categories apart
        scale = t.get("colorscale") if t.get("type") == "heatmap" else None
        if isinstance(scale, list) and len(scale) > 2 and scale[0][1] == scale[1][1]:
            found = {c for _, c in scale}  # stepped: [[p, c], [q, c], [q, d], ...]
        for a, b in itertools.combinations(sorted(found), 2):
            delta, vision = least_difference(a, b)
            if delta < MIN_DELTA_E:
                name = t.get("name") or t.get("type")
                out.append(f"{name}: {a} vs {b}, ΔE {delta:.1f} ({vision})")
    return out


@pytest.mark.parametrize("name", NAMES)
def test_no_chart_tells_its_traces_apart_by_colour_alone(name: str) -> None:
    problems = {}
    for state, figures in _page_figures(name).items():
        for i, fig in enumerate(figures):
            go.Figure(fig)  # the cues added after Plotly's checks (lnviz.figures._palette) hold
            if found := legend_problems(fig) + category_problems(fig):
                problems[f"{state}: {fig['layout'].get('title', {}).get('text', i)}"] = found
    assert not problems, problems


@pytest.mark.parametrize("name", NAMES)
def test_no_chart_asks_for_motion(name: str) -> None:
    """No figure sets a transition or frames: a chart only moves if Plotly is told to (and
    lazy.js drops a transition for a visitor who prefers reduced motion)."""
    moving = [f["layout"].get("title", {}).get("text") for shown in _page_figures(name).values()
              for f in shown if "transition" in f["layout"] or f.get("frames")]  # fmt: skip
    assert not moving, moving


def test_the_check_sees_colour_alone_and_accepts_a_dash() -> None:
    """Green against red lines of one style fail (0.7 apart under deuteranopia); a dash on
    one of them, or blue against orange, pass."""

    def line(name: str, colour: str, **extra: Any) -> dict[str, Any]:
        return {
            "type": "scatter",
            "mode": "lines",
            "name": name,
            "line": {"color": colour, **extra},
        }

    fig = {"layout": {}, "data": [line("a", "#59A14F"), line("b", "#E15759")]}
    assert legend_problems(fig) and "deuteranopia" in legend_problems(fig)[0]
    fig["data"][1]["line"]["dash"] = "dash"
    assert not legend_problems(fig)
    fig = {"layout": {}, "data": [line("a", "#4E79A7"), line("b", "#F28E2B")]}
    assert not legend_problems(fig)
