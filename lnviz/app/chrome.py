"""Page chrome: title and lead, the share box, presentation mode, "what to notice" lists."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from lnviz.app._streamlit_private import ensure_router
from lnviz.app.controls import toggle

PRESENT_KEY = "present"  # URL key of presentation mode, shared by every page

_PRESENT_CSS = """<style>
  [data-testid="stMainBlockContainer"] { max-width: 96rem; }
  [data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.3rem; }
  [data-testid="stMain"] h1 { font-size: 3.2rem; }
  [data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: 2.2rem; }
  [data-testid="stMetricValue"] div { font-size: 2.8rem; }
  .katex { font-size: 1.35em; }
</style>"""


def presenting() -> bool:
    """Whether presentation mode (larger type and charts, prose folded) is on."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def notice(items: Iterable[str], *, title: str = "What to notice") -> None:
    """The 'what to notice' list of a section (folded in presentation mode)."""
    with st.expander(title, expanded=not presenting(), icon=":material/visibility:"):
        st.markdown("\n".join(f"- {item}" for item in items))


def page_intro(title: str, lead: str) -> None:
    """The page's title and lead, the sidebar's share box and presentation switch.

    In presentation mode (for a projector) type and charts grow, the lead paragraph and
    the 'what to notice' lists fold away, and the state stays in the link like any control.
    """
    ensure_router()
    present = presenting()
    if not st.context.is_embedded:  # an embedding site shows its own frame and link
        with st.sidebar:
            present = toggle(
                "Presentation mode",
                key=PRESENT_KEY,
                help="Larger type and charts, explanations folded: for projecting in class.",
            )
            share_link()
    if present:
        st.html(_PRESENT_CSS)
    st.title(title)
    if present:
        with st.expander("About this page", icon=":material/info:"):
            st.markdown(lead)
    else:
        st.markdown(lead)


_SHARE_HTML = """
<div class="row"><input id="u" readonly aria-label="Link to this view">
<button id="b" type="button">Copy link</button></div>
<style>
  body {{ margin: 0; font: 14px "Source Sans Pro", sans-serif; background: transparent; }}
  .row {{ display: flex; gap: 6px; }}
  input {{ flex: 1; min-width: 0; padding: 6px 8px; border-radius: 6px; font: inherit;
          border: 1px solid {border}; background: {field}; color: {text}; }}
  button {{ padding: 6px 10px; border-radius: 6px; border: 1px solid {border};
           background: {field}; color: {text}; font: inherit; cursor: pointer; }}
</style>
<script>
  const u = document.getElementById("u"), b = document.getElementById("b");
  const here = () => {{ try {{ return window.parent.location.href; }} catch (e) {{ return ""; }} }};
  const tick = () => {{ const h = here(); if (u.value !== h) u.value = h; }};
  tick(); setInterval(tick, 600);
  b.addEventListener("click", async () => {{
    tick();
    try {{ await navigator.clipboard.writeText(u.value); }}
    catch (e) {{ u.select(); document.execCommand("copy"); }}
    b.textContent = "Copied"; setTimeout(() => (b.textContent = "Copy link"), 1500);
  }});
</script>
"""


def share_link() -> None:
    """The live address of this exact view (every control is in it), with a copy button.

    The address is read in the browser, so it follows every control as it moves, including
    those inside fragments. Nothing a visitor typed is inserted into this HTML.
    """
    dark = st.context.theme.type == "dark"
    colors = (
        {"border": "#3d4150", "field": "#262730", "text": "#fafafa"}
        if dark
        else {"border": "#d5d7de", "field": "#ffffff", "text": "#31333f"}
    )
    st.caption("Share this view: the link holds every control's value.")
    st.iframe(_SHARE_HTML.format(**colors), height=44, alt="Link to this view with a copy button")
