"""The navigation, built from the page registry (lnviz.content.registry)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from pathlib import Path

import streamlit as st

from lnviz.app import classpoll
from lnviz.app.charts import tables_switch
from lnviz.app.chrome import PRESENT_KEY, presentation_switch
from lnviz.app.controls import BOUND_KEY
from lnviz.app.links import remember_link, settle_link
from lnviz.app.targets import BY_SCRIPT_KEY, SHOWN_KEY
from lnviz.content.registry import PAGES, SECTIONS, PageInfo

ROOT = Path(__file__).resolve().parents[2]  # pages/ is found from here, whatever the entry


def _page(info: PageInfo) -> st.Page:
    script = ROOT / info.script
    if info.is_home:
        return st.Page(script, title=info.title, icon=info.icon, default=True)
    return st.Page(script, title=info.title, icon=info.icon, url_path=info.url_path)


_PAGES_KEY = "_lnviz_navigation_pages"
_ROUTING = threading.local()  # .active: the router is running a page in this script thread


def _pages() -> dict[str, list[st.Page]]:
    """Every section's st.Page objects, once per session (not shared: running a page marks it)."""
    pages = st.session_state.get(_PAGES_KEY)
    if pages is None:
        made = {p.script: _page(p) for p in PAGES}
        pages = {s: [made[p.script] for p in PAGES if p.section == s] for s in SECTIONS}
        st.session_state[_PAGES_KEY] = pages
        st.session_state[BY_SCRIPT_KEY] = made  # what page links point at (lnviz.app.targets)
    return pages


def forget_controls(keep: Collection[str] = ()) -> None:
    """On a page change, drop URL-bound values but `keep`'s: ε must not carry to the next page."""
    bound = st.session_state.get(BOUND_KEY, set())
    for key in bound - set(keep):
        st.session_state.pop(key, None)
    st.session_state[BOUND_KEY] = bound & set(keep)


def start() -> None:
    """The whole app's run (app.py): page config, shared styles, the router."""
    from lnviz.app import layout, lazy_charts

    st.set_page_config(
        page_title="lnviz · layer normalization explorer", page_icon="📐", layout="wide"
    )
    layout.phone_styles()  # charts first on a phone (lnviz/app/layout.py)
    lazy_charts.install()  # charts far below the screen drawn when scrolled near
    run()


def ensure_router() -> None:
    """Hand a page Streamlit ran alone (old multipage mode, streamlit#9624) to the router."""
    if getattr(_ROUTING, "active", False):
        return
    start()
    st.stop()


def run() -> None:
    """Declare every page in its section and run the one asked for, app-wide controls first."""
    remember_link()  # the link as it came, before a control takes a value from it
    pages = _pages()
    navigation = st.navigation(pages, position="hidden")  # the whole course
    if not st.context.is_embedded:  # embedded in another site, the page shows alone
        course_nav(pages)
    shown = st.session_state.get(SHOWN_KEY)  # None on a visitor's first run
    if shown != navigation.url_path:
        forget_controls(keep=(PRESENT_KEY,))
        st.session_state[SHOWN_KEY] = navigation.url_path
    with st.container(key=TOP_KEY):  # always there, so the page's elements keep their places
        if shown not in (None, navigation.url_path):
            to_the_top(navigation.url_path)
    presentation_switch()  # the entrypoint's controls: states of the whole app
    tables_switch()
    classpoll.before_page(navigation.url_path)  # a student's class box; a room follows
    _ROUTING.active = True  # the page runs inside this call, in this thread
    try:
        navigation.run()
    finally:
        _ROUTING.active = False
    settle_link()  # (not reached when the run stopped to correct a link: st.rerun)


NAV_KEY = "lnviz-course-nav"


def course_nav(pages: dict[str, list[st.Page]]) -> None:
    """The course's pages as sidebar links: Streamlit's own list confuses screen readers."""
    with st.sidebar, st.container(key=NAV_KEY):
        for section, section_pages in pages.items():
            st.markdown(f"**{section}**")
            for page in section_pages:
                st.page_link(page)
        st.html(_NAV_ROLE_JS, unsafe_allow_javascript=True)


_NAV_ROLE_JS = """<script>
(() => {  /* the links' box is the page's navigation landmark, named */
  const nav = document.querySelector(".st-key-lnviz-course-nav");
  if (nav) { nav.setAttribute("role", "navigation"); nav.setAttribute("aria-label", "Course"); }
})();
</script>"""


TOP_KEY = "lnviz-page-top"
_TOP_JS = """<script>
(() => {  /* PAGE: a new page opens at its top */
  const top = () => {
    for (let el = document.querySelector(".st-key-KEY"); el; el = el.parentElement) {
      if (el.scrollTop > 0) el.scrollTop = 0;
    }
    window.scrollTo(0, 0);
  };
  top();
  requestAnimationFrame(top);
  setTimeout(top, 250);  /* after the new page's first elements replace the old ones */
})();
</script>"""


def to_the_top(url_path: str) -> None:
    """Scroll to the top on a page change: Streamlit keeps the old page's scroll position."""
    script = _TOP_JS.replace("KEY", TOP_KEY).replace("PAGE", url_path or "home")
    st.html(script, unsafe_allow_javascript=True)
