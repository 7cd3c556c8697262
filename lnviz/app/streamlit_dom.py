"""Streamlit's page parts with no public hook, all here so browser tests check they still match."""

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
