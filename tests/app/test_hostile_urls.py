"""Hostile links against every page the router serves.

Each page is opened as a visitor would open it (through app.py) with bad values on every
URL key it reads: no exception, a message naming the field for every refused value, nothing
a visitor wrote rendered as markdown, and bounded time and memory for the worst valid link.

The keys come from the page's declarative state spec (lnviz/lessons/<page>/state.py,
STATE), plus presentation mode's `present`, which every page has; they are checked against
the controls the page actually shows (a control the spec leaves out fails), so a new
control is covered without editing this file; a key shown only in some state (e.g. a
batch-norm-only slider) is tested in the state a preset puts the page in.
"""

from __future__ import annotations

import ast
import functools
import importlib
import math
import re
import tracemalloc
from dataclasses import dataclass, field
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.app.chrome import PRESENT_KEY
from lnviz.app.ui import label_name
from lnviz.content import registry
from lnviz.lessons.spec import Link
from tests.apptest_helpers import ROOT, shown

# --------------------------------------------------------------------------- the pages


def routed_pages() -> list[str]:
    """The page scripts the registry routes, by file stem (which is also the url_path)."""
    return [info.script.removeprefix("pages/").removesuffix(".py") for info in registry.PAGES]


PAGES = routed_pages()

INPUT_WIDGETS = {  # Streamlit widgets a visitor types or picks values in
    *("text_input", "text_area", "number_input", "slider", "select_slider", "radio"),
    *("checkbox", "toggle", "selectbox", "multiselect", "segmented_control", "pills"),
    *("date_input", "time_input", "color_picker", "data_editor", "chat_input", "feedback"),
}


def lesson_state(name: str) -> Any:
    """The lesson's state spec (lnviz.lessons.spec.State), or None if it has none yet."""
    try:
        module = importlib.import_module(f"lnviz.lessons.{name.replace('-', '_')}.state")
    except ModuleNotFoundError:
        return None
    return module.STATE


@functools.cache
def url_keys(name: str) -> tuple[str, ...]:
    """Every URL key the page reads: its state spec's and presentation mode's."""
    state = lesson_state(name)
    return tuple(sorted({PRESENT_KEY, *(state.names if state is not None else ())}))


def link_keys(name: str) -> set[str]:
    """The spec's keys that no control binds (read with ui.link_text)."""
    state = lesson_state(name)
    return {k.name for k in state.keys if isinstance(k, Link)} if state is not None else set()


CASES = [(name, key) for name in PAGES for key in url_keys(name)]

# --------------------------------------------------------------------------- hostile values

HOSTILE: dict[str, str | list[str]] = {
    "nan": "nan",
    "text": "abc",
    "huge": "1e308",
    "script": "<script>alert(1)</script>",
    "negative": "-1",
    "inf": "inf",
    "minus_inf": "-inf",
    "big_int": str(10**30),
    "empty": "",
    "repeated": ["1", "2"],
    "markdown": "**x**",
    "js_link": "[a](javascript:alert(1))",
    "image": "![i](https://example.com/x.png)",
    "long": "9" * 10_000,
    "overflow": "1e999/1",  # a fraction too large for a float
}
EVERY_KEY_ALONE = ["nan", "text", "huge", "script"]  # each key on its own, on every page
MAYBE_VALID = {"negative", "empty"}  # a message is due only if the page did not take it
MARKUP = {"script": "<script>", "markdown": "**x**", "js_link": "](javascript:", "image": "!["}

# Search boxes take any words: only a repeated key and text longer than the box need a word.
FREE_TEXT = {("glossary", "q"): {"repeated", "long"}}


# --------------------------------------------------------------------------- running pages


def open_page(name: str, query: dict[str, Any] | None = None) -> AppTest:
    """Run a page through the router with a query string (lists repeat a key)."""
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page(f"../pages/{name}.py")
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def short(query: dict[str, Any] | None) -> str:
    return ", ".join(f"{k}={str(v)[:20]!r}" for k, v in (query or {}).items())[:300]


def messages(at: AppTest) -> list[str]:
    return [str(e.value) for e in (*at.warning, *at.error)]


@dataclass(frozen=True)
class Control:
    key: str
    kind: str  # widget type, or "link" for a key no control binds (?term=)
    label: str = ""
    context: dict[str, str] = field(default_factory=dict)  # a state in which it is shown

    @property
    def names(self) -> set[str]:
        """How a message may name the field: its key, or its label's field name."""
        out = {self.key}
        if self.label:
            out.add(label_name(self.label))
            out |= {w for w in re.findall(r"[^\W\d_]{4,}", self.label.lower())}
        return out


def bound_widgets(at: AppTest) -> dict[str, tuple[str, str]]:
    """key -> (widget type, label) of every URL-bound control on the page."""
    found: dict[str, tuple[str, str]] = {}

    def walk(node: Any) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)
        proto = getattr(node, "proto", None)
        qkey = getattr(proto, "query_param_key", "") if proto is not None else ""
        if qkey:
            found[qkey] = (node.type, str(getattr(node, "label", "")))

    walk(at._tree)
    return found


