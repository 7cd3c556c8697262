"""Lazy charts: a chart far from the screen is drawn when the visitor scrolls near it.

A control at the top of a page can change most of its charts, and the browser drew every
changed chart before the page was quiet again, those below the fold included
(docs/benchmarks.md, "Round trips"). A
small script (lazy_component/lazy.js, a Streamlit components v2 component without an iframe,
mounted once by the entrypoint) wraps the Plotly.react that Streamlit's chart component
calls: a draw for a chart that is not within MARGIN_PX of the main pane's visible part
waits until it comes that near, then runs exactly as Streamlit asked. What the server sends
does not change: every chart, its alt text and its download name are as before; only when
the browser draws it.

Browser tests call window.__lnvizCharts.drawAll() before they read a page
(tests/browser/helpers.py); tests/browser/test_lazy_charts.py tests the waiting itself.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

KEY = "lnviz-lazy-charts"
HIDDEN_RULE = f".st-key-{KEY} {{ display: none; }}"  # it draws nothing (lnviz.app.layout)

_LAZY = st.components.v2.component(
    "lnviz.lazy_charts",
    js=(Path(__file__).parent / "lazy_component" / "lazy.js").read_text(encoding="utf-8"),
)


def install() -> None:
    """Mount the script (once per page: the entrypoint calls this before the page runs)."""
    _LAZY(key=KEY, data={}, height="content")
