"""Helpers for the Reference pages' tests: open pages through the router, check deep links.

The Glossary and Worked examples pages use st.page_link, which resolves page files against
the router's st.navigation, so they are run through app.py (`via_router`). A deep link is
checked by running its target page with exactly its query parameters (`assert_link_opens`):
no exception, no error, no refused-link message, and every parameter names a control of
that page that now shows the value the link asked for.
"""

from __future__ import annotations

import math

from streamlit.testing.v1 import AppTest

from lnviz.content.glossary import Link
from tests.apptest_helpers import ROOT, assert_clean

REFUSED = "The link set"  # how lnviz.app.ui reports a URL value it did not accept


def via_router(name: str, query: dict[str, str] | list[tuple[str, str]] | None = None) -> AppTest:
    """Run pages/<name>.py as the router does (app.py + switch_page), with a query string.

    A list of pairs repeats keys (?k=a&k=b); AppTest keeps a list value as repeated keys.
    """
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page(f"../pages/{name}.py")
    pairs = list(query.items()) if isinstance(query, dict) else list(query or [])
    grouped: dict[str, list[str]] = {}
    for key, value in pairs:
        grouped.setdefault(key, []).append(value)
    for key, values in grouped.items():
        at.query_params[key] = values if len(values) > 1 else values[0]
    return at.run()


def _compact(text: str) -> str:
    return "".join(str(text).split())


def shown_value_matches(at: AppTest, key: str, raw: str) -> bool:
    """True if the control bound to `key` shows the value `raw` asked for."""
    for kind in ("select_slider", "radio", "text_input", "number_input", "slider", "checkbox"):
        found = [w for w in at.get(kind) if getattr(w, "key", None) == key]
        if not found:
            continue
        w = found[0]
        if kind == "select_slider":
            return w.format_func(w.value) == raw
        if kind == "radio":
            return raw in (str(w.value), w.options[w.index])
        if kind == "text_input":
            return _compact(w.value) == _compact(raw)
        if kind == "checkbox":
            return str(w.value).lower() == raw.strip().lower()
        return math.isclose(float(w.value), float(raw), rel_tol=1e-12, abs_tol=1e-15)
    raise AssertionError(f"no control with key {key!r} on the page")


def assert_link_opens(target: Link) -> AppTest:
    """Open the link's page through the router with its query parameters and check the
    state it shows (through the router, as a visitor's link does: pages may link to others)."""
    at = via_router(target.page, target.params)
    assert_clean(at)
    where = f"{target.page}?{target.params}"
    assert not at.error, (where, [e.value for e in at.error])
    refused = [w.value for w in at.warning if REFUSED in str(w.value)]
    assert not refused, (where, refused)
    for key, raw in target.query:
        assert shown_value_matches(at, key, raw), (where, key, raw)
    return at
