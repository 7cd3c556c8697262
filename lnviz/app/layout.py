"""The phone layout's styles (below Streamlit's 640 px breakpoint) and the pages' layout helpers."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from lnviz.app import streamlit_dom as dom
from lnviz.app.chrome import link_params, presenting
from lnviz.app.lazy_charts import HIDDEN_RULE as _LAZY_CHARTS_RULE
from lnviz.app.live import FRAMES_RULE as _LIVE_FRAMES_RULE
from lnviz.app.targets import target
from lnviz.content import text
from lnviz.content.registry import PageInfo

T = TypeVar("T")

PHONE_MAX_WIDTH = 640  # px: Streamlit stacks st.columns below this width
CARD_COLUMNS = 3  # a phone table with more columns shows each row as a card
PHONE_ROWS = 24  # rows a phone table shows at most (a group table can have hundreds)

# A row of st.columns of metrics or number boxes: two cells to a line. Rows with a chart, a
# table, code, a slider or a radio (they need the width) keep Streamlit's stacking.
_SMALL_ROW = (
    ".stHorizontalBlock:has(> .stColumn :is(.stMetric, .stNumberInput, .stTextInput))"
    ":not(:has(.stPlotlyChart, .stDataFrame, .stTable, .stCode, .stImage, .stIFrame, .stSlider,"
    " .stRadio, .stHorizontalBlock))"
)

# A row of metrics (row below): its metrics share the width equally, as columns
# would, and wrap two to a line on a phone.
_METRIC_ROW_CELL = ".stHorizontalBlock > .stElementContainer:has(.stMetric)"

# A row of presets (lnviz.app.controls.presets: its container's key ends in "-row"): smaller
# buttons on a phone, so two short ones share a line and the row takes less height.
_PRESET_ROW = '[class*="presets"][class*="-row"]'

# The box around a chart: Streamlit fixes its height to the figure's (a flex basis) and
# clips what overflows it, so the toolbar's strip goes above it as a margin (padding inside
# it cut the chart's bottom 30 px: the x axis titles).
_CHART_BOX = ".stElementContainer:has(.stPlotlyChart)"

# A table (table() below) is drawn twice: as Streamlit's data grid, which keeps its columns'
# widths and scrolls sideways on a phone, and as a plain HTML table whose cells wrap, shown
# on a phone instead of the grid just before it.
_PHONE_TABLE_BOX = ".stElementContainer:has(.lnviz-phone-table)"
_GRID_WITH_PHONE_TABLE = (
    ".stElementContainer:has(.stDataFrame):has(+ .stElementContainer .lnviz-phone-table)"
)
# More than three columns do not fit a phone's width as columns: each row becomes a card,
# one "column name  value" line per cell.
_PHONE_TABLE_CSS = """
.lnviz-phone-table { width: 100%; border-collapse: collapse; font-size: 0.875rem; }
.lnviz-phone-table th { font-weight: 600; text-align: left; }
.lnviz-phone-more { caption-side: bottom; text-align: left; font-size: 0.8rem; opacity: 0.75;
  padding-top: 0.3rem; }
.lnviz-cards .lnviz-phone-more { display: block; width: 100%; padding: 0 0 0.3rem; }
.lnviz-phone-table th, .lnviz-phone-table td {
  padding: 0.3rem 0.4rem; border-bottom: 1px solid rgba(128, 128, 128, 0.3);
  overflow-wrap: break-word; vertical-align: top;
}
.lnviz-phone-table.lnviz-cards, .lnviz-cards tbody { display: block; }
.lnviz-phone-table.lnviz-cards tr:first-child { display: none; }
.lnviz-phone-table.lnviz-cards tr { display: block; padding: 0.35rem 0;
  border-bottom: 1px solid rgba(128, 128, 128, 0.45); }
.lnviz-phone-table.lnviz-cards td { display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); column-gap: 0.5rem;
  border: none; padding: 0.1rem 0.4rem; box-sizing: border-box; }
.lnviz-phone-table.lnviz-cards td::before { content: attr(data-label); font-weight: 600; }"""

# Readable small text (WCAG AA, 4.5:1; issue 35): Streamlit draws captions in a grey of
# 3.9:1 on white (Streamlit 1.67); here in the text's own colour at 80 % (6.8:1 light,
# 11:1 dark). No key class reaches every caption. A display formula overflowed its box by
# KaTeX's 2 px rounding, which made a scroll region no keyboard can reach.
_READABLE_CSS = f"""{dom.CAPTION} {{ color: inherit; opacity: 0.8; }}
.katex-display > .katex {{ padding-right: 2px; }}
.stMain h2 {{ font-size: 1.75rem; }} .stMain h3 {{ font-size: 1.5rem; }}
[class*="st-key-"] div:has(> :is(input[type="text"], input[type="number"], textarea):focus-visible),
label:has(input:is([type="radio"], [type="checkbox"]):focus-visible),
:is(.stSidebar, .stPageLink) a:focus-visible {{ outline: 2px solid currentColor; }}
.stPageLink a {{ color: inherit; }}  /* (its ring: the browser's link blue, 1.6:1 on dark) */
{dom.SIDEBAR_FOLDED}, {dom.SIDEBAR_FOLDED} * {{ visibility: hidden !important; }}
.js-plotly-plot .main-svg {{ background: transparent !important; }}
.js-plotly-plot .legend > rect.bg {{ fill-opacity: 0 !important; }}
.js-plotly-plot .main-svg text:not(.hoverlayer *, .heatmap-label *, .bartext-inside) {{
  fill: currentColor !important; fill-opacity: 0.8 !important; }}
