"""The parts of Streamlit's page that the app styles or drives and that have no public hook
(no key class, no element class, no option): every such selector is here, each with why,
and tests/browser/test_streamlit_dom.py checks that each still matches on a real page of the
installed Streamlit. Everything else is reached by a key (`.st-key-<key>`), an element's
class (`.stPlotlyChart`, `.stMetric`, `.stMainBlockContainer`) or plain HTML (`main`, `h1`).
"""

from __future__ import annotations

# st.caption's box: it has no class of its own, and no key reaches every caption.
CAPTION = '[data-testid="stCaptionContainer"]'
# A metric's number: `metricValueFontSize` (theme) sizes it on every screen, not a phone only.
METRIC_VALUE = '[data-testid="stMetricValue"]'
# The sidebar's fold and unfold buttons (one is shown at a time); aria-expanded says which.
SIDEBAR_TOGGLE = 'button[aria-controls="stSidebar"]'
# The sidebar once folded: Streamlit moves it off screen, its links still in the Tab order.
SIDEBAR_FOLDED = '.stSidebar[data-collapsed="true"]'

SELECTORS = {"CAPTION": CAPTION, "METRIC_VALUE": METRIC_VALUE, "SIDEBAR_TOGGLE": SIDEBAR_TOGGLE}
