"""The app's layout on a phone: styles for windows up to 640 px wide (Streamlit's own
breakpoint, below which it stacks columns), drawn once per run by the router; and the small
layout helpers the pages share (charts side by side, tables, links to other pages).

On a 390 px phone the first chart should sit within two screens of the top
(tests/browser/test_phone_layout.py). So there: titles are smaller; preset buttons are
compact; a row of metrics or of
small inputs keeps two to a line instead of one (a row that holds a chart, a table or prose
still stacks, one to a line); and Plotly's toolbar sits in a strip above its chart instead
of over the chart's title. Desktop windows are untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from lnviz.app.chrome import link_params, presenting
from lnviz.content.registry import PageInfo

PHONE_MAX_WIDTH = 640  # px: Streamlit stacks st.columns below this width

# A row of st.columns of metrics or number boxes: two cells to a line. Rows with a chart, a
# table, code, a slider or a radio (they need the width) keep Streamlit's stacking.
_SMALL_ROW = (
    '[data-testid="stHorizontalBlock"]'
    ':has(> [data-testid="stColumn"] :is([data-testid="stMetric"], [data-testid="stNumberInput"],'
    ' [data-testid="stTextInput"]))'
    ':not(:has(.stPlotlyChart, [data-testid="stDataFrame"], [data-testid="stTable"],'
    ' [data-testid="stCode"], [data-testid="stImage"], [data-testid="stIFrame"],'
    ' [data-testid="stSlider"], [data-testid="stRadio"], [data-testid="stHorizontalBlock"]))'
)

# A row of presets (lnviz.app.controls.presets: its container's key ends in "-row"): smaller
# buttons on a phone, so two short ones share a line and the row takes less height.
_PRESET_ROW = '[class*="presets"][class*="-row"]'

# The box around a chart: Streamlit fixes its height to the figure's (a flex basis) and
# clips what overflows it, so the toolbar's strip goes above it as a margin (padding inside
# it cut the chart's bottom 30 px: the x axis titles).
_CHART_BOX = '[data-testid="stElementContainer"]:has(.stPlotlyChart)'

PHONE_CSS = f"""<style>
@media (max-width: {PHONE_MAX_WIDTH}px) {{
  [data-testid="stMainBlockContainer"] {{ padding-top: 3.5rem; }}
  [data-testid="stMain"] h1 {{ font-size: 1.75rem; line-height: 1.2; padding-top: 0.5rem; }}
  [data-testid="stMain"] h2 {{ font-size: 1.45rem; }}
  [data-testid="stMain"] h3 {{ font-size: 1.15rem; }}
  {_SMALL_ROW} {{ flex-flow: row wrap; row-gap: 0.25rem; }}
  {_SMALL_ROW} > [data-testid="stColumn"] {{
    min-width: calc(50% - 0.5rem) !important; flex: 1 1 calc(50% - 0.5rem) !important;
  }}
  [data-testid="stMetricValue"] {{ font-size: 1.6rem; }}
  {_PRESET_ROW} {{ gap: 0.4rem; }}
  {_PRESET_ROW} button {{ min-height: 2rem; padding: 0.15rem 0.65rem; }}
  {_PRESET_ROW} button p {{ font-size: 0.875rem; }}
  {_CHART_BOX} {{ margin-top: 30px; overflow: visible !important; }}
  .stPlotlyChart .modebar-container {{ top: -30px !important; }}
}}
</style>"""


def phone_styles() -> None:
    """Put the phone layout's styles on the page (style only: it takes no space)."""
    st.html(PHONE_CSS)


def side_by_side(*draws: Callable[[], None], spec: Sequence[float] | None = None) -> None:
    """Draw each callable in its own column, left to right (stacked on a phone).

    ui.side_by_side(lambda: ui.chart(figs.A, r, key="a"), lambda: ui.chart(figs.B, r, key="b"))
    """
    for column, draw in zip(st.columns(spec or len(draws)), draws, strict=True):
        with column:
            draw()


def table(columns: Any, **options: Any) -> None:
    """A table of named columns across the page's width, without the index column.

    In presentation mode an HTML table: its cells follow the page's enlarged type, where a
    data grid (drawn on a canvas) keeps the font size it measured when it was first drawn.
    """
    if presenting():
        import pandas as pd

        st.table(pd.DataFrame(columns).style.hide(axis="index"))
        return
    st.dataframe(columns, hide_index=True, width="stretch", **options)


def page_button(
    info: PageInfo, label: str | None = None, *, icon: str, help: str | None = None
) -> None:
    """A link to a page of the registry, carrying presentation mode (chrome.link_params)."""
    st.page_link(
        info.script, label=label or info.title, icon=icon, help=help, query_params=link_params()
    )


def latex_row(*formulas: str) -> None:
    """Formulas side by side on a wide screen, one under the other on a phone."""
    for column, formula in zip(st.columns(len(formulas)), formulas, strict=True):
        column.latex(formula)