.lnviz-numbers {{ overflow-x: auto; }} .lnviz-numbers:focus-visible {{ outline: 2px solid; }}
.lnviz-numbers table {{ border-collapse: collapse; font-size: 0.875rem; }}
.lnviz-numbers-caption {{ opacity: 0.8; margin: 0.5rem 0 0.2rem; font-size: 0.875rem; }}
.lnviz-numbers th, .lnviz-numbers td {{ padding: 0.2rem 0.5rem; white-space: nowrap;
  border-bottom: 1px solid rgba(128, 128, 128, 0.3); text-align: right; }}
.lnviz-numbers :is(th, td):first-child {{ text-align: left; }}"""
_NAV_CSS = """.st-key-lnviz-course-nav { gap: 0.45rem; }
.st-key-lnviz-course-nav .stMarkdown { margin-top: 0.6rem; font-size: 0.875rem; }"""
# (sections are h2 under the page's h1 and cards h3, with no level skipped: they keep the
# sizes they had as h3 and h4). A focus ring in the text's colour (WCAG 2.4.7) where
# Streamlit only recolours a 1 px border (text boxes) or shades the background (page links,
# options and switches, whose input is hidden). A folded sidebar is only moved off screen:
# hidden, so that Tab does not walk through links no one sees. A chart's text is drawn in the
# page's text colour at 80 % on the page's own background (Plotly writes its colours inline:
# !important), which follows a live theme switch at once, a chart that is not redrawn then
# (one a live control drives) included: Streamlit's light chart grey had 3.7:1 on white, and
# no one colour has 4.5:1 on both themes' backgrounds (a heatmap cell's or a bar's own text
# keeps the colour Plotly picks against it).

PHONE_CSS = f"""<style>
{_READABLE_CSS}
{_NAV_CSS}
{_LAZY_CHARTS_RULE}
{_LIVE_FRAMES_RULE}
{_PHONE_TABLE_BOX} {{ display: none; }}
.st-key-lnviz-page-top {{ display: none; }}
[class*="st-key-still-3d-"] .stPlotlyChart {{ pointer-events: none; }}
{_PHONE_TABLE_CSS}
{_METRIC_ROW_CELL} {{ flex: 1 1 0 !important; min-width: 8rem; }}
@media (max-width: {PHONE_MAX_WIDTH}px) {{
  {_METRIC_ROW_CELL} {{ flex: 1 1 calc(50% - 0.5rem) !important; }}
  .katex-display > .katex {{ font-size: 0.9em; }}  /* the widest formula fits, no scroll box */
  .stMetric label * {{ white-space: normal !important; text-overflow: clip; }}
  .stMainBlockContainer {{ padding-top: 3.5rem; }}
  .stMain h1 {{ font-size: 1.75rem; line-height: 1.2; padding-top: 0.5rem; }}
  .stMain h2, .stMain h3 {{ font-size: 1.15rem; }}
  {_SMALL_ROW} {{ flex-flow: row wrap; row-gap: 0.25rem; }}
  {_SMALL_ROW} > .stColumn {{
    min-width: calc(50% - 0.5rem) !important; flex: 1 1 calc(50% - 0.5rem) !important;
  }}
  {dom.METRIC_VALUE} {{ font-size: 1.6rem; }}
  {_PRESET_ROW} {{ gap: 0.4rem; }}
  {_PRESET_ROW} button {{ min-height: 2rem; padding: 0.15rem 0.65rem; }}
  {_PRESET_ROW} button p {{ font-size: 0.875rem; }}
  {_GRID_WITH_PHONE_TABLE} {{ display: none; }}
  {_PHONE_TABLE_BOX} {{ display: block; }}
  {_CHART_BOX} {{ margin-top: 30px; overflow: visible !important; }}
  .stPlotlyChart .modebar-container {{ top: -30px !important; }}
}}
</style>"""


def phone_styles() -> None:
    """Put the phone layout's styles on the page (style only: it takes no space)."""
    st.html(PHONE_CSS)


