"""For a lecture hall: presentation mode's styles and its way out, and a QR code of the view
being shown, so that students open the same state on their phones."""

from __future__ import annotations

import io
from urllib.parse import quote, urlencode

import segno
import streamlit as st

from lnviz.app._streamlit_private import current_url_path
from lnviz.content.sheets import origin
from lnviz.content.text import plain

PRESENT_CSS = """<style>
  [data-testid="stMainBlockContainer"] { max-width: 96rem; }
  [data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.3rem; }
  [data-testid="stMain"] h1 { font-size: 3.2rem; }
  [data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: 2.2rem; }
  [data-testid="stMetricValue"] div { font-size: 2.8rem; }
  [data-testid="stMain"] input, [data-testid="stMain"] textarea,
  [data-testid="stMain"] label p, [data-testid="stMain"] [data-baseweb="select"] div,
  [data-testid="stMain"] [data-testid="stTable"] td,
  [data-testid="stMain"] [data-testid="stTable"] th,
  [data-testid="stMain"] [data-testid="stMarkdownContainer"] td,
  [data-testid="stMain"] [data-testid="stMarkdownContainer"] th { font-size: 1.3rem; }
  [data-testid="stMain"] [data-testid="stSliderThumbValue"],
  [data-testid="stMain"] [data-testid="stTickBarMin"],
  [data-testid="stMain"] [data-testid="stTickBarMax"] { font-size: 1.25rem; }
  .katex { font-size: 1.35em; }
</style>"""


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


def join_panel() -> None:
    """'Scan to open this view': the QR code of the current link, and the link in large
    type, so that a class opens exactly what the projector shows."""
    link = current_link()
    with st.popover("Scan to open this view", icon=":material/qr_code_2:"):
        st.image(
            qr_png(link), caption="QR code of the link to this view", width=280,
            output_format="PNG",
        )  # fmt: skip
        st.subheader(plain(link, limit=400), anchor=False)  # escaped: it holds visitor text


def way_out(key: str) -> None:
    """A visible button that leaves presentation mode."""
    st.button(
        "Leave presentation mode", icon=":material/close_fullscreen:", key="leave-present",
        on_click=lambda: st.session_state.update({key: False}), type="tertiary",
    )  # fmt: skip


def full_app_link() -> None:
    """Embedded in another site: a small link that opens the same state in the full app."""
    st.markdown(f"[Open this view in the full app ↗]({current_link()})")
