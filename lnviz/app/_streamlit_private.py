"""The only module that touches Streamlit's private API (Streamlit 1.67).

One need that the public API does not meet: editing the query string before a bound
widget is seeded from it.
"""

from __future__ import annotations


def forget_url_value(key: str) -> None:
    """Drop a URL value before a bound widget is seeded from it.

    Streamlit 1.67 seeds an int number_input with int(float(value)); for "inf" that raises
    OverflowError, which it does not catch, so the page would fail. The seed is read from
    the query string the session started with, so it is removed there as well.
    """
    set_url_value(key, None)


def set_url_value(key: str, value: str | None) -> None:
    """Replace (or, with None, drop) a URL value before a bound widget is seeded from it.

    Both the query string the session started with (what seeds widgets) and the current
    one change, and the browser's address follows. The current one is edited in place:
    `st.query_params[key] = ...` refuses a key that a widget of this or an earlier page
    has bound.
    """
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as qp:
        initial = getattr(qp, "_initial_query_params", {})
        current = getattr(qp, "_query_params", {})
        for params, new in ((initial, [value]), (current, value)):
            if value is None:
                params.pop(key, None)
            elif key in params:
                params[key] = new
        getattr(qp, "_send_query_param_msg", lambda: None)()
