"""The navigation, built from the page registry (lnviz.content.registry)."""

from __future__ import annotations

import streamlit as st

from lnviz.app.chrome import presentation_switch
from lnviz.content.registry import PAGES, SECTIONS, PageInfo


def _page(info: PageInfo) -> st.Page:
    if info.is_home:
        return st.Page(info.script, title=info.title, icon=info.icon, default=True)
    return st.Page(info.script, title=info.title, icon=info.icon, url_path=info.url_path)


def run() -> None:
    """Declare every page in its section and run the one the visitor asked for.

    Embedded in another site (?embed=true), the page shows alone, without the sidebar.
    Presentation mode's switch is drawn here, by the entrypoint, so that it belongs to every
    page (lnviz.app.chrome.presentation_switch).
    """
    pages = {s: [_page(p) for p in PAGES if p.section == s] for s in SECTIONS}
    position = "hidden" if st.context.is_embedded else "sidebar"
    navigation = st.navigation(pages, position=position, expanded=True)  # the whole course
    presentation_switch()  # the entrypoint's control: a state of the whole app
    navigation.run()