UNFOLDED = {"examples": {"section": "All"}}  # the checks' panel is drawn only when open


@functools.cache
def controls(name: str) -> dict[str, Control]:
    """The page's URL keys with their widget and a state that shows them.

    Keys missing from the default state are looked for in each preset's state. A page whose
    controls sit in a folded, lazily drawn panel is opened with a link that unfolds it (any
    value of those keys does).
    """
    at = open_page(name, UNFOLDED.get(name, {}))
    seen = {k: Control(k, kind, label) for k, (kind, label) in bound_widgets(at).items()}
    missing = set(url_keys(name)) - set(seen)
    presets = [b.key for b in at.button if b.key and re.search(r"presets.*-\d+$", b.key)]
    for preset in presets:
        if not missing - link_keys(name):
            break
        at = open_page(name, UNFOLDED.get(name, {}))
        at.button(key=preset).click().run()
        context = {k: v for k, v in at.query_params.items() if isinstance(v, str)}
        for key, (kind, label) in bound_widgets(at).items():
            if key in missing:
                seen[key] = Control(key, kind, label, context)
        missing -= set(seen)
    for key in missing:
        seen[key] = Control(key, "link")  # read with ui.link_text, no widget
    return seen


@functools.cache
def baseline(name: str, context: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """Messages the page shows in a state before anything hostile is added."""
    return frozenset(messages(open_page(name, dict(context))))


def accepted(at: AppTest, control: Control, raw: Any) -> bool:
    """Whether the control now shows the value the link asked for."""
    if control.kind == "link" or isinstance(raw, list):
        return False
    widgets = [w for w in at.get(control.kind) if getattr(w, "key", None) == control.key]
    if not widgets:
        return False
    w = widgets[0]
    try:
        if control.kind == "select_slider":
            return w.format_func(w.value) == raw
        if control.kind == "radio":
            return raw in (str(w.value), w.options[w.index])
        if control.kind == "checkbox":
            return str(w.value).lower() == raw.strip().lower()
        if control.kind == "text_input":
            return w.value == raw
        return math.isclose(float(w.value), float(raw), rel_tol=1e-12, abs_tol=1e-15)
    except (ValueError, TypeError, IndexError):
        return False


def message_due(name: str, control: Control, case: str, at: AppTest) -> bool:
    if (name, control.key) in FREE_TEXT:
        return case in FREE_TEXT[(name, control.key)]
    if case in MAYBE_VALID:
        return not accepted(at, control, HOSTILE[case])
    return True


def names_the_field(text: str, control: Control) -> bool:
    plain = shown(text)
    if f"**{control.key}**" in text:
        return True
    return any(
        re.search(rf"(?<!\w){re.escape(n)}(?!\w)", plain, flags=re.IGNORECASE)
        for n in control.names
    )


def assert_nothing_rendered(at: AppTest, case: str) -> None:
    """Markup the visitor sent is never in any markdown source unescaped."""
    if case not in MARKUP:
        return
    needle = MARKUP[case]
    for kind in ("markdown", "caption", "warning", "error", "info", "success"):
        for element in at.get(kind):
            assert needle not in str(element.value), f"{kind} renders {needle!r}: {element.value}"


# --------------------------------------------------------------------------- the tests


def test_every_routed_page_is_covered() -> None:
    files = {p.stem for p in (ROOT / "pages").glob("*.py")}
    assert set(PAGES) == files


@pytest.mark.parametrize("name", PAGES)
def test_the_spec_keys_are_the_controls_the_page_shows(name: str) -> None:
    """Every control the page shows in some state is a key of its spec, and every spec key
    is shown in some state, but for the spec's link-only keys (lnviz.lessons.spec.Link)."""
    shown_keys = {k for k, c in controls(name).items() if c.kind != "link"}
    assert shown_keys | link_keys(name) == set(url_keys(name))
    assert not shown_keys & link_keys(name)


def test_pages_read_links_and_text_only_through_ui() -> None:
    """No page creates an input widget or reads st.query_params itself (one validated path)."""
    for name in PAGES:
        tree = ast.parse((ROOT / "pages" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                via_ui = isinstance(node.func.value, ast.Name) and node.func.value.id == "ui"
                assert via_ui or node.func.attr not in INPUT_WIDGETS, (
                    f"{name}.py:{node.lineno} calls {node.func.attr} directly: use lnviz.app.ui"
                )
                assert not any(k.arg == "bind" for k in node.keywords), f"{name}:{node.lineno}"
            if isinstance(node, ast.Attribute) and node.attr in ("get", "get_all", "to_dict"):
                inner = node.value
                assert not (isinstance(inner, ast.Attribute) and inner.attr == "query_params"), (
                    f"{name}.py:{node.lineno} reads st.query_params: use ui.link_text"
                )
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                inner = node.value
                assert not (isinstance(inner, ast.Attribute) and inner.attr == "query_params"), (
                    f"{name}.py:{node.lineno} reads st.query_params: use ui.link_text"
                )


@pytest.mark.parametrize("case", EVERY_KEY_ALONE)
@pytest.mark.parametrize(("name", "key"), CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_one_hostile_key(name: str, key: str, case: str) -> None:
    control = controls(name)[key]
    context = {k: v for k, v in control.context.items() if k != key}
    at = open_page(name, {**context, key: HOSTILE[case]})
    assert_nothing_rendered(at, case)
    if not message_due(name, control, case, at):
        return
    new = [m for m in messages(at) if m not in baseline(name, tuple(sorted(context.items())))]
    assert new, f"{name}: {key}={HOSTILE[case]!r} was refused without a message"
    assert any(names_the_field(m, control) for m in new), (name, key, new)


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("name", PAGES)
def test_every_key_at_once(name: str, case: str) -> None:
    """The same bad value on every key of the page in one link."""
    value = HOSTILE[case]
    at = open_page(name, dict.fromkeys(url_keys(name), value))
    assert_nothing_rendered(at, case)
    on_page = bound_widgets(at)
    texts = messages(at)
    for key in url_keys(name):
        control = controls(name)[key]
        if control.kind != "link" and key not in on_page:
            continue  # its section is not shown in this state (another key was refused)
        if message_due(name, control, case, at):
            assert any(names_the_field(m, control) for m in texts), (
                f"{name}: {key}={str(value)[:30]!r} got no message naming it; shown: {texts}"
            )


@pytest.mark.parametrize("name", PAGES)
def test_hundreds_of_unrelated_parameters_change_nothing(name: str) -> None:
    junk = {f"p{i}": "x" * (i % 50) for i in range(400)}
    at = open_page(name, junk)
    plain = open_page(name)
    assert messages(at) == messages(plain)
    assert {k: w for k, w in bound_widgets(at).items()} == bound_widgets(plain)
    assert len(at.get("plotly_chart")) == len(plain.get("plotly_chart"))


# The most expensive valid link of each page, found by searching every control's extremes
# (largest sizes, longest sequences, every scheme); measured in docs/hardening.md.
WORST = {
    "home": {},
    "why-normalize": {"gain": "2", "depth": "64", "act": "linear"},
    "references": {},
    "reduction-axes": {
        **{"b": "8", "t": "16", "f": "32", "seed": "9999", "scheme": "group", "groups": "32"},
        "edits": ";".join(f"{i % 8},{i % 16},{i % 32}=1e3" for i in range(32)),  # 32 edits
        **{"eb": "7", "et": "15", "ef": "31"},
    },
    "epsilon": {"eps": "1e-06", "z": ", ".join(["1000", "-1000"] * 4), "a": "100"},
    "gain-and-bias": {
        **{"z": ", ".join(["1000", "-1000"] * 4), "gamma": ", ".join(["100", "-100"] * 4)},
        **{"beta": ", ".join(["100", "-100"] * 4), "eps": "10"},
    },
    "invariance": {"z": ", ".join(["1000", "-1000"] * 4), "s": ", ".join(["1000"] * 8)},
    "weighted-centering": {"w": "0.9", "a3": "1000, 0.001, 1000", "m": "3"},
    "transformer": {
        **{"depth": "48", "width": "256", "seed": "9999", "d": "64", "outliers": "0.5"},
        **{"x": "1, 2, 3, 4, 5, 6, 7, 8", "g": "1, 2, 3, 4, 5, 6, 7, 8"},
    },
    "sequences": {
        **{"b": "8", "t": "64", "seed": "9999", "w": "16", "leak": "true", "eps": "10"},
        **{"wrt": "market returns", "sf": "next return", "at": "5", "size": "10"},
        **{"ex": "7", "steps": "100"},
    },
    "batch-statistics": {
        **{"steps": "300", "b": "64", "f": "8", "seed": "9999", "at": "300"},
        **{"mt": "1", "mk": "1", "feat": "8", "sets": "8"},
    },
    "frameworks": {
        **{"scheme": "batch", "layout": "NHWC", "n": "4", "h": "16", "w": "6", "c": "32"},
        **{"g": "32", "steps": "1000", "ch": "31"},
    },
    "numerics": {"n": "2048", "off": "1e8", "prec": "bfloat16", "clamp": "false"},
    "glossary": {"q": "normalization"},
    "examples": {},
}
PEAK_MB = 48  # a few tens of MB per run at most


@pytest.mark.parametrize("name", PAGES)
def test_worst_link_is_cheap_in_memory(name: str) -> None:
    """The most expensive valid link allocates less than PEAK_MB during one run."""
    query = WORST.get(name)
    assert query is not None, f"add the most expensive link of {name} to WORST"
    at = open_page(name)  # warm imports, so they do not count as the page's allocation
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        at = open_page(name, query)
        peak = (tracemalloc.get_traced_memory()[1] - before) / 2**20
    finally:
        tracemalloc.stop()
    assert not messages(at), f"WORST[{name!r}] should be a valid link: {messages(at)}"
    assert peak < PEAK_MB, f"{name}: {peak:.1f} MB for {short(query)}"
