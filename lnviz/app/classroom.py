"""For a lecture hall: presentation mode's styles and way out, and a QR code of the view shown."""

from __future__ import annotations

import io
import ipaddress
import os
import socket
from urllib.parse import quote, urlencode, urlsplit

import segno
import streamlit as st

from lnviz.app import classpoll
from lnviz.app import slides as _slides
from lnviz.app.targets import current_url_path
from lnviz.content.sheets import origin
from lnviz.content.text import plain

PRESENT_CSS = """<style>
  /* Everything Streamlit sizes in rem grows by 23/16: body text and inputs 23 px, metric
     values 52 px, table cells (drawn on a canvas from rem sizes) 20 px. */
  html { font-size: 23px !important; }
  .stMainBlockContainer { padding-top: 4.5rem; padding-bottom: 3rem; }
  .st-key-lnviz-present-bar { gap: 0.75rem; align-items: center; flex-wrap: wrap; }
  .st-key-lnviz-present-bar .st-key-slide-label p { font-weight: 600; margin: 0; }
  .katex { font-size: 1.15em; }
</style>"""


QR_WIDTH = 440  # px on screen: about 8 px a module for a link of this app, readable from a hall


def _link(base: str, path: str, params: dict[str, str], drop: tuple[str, ...]) -> str:
    """base/path?query, without the `drop` keys; commas and slashes stay readable."""
    query = urlencode({k: v for k, v in params.items() if k not in drop}, quote_via=quote,
                      safe=",/")  # fmt: skip
    return f"{base}/{path}" + (f"?{query}" if query else "")


def current_link() -> str:
    """The full address of the view being shown: this host, this page, every control."""
    params = st.query_params.to_dict()
    return _link(origin(st.context.url or ""), current_url_path(), params, ("embed",))


PUBLIC_URL_ENV = "LNVIZ_PUBLIC_URL"  # the address students should use, e.g. https://host
PRESENTER_ONLY = ("present", "slide", "embed")  # the projector's keys, not the student's


def is_loopback(host: str) -> bool:
    """True for an address that only this machine can open (localhost, 127.x, ::1)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def student_link(
    shown: str, path: str, params: dict[str, str], public_url: str | None, lan_ip: str | None
) -> tuple[str, str | None]:
    """The link students scan: this view minus the projector's keys, on an address they reach."""
    warning = None
    if public_url and origin(public_url) == public_url.rstrip("/"):
        base = public_url.rstrip("/")
    elif public_url:
        base = origin(shown)
        warning = (
            f"{PUBLIC_URL_ENV} is set to “{plain(public_url, 60)}”, which is not an address "
            "such as https://host or http://host:8501: the link uses the address shown."
        )
    else:
        base = origin(shown)
        parts = urlsplit(base)
        host = parts.hostname or ""
        if is_loopback(host):
            if lan_ip and not is_loopback(lan_ip):
                port = f":{parts.port}" if parts.port else ""
                base = f"{parts.scheme}://{lan_ip}{port}"
            else:
                warning = (
                    "This link opens only on this computer: no network address was found. "
                    f"Start the app on a network the class shares, or set {PUBLIC_URL_ENV} to "
                    "the address students should use."
                )
    return _link(base, path, params, PRESENTER_ONLY), warning


@st.cache_resource(show_spinner=False)
def lan_address() -> str | None:
    """This machine's network address as Streamlit finds it: a UDP socket's source address."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any routed address would do
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def qr_png(link: str, scale: int = 8) -> bytes:
    """A QR code of `link` as PNG bytes (segno; error correction level M, quiet zone 4)."""
    buffer = io.BytesIO()
    segno.make(link, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()


JOIN_KEY = "join"  # the panel's open state (not in the link)


def join_panel() -> None:
    """The students' link as a QR code, built when opened so it holds every move made before."""
    panel = st.popover(
        "Scan to open this view", icon=":material/qr_code_2:", key=JOIN_KEY, on_change="rerun"
    )
    if not panel.open:
        return
    params = classpoll.student_params(st.query_params.to_dict())
    link, warning = student_link(
        st.context.url or "", current_url_path(), params,
        os.environ.get(PUBLIC_URL_ENV), lan_address(),
    )  # fmt: skip
    with panel:
        if warning:
            st.warning(warning, icon=":material/wifi_off:")
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
    """Presentation mode's bar atop the page: the view's QR code, slide buttons, the way out."""
    with st.container(key="lnviz-present-bar", horizontal=True, vertical_alignment="center"):
        join_panel()
        classpoll.lecturer_bar()
        if slides:
            _slides.controls(number)
        way_out(key)


def full_app_link() -> None:
    """Embedded in another site: a small link that opens the same state in the full app."""
    st.markdown(f"[Open this view in the full app ↗]({current_link()})")
