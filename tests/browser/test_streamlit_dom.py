"""A canary for Streamlit's page: every selector of the adapter (lnviz/app/streamlit_dom.py)
and the element-class structure the app's styles and scripts rely on still match on a real
page of the installed Streamlit. A release that renames or moves one fails here, by name,
instead of a style quietly no longer applying."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lnviz.app import streamlit_dom

from .helpers import Visit

pytestmark = pytest.mark.browser

# Element classes in the relations lnviz/app/layout.py, slides.py and lazy.js select by.
STRUCTURE = {
    "the main pane scrolls (lazy.js)": "main.stMain",
    "the page's top-level blocks (slides)": ".stMainBlockContainer > .stVerticalBlock",
    "a block looked through (slides)": (
        ".stMainBlockContainer > .stVerticalBlock > :not(.stElementContainer) > .stVerticalBlock"
    ),
    "a section heading (slides)": ".stElementContainer > .stHeading h2",
    "a chart's box (layout, lazy.js)": ".stElementContainer .stPlotlyChart",
    "a grid before its phone table (layout)": (
        ".stElementContainer:has(.stDataFrame) + .stElementContainer .lnviz-phone-table"
    ),
    "a row of inputs in columns (layout)": ".stHorizontalBlock > .stColumn .stTextInput",
    "a row of metrics (layout)": ".stHorizontalBlock > .stElementContainer > .stMetric",
    "a metric's label (layout)": ".stMetric label",
}


def test_the_adapters_selectors_and_the_apps_structure_match_a_real_page(
    open_page: Callable[..., Visit],
) -> None:
    selectors = {**streamlit_dom.SELECTORS, **STRUCTURE}
    counts = dict.fromkeys(selectors, 0)
    for url_path in ("epsilon", "invariance"):  # (z and ε side by side: invariance)
        page = open_page(url_path).page
        for name, selector in selectors.items():
            counts[name] += page.locator(selector).count()
    assert all(counts.values()), {name: n for name, n in counts.items() if not n}


def test_the_sidebar_toggle_says_whether_the_sidebar_is_open(
    open_page: Callable[..., Visit],
) -> None:
    """slides.py folds the sidebar by its toggle and reads its state from aria-expanded."""
    page = open_page("epsilon").page
    toggle = streamlit_dom.SIDEBAR_TOGGLE
    # (as slides.py does: a script's click; the fold button is drawn only under the pointer)
    page.evaluate("(s) => document.querySelector(s).click()", f'{toggle}[aria-expanded="true"]')
    page.locator(f'{toggle}[aria-expanded="false"]').wait_for(state="visible")
    assert page.locator(f'{toggle}[aria-expanded="true"]').count() == 0
    # folded away: the sidebar slides off the screen's left edge
    page.wait_for_function("() => document.querySelector('.stSidebar')"
                           ".getBoundingClientRect().right <= 0")  # fmt: skip
    assert page.locator(streamlit_dom.SIDEBAR_FOLDED).count() == 1  # (layout hides it)
