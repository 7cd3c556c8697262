"""Lazy charts: a chart far from the screen is drawn when the visitor scrolls near it."""

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
