"""The only module that touches Streamlit's private API (Streamlit 1.67).

Five needs that the public API does not meet: handing a page that Streamlit ran on its own
over to the router, editing the query string before a bound widget is seeded from it,
knowing which registered page is running (for download names), the server's event loop
(lnviz.app.wakeups), and a hook around every script run (lnviz.app.run_queue).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import streamlit as st


def ensure_router() -> None:
    """Hand a page that Streamlit ran directly over to the router in app.py.

    Until app.py's st.navigation has run once in a server process, Streamlit treats the
    pages/ folder as an old-style multipage app: a first visit straight to /epsilon runs
    pages/epsilon.py alone, with an automatic sidebar and without the router's page config
    (upstream issue streamlit/streamlit#9624). st.navigation clears that mode; a page that
    finds it still on clears it too and reruns, which goes through the router. Page files
    are named like their url_path, so the rerun lands on the same page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


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


def current_url_path() -> str:
    """The url path of the page this script run belongs to ("" for the home page)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return ""
    page = ctx.pages_manager.get_pages().get(ctx.page_script_hash, {})
    return str(page.get("url_pathname", ""))


def server_event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop Streamlit's server runs on; None where no server runs (AppTest)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    try:
        return Runtime.instance()._get_async_objs().eventloop
    except Exception:  # a Runtime that has not started its loop yet
        return None


_WRAPPED = "_lnviz_wrapped"


def wrap_script_execution(around: Callable[[Callable[[], Any], Any], Any]) -> bool:
    """Run every later script run (a page or a fragment) as `around(run, ctx)`, `ctx` the
    run's ScriptRunContext; True if the hook was put in now, False if it was already
    there.

    Streamlit 1.67's ScriptRunner executes each run, whole page or fragment, with one call
    of `exec_func_with_error_handling(code_to_exec, ctx)`, a name it imports into
    streamlit.runtime.scriptrunner.script_runner; that module-level name is replaced by a
    function that makes the same call inside `around` (tests/app/test_run_queue.py checks
    the call site is still there).
    """
    from streamlit.runtime.scriptrunner import script_runner

    original = script_runner.exec_func_with_error_handling
    if getattr(original, _WRAPPED, False):
        return False

    def wrapped(func: Callable[[], Any], ctx: Any) -> Any:
        return around(lambda: original(func, ctx), ctx)

    setattr(wrapped, _WRAPPED, True)
    wrapped.__wrapped__ = original  # type: ignore[attr-defined]
    script_runner.exec_func_with_error_handling = wrapped
    return True
