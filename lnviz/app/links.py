"""A link's values for controls; corrections go into the link, then rerun (widgets seed from it)."""

from __future__ import annotations

import streamlit as st

from lnviz.content.text import plain

_LINK_KEY = "_lnviz_link_corrections"  # session state: the link as it came, and messages
_ARRIVED_KEY = "_lnviz_link_arrived"  # session state: this run's link, before any control
_NOTE_ICONS = {"info": ":material/straighten:", "warning": ":material/link_off:"}


def correct(key: str, value: str | None, note: tuple[str, str] | None) -> None:
    """Put `value` in the link for `key`, keep `note`, and rerun from the corrected link."""
    try:  # refused for a key a widget has bound (this session's earlier page): say it now
        if value is None:
            del st.query_params[key]
        else:
            st.query_params[key] = value
    except Exception:  # Streamlit's StreamlitAPIException (its errors module is not public)
        if note is not None:
            getattr(st, note[0])(note[1], icon=_NOTE_ICONS[note[0]])
        return
    pending = st.session_state.get(_LINK_KEY)
    if pending is None or "settled" in pending:  # (a new link since the last corrections)
        given = dict(st.session_state.get(_ARRIVED_KEY, {}))
        pending = st.session_state[_LINK_KEY] = {"given": given, "notes": {}}
    pending["given"][key] = [] if value is None else [value]
    if note is not None:
        pending["notes"].setdefault(key, []).append(note)
    st.rerun()


def _link() -> dict[str, list[str]]:
    return {k: st.query_params.get_all(k) for k in st.query_params}


def remember_link() -> None:
    """Before the controls: keep the link as it came; end corrections once the link has changed."""
    pending = st.session_state.get(_LINK_KEY)
    if pending is not None and "settled" in pending and pending["settled"] != _link():
        del st.session_state[_LINK_KEY]
        pending = None
    if pending is None:
        st.session_state[_ARRIVED_KEY] = _link()


def settle_link() -> None:
    """After a full run: the corrected link, whose messages stay on screen until it changes."""
    pending = st.session_state.get(_LINK_KEY)
    if pending is not None:
        pending["settled"] = _link()


def raw_value(key: str) -> str | None:
    """The link's value for `key`; a repeated key keeps its last value, with a message."""
    pending = st.session_state.get(_LINK_KEY)
    for kind, message in pending["notes"].get(key, ()) if pending is not None else ():
        getattr(st, kind)(message, icon=_NOTE_ICONS[kind])
    if pending is not None and key in pending["given"]:
        values = pending["given"][key]
    else:
        values = st.query_params.get_all(key)
    if len(values) > 1:
        message = (
            f"The link gives **{key}** {len(values)} values, but a control holds one: "
            f"using the last, “{plain(values[-1], 40)}”."
        )
        correct(key, values[-1], ("warning", message))
    return values[-1] if values else None


def in_link(*keys: str) -> bool:
    """Whether the link as it came names any of `keys`, counting values a correction took out."""
    pending = st.session_state.get(_LINK_KEY)
    named = pending["given"] if pending is not None else st.query_params
    return any(k in named for k in keys)
