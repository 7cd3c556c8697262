"""The layers, by their imports: engine ← lessons ← content ← classpoll ← figures ← app ← pages.

A lesson folder (`lnviz/lessons/<page>/`) holds three layers, by file name: `figures*.py`
are figures, `notes*.py` and `questions.py` are content, the rest
(its models and state spec) are lessons.

Each module may import from its own layer and the layers to its left, never to its
right; the engine, lessons and content import NumPy and the standard library only; the
class poll's storage and rooms (`lnviz/classpoll/`) the standard library and redis only.
Read from the source (every import statement, also inside functions), so a test run
that never executes a branch cannot hide a backward import.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["engine", "lessons", "content", "classpoll", "figures", "app", "pages"]
THIRD_PARTY = {  # what each layer may import besides lnviz and the standard library
    "engine": {"numpy"},
    "lessons": {"numpy"},
    "content": {"numpy"},
    "classpoll": {"redis"},  # no NumPy of its own: it reads answers through lnviz.content
    "figures": {"numpy", "plotly"},
    "app": {"numpy", "plotly", "streamlit", "pandas", "pyarrow", "segno"},
    "pages": {"numpy", "plotly", "streamlit", "pandas"},
}
MAX_ENGINE_MODULES = 12
MAX_LINES = 400


def lesson_file_role(stem: str) -> str:
    """The layer of a file in a lesson folder, by its name (see the module's docstring)."""
    if stem == "figures" or stem.startswith("figures_"):
        return "figures"
    if stem in ("notes", "questions") or stem.startswith("notes_"):
        return "content"
    return "lessons"


def layer_of_module(name: str) -> str:
    parts = name.split(".")
    if parts[0] != "lnviz":
        raise ValueError(name)
    sub = parts[1] if len(parts) > 1 else ""
    if sub == "lessons" and len(parts) > 3:  # a file of a lesson folder: its role by name
        return lesson_file_role(parts[3])
    return sub if sub in ("lessons", "content", "classpoll", "figures", "app") else "engine"


def layer_of_file(path: Path) -> str:
    rel = path.relative_to(ROOT)
    if rel.parts[0] == "pages" or (rel.name == "app.py" and len(rel.parts) == 1):
        return "pages"
    return layer_of_module(".".join(rel.with_suffix("").parts))


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            if node.module == "lnviz":  # from lnviz import lessons -> lnviz.lessons
                names += [f"lnviz.{a.name}" for a in node.names]
    return names


SOURCES = sorted([*(ROOT / "lnviz").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_left_only(path: Path) -> None:
    mine = LAYERS.index(layer_of_file(path))
    for name in imports(path):
        top = name.split(".")[0]
        if top == "lnviz":
            theirs = layer_of_module(name)
            assert LAYERS.index(theirs) <= mine, f"{path.name} ({LAYERS[mine]}) imports {name}"
        elif top not in sys.stdlib_module_names and top not in ("__future__",):
            assert top in THIRD_PARTY[LAYERS[mine]], f"{path.name} imports {top}"


def test_the_checker_sees_a_backward_import(tmp_path: Path) -> None:
    """The rule above can fail: an engine file importing the app layer is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from lnviz.app import ui\n")
    assert "lnviz.app" in imports(bad)
    assert LAYERS.index(layer_of_module("lnviz.app")) > LAYERS.index("engine")


def test_engine_folder_stays_small() -> None:
    modules = sorted(p.name for p in (ROOT / "lnviz").glob("*.py"))
    assert len(modules) <= MAX_ENGINE_MODULES, modules


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_file_over_the_limit(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_LINES


PUBLIC_STREAMLIT = {"streamlit", "streamlit.components.v1", "streamlit.components.v2"}
PATCHABLE = {"streamlit", "asyncio", "socket", "tornado", "uvicorn", "starlette", "plotly"}


def private_uses(source: str) -> list[str]:
    """Imports of Streamlit's private modules, and assignments to an attribute of a module
    the app runs on (a monkeypatch), in one module's source.
    """
    tree = ast.parse(source)
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> module it names
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                modules[a.asname or a.name.split(".")[0]] = a.name
                if a.name.startswith("streamlit.") and a.name not in PUBLIC_STREAMLIT:
                    found.append(f"import {a.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("streamlit.") and node.module not in PUBLIC_STREAMLIT:
                found.append(f"import {node.module}")
            for a in node.names:
                modules[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            targets = node.args[:1]
        for target in targets:
            base = target.value if isinstance(target, ast.Attribute) else target
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                root = modules[base.id].split(".")[0]
                if root in PATCHABLE and isinstance(target, ast.Attribute | ast.Name):
                    attr = target.attr if isinstance(target, ast.Attribute) else "?"
                    found.append(f"{base.id}.{attr} = ...")
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from streamlit.runtime import Runtime", ["import streamlit.runtime"]),
        ("import streamlit.web.server as s", ["import streamlit.web.server"]),
        ("import asyncio\nasyncio.BaseEventLoop.x = 1", ["asyncio.x = ..."]),
        ("from streamlit.runtime.scriptrunner import script_runner as r\nr.f = g", None),
        ("import socket\nsetattr(socket, 'socket', object)", ["socket.? = ..."]),
        ("import streamlit as st\nst.session_state['k'] = 1\nst.query_params.k = 2", None),
        ("import streamlit.components.v2\nfrom streamlit.components.v1 import html", []),
    ],
)
def test_the_public_api_check_finds_private_uses(source: str, found: list[str] | None) -> None:
    """The checker below on sources that break the rule, and on ones that keep it."""
    if found is None:  # several findings: at least one, each named
        assert private_uses(source) and all(" " in f for f in private_uses(source))
    else:
        assert private_uses(source) == found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_code_uses_public_apis_only(path: Path) -> None:
    """Nothing from streamlit.runtime, streamlit.web or other private modules, and no
    module the server runs on is patched (issue 34): a Streamlit release cannot break a
    hook it does not know about."""
    assert private_uses(path.read_text()) == []


PLOTLY_INTERNALS = re.compile(
    r"\._full[A-Z]\w*|__data__|\._(?:scene|context|dragger|offset|size)\b"
    r"|\.(?:c2p|p2c|l2p|p2l|d2c|c2d)\(|\bnsewdrag\b"
)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("gd._fullLayout.xaxis", ["._fullLayout"]),
        ("const a = fl.xaxis._offset + xa.l2p(x);", ["._offset", ".l2p("]),
        ("g.__data__[0]; gd.querySelector('.nsewdrag')", ["__data__", "nsewdrag"]),
        ("P.animate(gd, frame, opts); gd.layout.xaxis.range", []),
    ],
)
def test_the_plotly_internals_check_finds_them(source: str, found: list[str]) -> None:
    """The pattern below on scripts that read Plotly.js internals, and on one that does not."""
    assert sorted(set(PLOTLY_INTERNALS.findall(source))) == sorted(found)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "lnviz").rglob("*.js")) + list(SOURCES),  # and scripts inside Python
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_shipped_scripts_use_plotlys_public_api(path: Path) -> None:
    """No underscore internals of Plotly.js (`_fullLayout`, `_fullData`, d3's `__data__`):
    the public figure (`gd.data`, `gd.layout`), events and Plotly's functions instead."""
    assert not PLOTLY_INTERNALS.findall(path.read_text())


DOM_ADAPTER = "lnviz/app/streamlit_dom.py"  # the one file that may name Streamlit's test ids
SHIPPED = sorted(
    p
    for p in [*(ROOT / "lnviz").rglob("*"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
    if p.suffix in (".py", ".js", ".css", ".html")
)


TEST_ID = re.compile(r"data-testid|dataset\.testid", re.IGNORECASE)


def selects_by_test_id(source: str) -> list[str]:
    """The lines of a source that select by Streamlit's `data-testid` (its own tests' hooks,
    not an API: a release may rename them)."""
    return [line.strip() for line in source.splitlines() if TEST_ID.search(line)]


def test_the_test_id_check_finds_a_selector() -> None:
    """The checker below can fail: CSS and JS that select by a test id are caught."""
    css = '<style>[data-testid="stMain"] h1 { font-size: 2rem; }</style>'
    js = "const b = el.closest('[DATA-TESTID=stElementContainer]');"
    js2 = 'if (b.dataset.testid === "stLayoutWrapper") return;'
    assert selects_by_test_id(css) == [css] and selects_by_test_id(js) == [js]
    assert selects_by_test_id(js2) == [js2]
    assert selects_by_test_id(".stMain h1, .st-key-lnviz-stage { display: none; }") == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_leave_streamlits_test_ids_to_the_adapter(path: Path) -> None:
    """Styles and scripts reach Streamlit's page by key classes (`.st-key-…`), element
    classes and plain HTML (issue 34); what has no such hook is named once, in the adapter,
    whose selectors tests/browser/test_streamlit_dom.py checks on a real page."""
    found = selects_by_test_id(path.read_text())
    if str(path.relative_to(ROOT)) == DOM_ADAPTER:
        assert found, "the adapter names no test id any more: drop this exception"
    else:
        assert not found, found


ELEMENT_CLASS = re.compile(r"""[."'`](st[A-Z][A-Za-z]+)\b""")  # .stMetric, "stVerticalBlock"


def test_streamlits_element_classes_the_app_names_are_in_the_installed_streamlit() -> None:
    """The element classes shipped styles and scripts select (`.stMetric`, `.stColumn`) are
    names the installed Streamlit's page code still sets: a release that renames one fails
    here (the structure they are used in is checked by tests/browser/test_streamlit_dom.py)."""
    import streamlit

    bundle = "".join(
        p.read_text(errors="ignore")
        for p in (Path(streamlit.__file__).parent / "static").rglob("*.js")
    )
    named = {name for path in SHIPPED for name in ELEMENT_CLASS.findall(path.read_text())}
    assert {"stMetric", "stMainBlockContainer", "stElementContainer"} <= named
    missing = sorted(n for n in named if not re.search(f"[`\"']{n}[`\"' ]", bundle))
    assert not missing, missing


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("lnviz.lessons.epsilon", "lessons"),
        ("lnviz.lessons.gain_and_bias.live", "lessons"),
        ("lnviz.lessons.epsilon.state", "lessons"),
        ("lnviz.lessons.epsilon.figures", "figures"),
        ("lnviz.lessons.transformer.figures_attention", "figures"),
        ("lnviz.lessons.epsilon.notes", "content"),
        ("lnviz.lessons.gain_and_bias.notes_live", "content"),
        ("lnviz.lessons.epsilon.questions", "content"),
        ("lnviz.lessons.explorers", "lessons"),
    ],
)
def test_a_lesson_folders_files_take_their_layer_from_their_names(module: str, layer: str) -> None:
    assert layer_of_module(module) == layer


def test_a_lesson_model_importing_its_figures_is_caught() -> None:
    """A model (lessons) may not import its folder's figures (figures): right, not left."""
    model, figures = (
        layer_of_module("lnviz.lessons.epsilon"),
        layer_of_module("lnviz.lessons.epsilon.figures"),
    )
    assert LAYERS.index(figures) > LAYERS.index(model)
