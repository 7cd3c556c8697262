"""lnviz: the router. Each page lives in pages/; this file only declares the navigation.

Page files are named exactly like their url_path: Streamlit also discovers pages/ on its
own before the router runs, and a name mismatch there shows a spurious "Page not found"
dialog on the first visit of a deep link after a server start.
"""

import streamlit as st

from lnviz.app.serving import disable_nagle

disable_nagle()  # once per server process: see lnviz/app/serving.py (a 40 ms stall per rerun)
st.set_page_config(page_title="lnviz · layer normalization explorer", page_icon="📐", layout="wide")

home = st.Page("pages/home.py", title="Home", icon=":material/home:", default=True)
explore = [
    st.Page(
        "pages/reduction-axes.py",
        title="Reduction axes",
        icon=":material/view_in_ar:",
        url_path="reduction-axes",
    ),
    st.Page("pages/epsilon.py", title="Epsilon", icon=":material/functions:", url_path="epsilon"),
    st.Page(
        "pages/gain-and-bias.py",
        title="Gain and bias",
        icon=":material/tune:",
        url_path="gain-and-bias",
    ),
    st.Page(
        "pages/invariance.py", title="Invariances", icon=":material/balance:", url_path="invariance"
    ),
    st.Page(
        "pages/weighted-centering.py",
        title="Weighted centering",
        icon=":material/call_split:",
        url_path="weighted-centering",
    ),
]
sequences = [
    st.Page(
        "pages/sequences.py",
        title="Sequences and causality",
        icon=":material/timeline:",
        url_path="sequences",
    ),
    st.Page(
        "pages/batch-statistics.py",
        title="Batch statistics",
        icon=":material/stacks:",
        url_path="batch-statistics",
    ),
]
engineering = [
    st.Page(
        "pages/frameworks.py",
        title="Framework parity",
        icon=":material/compare_arrows:",
        url_path="frameworks",
    ),
    st.Page(
        "pages/numerics.py", title="Numerics lab", icon=":material/calculate:", url_path="numerics"
    ),
]
reference = [
    st.Page(
        "pages/glossary.py", title="Glossary", icon=":material/menu_book:", url_path="glossary"
    ),
    st.Page(
        "pages/examples.py",
        title="Worked examples",
        icon=":material/checklist:",
        url_path="examples",
    ),
]
# Embedded in another site (?embed=true): the page alone, no navigation sidebar.
nav = st.navigation(
    position="hidden" if st.context.is_embedded else "sidebar",
    pages={
        "Start": [home],
        "Explore": explore,
        "In models": sequences,
        "Engineering": engineering,
        "Reference": reference,
    },
)
nav.run()
