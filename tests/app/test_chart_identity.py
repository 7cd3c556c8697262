"""A chart whose picture does not change keeps its identity, so the browser keeps it.

Streamlit derives a chart's element id from its figure and its alt text, and the browser
draws a chart with a new id from scratch (Plotly's newPlot: 15-30 ms of a software-rendered
browser's main thread per chart, docs/benchmarks.md). A control that leaves a chart's
figure alone must therefore leave its alt text alone too: alt text describes what is
drawn, nothing else.

Each page is opened at its defaults and again with one of its sliders one step further
(through the URL, as a shared link would); every chart with the same figure in both must
have the same alt text.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import page

PAGES = [
    "reduction-axes",
    "epsilon",
    "gain-and-bias",
    "invariance",
    "weighted-centering",
    "sequences",
    "batch-statistics",
    "frameworks",
    "numerics",
]


def _charts(at: AppTest) -> dict[str, tuple[str, str]]:
    """Chart key -> (figure JSON, alt text)."""
    charts = at.get("plotly_chart")
    return {c.proto.id.split("-", 2)[-1]: (c.proto.spec, c.proto.alt) for c in charts}


def _next_values(at: AppTest) -> list[tuple[str, str]]:
    """(URL key, value one step further) for every keyed slider of the page's main area."""
    moves = []
    for s in at.main.get("slider"):
        p = s.proto
        if s.key and not isinstance(s.value, tuple):
            value = s.value + p.step if s.value + p.step <= p.max else s.value - p.step
            moves.append((s.key, f"{value:g}" if isinstance(value, float) else str(value)))
    for s in at.main.get("select_slider"):
        options = list(s.proto.options)
        i = int((list(s.proto.value) or list(s.proto.default))[0])  # the current option
        if s.key and len(options) > 1:
            moves.append((s.key, options[i + 1] if i + 1 < len(options) else options[i - 1]))
    return moves


@pytest.mark.parametrize("name", PAGES)
def test_unchanged_charts_keep_their_alt_text(name: str) -> None:
    base = page(name)
    before = _charts(base)
    moves = _next_values(base)
    assert moves, f"{name} has no slider to move"
    for key, value in moves:
        moved = page(name, {key: value})
        assert not moved.exception, (key, value)
        assert not [w.value for w in moved.warning if key in str(w.value)], (key, value)
        for chart, (spec, alt) in _charts(moved).items():
            if chart in before and before[chart][0] == spec:
                assert alt == before[chart][1], f"{name}: {key}={value} changed only {chart}'s alt"
