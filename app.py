"""lnviz: the router. The pages are declared once, in lnviz/content/registry.py."""

import streamlit as st

from lnviz.app import layout, lazy_charts, navigation, run_queue, serving, wakeups

serving.disable_nagle()  # once per server process: a 40 ms stall per rerun otherwise
run_queue.install()  # one script run at a time: runs queue instead of sharing the GIL
wakeups.install()  # one wake-up of the event loop per burst (LNVIZ_KEEP_WAKEUPS=1: off)
st.set_page_config(page_title="lnviz · layer normalization explorer", page_icon="📐", layout="wide")
layout.phone_styles()  # charts first on a phone (lnviz/app/layout.py)
lazy_charts.install()  # charts far below the screen drawn when scrolled near
navigation.run()
