"""Page links by registered st.Page, not file name: st.page_link resolves a name on every call."""

from __future__ import annotations

import streamlit as st

BY_SCRIPT_KEY = "_lnviz_pages_by_script"  # session state: script path -> st.Page
SHOWN_KEY = "_lnviz_shown_page"  # session state: the url path of the page the router runs


def target(script: str) -> st.Page | str:
    """What st.page_link should be given for the page `script` ("pages/epsilon.py")."""
    return st.session_state.get(BY_SCRIPT_KEY, {}).get(script, script)


def current_url_path() -> str:
    """This run's page's url path from the router's st.navigation ("": home, or no router)."""
    return str(st.session_state.get(SHOWN_KEY, ""))
