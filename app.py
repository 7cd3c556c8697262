"""lnviz: the router. Each page lives in pages/; this file only declares the navigation."""

import streamlit as st

st.set_page_config(page_title="lnviz · layer normalization explorer", page_icon="📐", layout="wide")

home = st.Page("pages/home.py", title="Home", icon=":material/home:", default=True)
explore = [
    st.Page(
        "pages/reduction_axes.py",
        title="Reduction axes",
        icon=":material/view_in_ar:",
        url_path="reduction-axes",
    ),
    st.Page("pages/epsilon.py", title="Epsilon", icon=":material/functions:", url_path="epsilon"),
    st.Page(
        "pages/gain_and_bias.py",
        title="Gain and bias",
        icon=":material/tune:",
        url_path="gain-and-bias",
    ),
    st.Page(
        "pages/invariance.py", title="Invariances", icon=":material/balance:", url_path="invariance"
    ),
    st.Page(
        "pages/weighted_centering.py",
        title="Weighted centering",
        icon=":material/call_split:",
        url_path="weighted-centering",
    ),
]
nav = st.navigation({"Start": [home], "Explore": explore})
nav.run()
