"""Page links by the st.Page objects the navigation registered, not by file name.

Given a file name, st.page_link resolves it with os.path.realpath on every call, a system
call per component of the path; under a class's load (benchmarks/load.py) that was about
4 % of the server's time in py-spy. Given the registered st.Page, it looks the page up by its
hash. lnviz.app.navigation keeps each session's pages by script here; where no navigation
ran (a page run on its own, as in AppTest), the file name is used as before.
"""

from __future__ import annotations

import streamlit as st

BY_SCRIPT_KEY = "_lnviz_pages_by_script"  # session state: script path -> st.Page
SHOWN_KEY = "_lnviz_shown_page"  # session state: the url path of the page the router runs


def target(script: str) -> st.Page | str:
    """What st.page_link should be given for the page `script` ("pages/epsilon.py")."""
    return st.session_state.get(BY_SCRIPT_KEY, {}).get(script, script)


def current_url_path() -> str:
    """The url path of the page this run belongs to ("" for the home page), as the router's
    st.navigation returned it; "" for a page run on its own (AppTest)."""
    return str(st.session_state.get(SHOWN_KEY, ""))
