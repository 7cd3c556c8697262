"""References: the papers, documentation and source documents behind the pages."""

import streamlit as st

from lnviz.app import ui
from lnviz.content import registry
from lnviz.content.references import REFERENCES

ui.page_intro(
    "References",
    "What each page relies on, with one line on what it contributes. Framework "
    "documentation is named with the version whose sources were checked.",
)
for ref in REFERENCES:
    with st.container(border=True):
        title = f"[{ref.title}]({ref.url})" if ref.url else f"*{ref.title}*"
        st.markdown(f"**{ref.cite}**. {title}. {ref.where}.")
        st.markdown(ref.contributes)
        used = ", ".join(registry.title_of(p) for p in ref.pages)
        st.caption(f"Used on: {used}")
ui.page_end()
