"""The navigation, built from the page registry (lnviz.content.registry)."""

from __future__ import annotations

import streamlit as st

from lnviz.app.chrome import presentation_switch
from lnviz.app.targets import BY_SCRIPT_KEY
from lnviz.content.registry import PAGES, SECTIONS, PageInfo


def _page(info: PageInfo) -> st.Page:
    if info.is_home:
        return st.Page(info.script, title=info.title, icon=info.icon, default=True)
    return st.Page(info.script, title=info.title, icon=info.icon, url_path=info.url_path)


_PAGES_KEY = "_lnviz_navigation_pages"


def _pages() -> dict[str, list[st.Page]]:
    """Every section's st.Page objects, made once per session (about 2.5 ms of every run
    otherwise). Not shared between sessions: st.navigation marks the page it returns as
    callable and running it clears the mark, and a session runs one script at a time."""
    pages = st.session_state.get(_PAGES_KEY)
    if pages is None:
        made = {p.script: _page(p) for p in PAGES}
        pages = {s: [made[p.script] for p in PAGES if p.section == s] for s in SECTIONS}
        st.session_state[_PAGES_KEY] = pages
        st.session_state[BY_SCRIPT_KEY] = made  # what page links point at (lnviz.app.targets)
    return pages


def run() -> None:
    """Declare every page in its section and run the one the visitor asked for.

    Embedded in another site (?embed=true), the page shows alone, without the sidebar.
    Presentation mode's switch is drawn here, by the entrypoint, so that it belongs to every
    page (lnviz.app.chrome.presentation_switch).
    """
    pages = _pages()
    position = "hidden" if st.context.is_embedded else "sidebar"
    navigation = st.navigation(pages, position=position, expanded=True)  # the whole course
    presentation_switch()  # the entrypoint's control: a state of the whole app
    navigation.run()
