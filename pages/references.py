"""References: the papers, documentation and source documents behind the pages."""

import streamlit as st

from lnviz.app import quiz, ui
from lnviz.content import exercises, registry
from lnviz.content.references import REFERENCES

ui.page_intro(
    "References",
    "What each page relies on, with one line on what it contributes. Framework "
    "documentation is named with the version whose sources were checked.",
)
for ref in REFERENCES:  # one element per reference: a run's cost grows with its elements
    title = f"[{ref.title}]({ref.url})" if ref.url else f"*{ref.title}*"
    used = ", ".join(registry.title_of(p) for p in ref.pages)
    with st.container(border=True):
        st.markdown(
            f"**{ref.cite}**. {title}. {ref.where}.\n\n{ref.contributes}\n\n"
            f":gray[:small[Used on: {used}]]"
        )
st.header("For teachers")
st.markdown(
    "Every question of the course on one sheet, each with the link that opens the page in "
    "the state that shows its answer."
)
quiz.sheet_downloads(exercises.course(), name="course")
ui.page_end()
