"""lnviz: the router. The pages are declared once, in lnviz/content/registry.py."""

import streamlit as st

from lnviz.app import layout, lazy_charts, navigation, serving

serving.disable_nagle()  # once per server process: a 40 ms stall per rerun otherwise
st.set_page_config(page_title="lnviz · layer normalization explorer", page_icon="📐", layout="wide")
layout.phone_styles()  # charts first on a phone (lnviz/app/layout.py)
lazy_charts.install()  # charts far below the screen drawn when scrolled near
navigation.run()