def side_by_side(*draws: Callable[[], T], spec: Sequence[float] | None = None) -> list[T]:
    """Draw each callable in its own column (stacked on a phone) and return what each returned."""
    values = []
    for column, draw in zip(st.columns(spec or len(draws)), draws, strict=True):
        with column:
            values.append(draw())
    return values


def table(columns: Any, *, formats: Mapping[str, str] | None = None, **options: Any) -> None:
    """A table of named columns, no index; presenting, HTML that follows the larger type."""
    formats = dict(formats or {})
    if presenting():
        import pandas as pd

        styler = pd.DataFrame(columns).style.hide(axis="index")
        st.table(styler.format({name: (lambda v, f=f: f % v) for name, f in formats.items()}))
        return
    if formats:
        config = {name: st.column_config.NumberColumn(format=f) for name, f in formats.items()}
        options = {"column_config": config, **options}
    st.dataframe(_arrow(columns), hide_index=True, width="stretch", **options)
    st.html(phone_table(columns))


def _arrow(columns: Any) -> Any:
    """The columns as an Arrow table, which Streamlit sends as it is (no pandas); else unchanged."""
    import pyarrow as pa

    if not isinstance(columns, Mapping):
        return columns
    try:
        return pa.table({str(name): list(values) for name, values in columns.items()})
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        return columns


def phone_table(columns: Mapping[str, Sequence[Any]]) -> str:
    """The columns as an HTML table for a phone: cells wrap instead of scrolling, all escaped."""
    names = [html.escape(str(n), quote=True) for n in columns]
    cols = [list(columns[name]) for name in columns]
    total = len(cols[0]) if cols else 0
    cols = [c[:PHONE_ROWS] for c in cols]  # a phone shows the first rows, and says so
    rows = zip(*cols, strict=True) if cols else iter(())
    more = total - PHONE_ROWS
    caption = (
        f'<caption class="lnviz-phone-more">The first {PHONE_ROWS} of {total} rows; the '
        "whole table shows on a wider screen.</caption>"
        if more > 0
        else ""
    )
    head = "".join(f"<th>{n}</th>" for n in names)
    body = "".join(
        "<tr>"
        + "".join(f'<td data-label="{n}">{_cell(v)}</td>' for n, v in zip(names, row, strict=True))
        + "</tr>"
        for row in rows
    )
    kind = "lnviz-phone-table lnviz-cards" if len(names) > CARD_COLUMNS else "lnviz-phone-table"
    return f'<table class="{kind}">{caption}<tr>{head}</tr>{body}</table>'


def _cell(value: Any) -> str:
    if isinstance(value, float | np.floating):
        return html.escape(text.number(float(value)))
    return html.escape(str(value))


def page_button(
    info: PageInfo, label: str | None = None, *, icon: str, help: str | None = None
) -> None:
    """A link to a page of the registry, carrying presentation mode (chrome.link_params)."""
    st.page_link(
        target(info.script),
        label=label or info.title,
        icon=icon,
        help=help,
        query_params=link_params(),
    )


PAGE_CONTROLS_KEY = "lnviz-page-controls"  # the key of every page's box of controls
STICKY_CONTROLS_KEY = f"{PAGE_CONTROLS_KEY}-sticky"  # (a class prefix that slides keep)
# The sticky box is drawn on the app's own background, whichever theme is shown: each of its
# ancestors inside the app inherits the app's colour (they are transparent and lie on it),
# so a theme switched without a rerun (the system's, followed live) recolours it too.
STICKY_CSS = """<style>@media (min-width: 900px) and (min-height: 700px) {
  :has(> .st-key-KEY) { position: sticky; top: 3.75rem; z-index: 5; }
  .stApp :has(.st-key-KEY), .st-key-KEY { background-color: inherit; }
  /* what the browser scrolls into view (a focused control, a link's target) lands below
     the box, not under it (the scroll padding counts on the main pane, which scrolls) */
  :has(.st-key-KEY) { scroll-padding-top: 16rem; }
}</style>""".replace("KEY", STICKY_CONTROLS_KEY)  # a constant: no visitor text reaches st.html


def page_controls(*, sticky: bool = True) -> Any:
    """The box of the page's controls: kept on every slide, sticky on a wide screen if `sticky`."""
    if not sticky or presenting():
        return st.container(border=True, key=PAGE_CONTROLS_KEY)
    st.html(STICKY_CSS)
    return st.container(border=True, key=STICKY_CONTROLS_KEY)


def row() -> Any:
    """Cells side by side in one flex row, wrapping on a phone: 1 element, not n + 1 (columns)."""
    return st.container(horizontal=True, gap="small")


def latex_row(*formulas: str) -> None:
    """Formulas side by side, wrapping where they do not fit: n + 1 elements, not 2n + 1."""
    row = st.container(horizontal=True, horizontal_alignment="center", gap="large")
    for formula in formulas:
        row.latex(formula, width="content")
