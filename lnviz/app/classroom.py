"""For a lecture hall: presentation mode's styles and its way out, and a QR code of the view
being shown, so that students open the same state on their phones."""

from __future__ import annotations

import io
from urllib.parse import quote, urlencode

import segno
import streamlit as st

from lnviz.app import slides as _slides
from lnviz.app._streamlit_private import current_url_path
from lnviz.content.sheets import origin
from lnviz.content.text import plain

PRESENT_CSS = """<style>
  /* Everything Streamlit sizes in rem grows by 23/16: body text and inputs 23 px, metric
     values 52 px, table cells (drawn on a canvas from rem sizes) 20 px. */
  html { font-size: 23px !important; }
  [data-testid="stMainBlockContainer"] { padding-top: 4.5rem; padding-bottom: 3rem; }
  .st-key-lnviz-present-bar { gap: 0.75rem; align-items: center; flex-wrap: wrap; }
  .st-key-lnviz-present-bar .st-key-slide-label p { font-weight: 600; margin: 0; }
  .katex { font-size: 1.15em; }
</style>"""


QR_WIDTH = 440  # px on screen: about 8 px a module for a link of this app, readable from a hall


def current_link() -> str:
    """The full address of the view being shown: this host, this page, every control."""
    base = origin(st.context.url or "")
    params = {k: v for k, v in st.query_params.to_dict().items() if k != "embed"}
    query = urlencode(params, quote_via=quote, safe=",/")
    path = current_url_path()
    return f"{base}/{path}" + (f"?{query}" if query else "")


def qr_png(link: str, scale: int = 8) -> bytes:
    """A QR code of `link` as PNG bytes (segno; error correction level M, quiet zone 4).

    >>> qr_png("http://localhost:8501/epsilon?eps=1/3")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    buffer = io.BytesIO()
    segno.make(link, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()


JOIN_KEY = "join"  # the panel's open state (not in the link)


def join_panel() -> None:
    """'Scan to open this view': the QR code of the current link, and the link in large
    type, so that a class opens exactly what the projector shows.

    Built when it is opened (the opening reruns the page): the link is then the address
    the browser shows at that moment, with every move made before, also those inside a
    fragment or a live control, which do not redraw this bar.
    """
    panel = st.popover(
        "Scan to open this view", icon=":material/qr_code_2:", key=JOIN_KEY, on_change="rerun"
    )
    if not panel.open:
        return
    link = current_link()
    with panel:
        st.image(
            qr_png(link), caption="Scan with a phone's camera to open this view",
            width=QR_WIDTH, output_format="PNG", alt=f"QR code of the link {link}",
        )  # fmt: skip
        st.subheader(plain(link, limit=400), anchor=False)  # escaped: it holds visitor text


def _leave(key: str) -> None:
    st.session_state[key] = False
    st.query_params.pop(_slides.SLIDE_KEY, None)


def way_out(key: str) -> None:
    """A visible button that leaves presentation mode (and its slides)."""
    st.button(
        "Leave presentation mode", icon=":material/close_fullscreen:", key="leave-present",
        on_click=_leave, args=(key,), type="secondary",
    )  # fmt: skip


def present_bar(number: int, key: str, *, slides: bool = True) -> None:
    """Presentation mode's bar at the top of the page: the QR code of this view, the slide
    buttons (lnviz.app.slides), and the way out."""
    with st.container(key="lnviz-present-bar", horizontal=True, vertical_alignment="center"):
        join_panel()
        if slides:
            _slides.controls(number)
        way_out(key)


def full_app_link() -> None:
    """Embedded in another site: a small link that opens the same state in the full app."""
    st.markdown(f"[Open this view in the full app ↗]({current_link()})")
