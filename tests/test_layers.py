"""The layers, by their imports: engine ← lessons ← content ← figures ← app ← pages.

Each module may import from its own layer and the layers to its left, never to its
right; the engine, lessons and content import NumPy and the standard library only.
Read from the source (every import statement, also inside functions), so a test run
that never executes a branch cannot hide a backward import.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["engine", "lessons", "content", "figures", "app", "pages"]
THIRD_PARTY = {  # what each layer may import besides lnviz and the standard library
    "engine": {"numpy"},
    "lessons": {"numpy"},
    "content": {"numpy"},
    "figures": {"numpy", "plotly"},
    "app": {"numpy", "plotly", "streamlit", "pandas", "pyarrow", "segno"},
    "pages": {"numpy", "plotly", "streamlit", "pandas"},
}
MAX_ENGINE_MODULES = 12
MAX_LINES = 400


def layer_of_module(name: str) -> str:
    parts = name.split(".")
    if parts[0] != "lnviz":
        raise ValueError(name)
    sub = parts[1] if len(parts) > 1 else ""
    return sub if sub in ("lessons", "content", "figures", "app") else "engine"


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


@pytest.mark.parametrize(
    "path", [p for p in SOURCES if layer_of_file(p) == "pages"], ids=lambda p: p.name
)
def test_pages_leave_streamlits_private_api_to_the_app_layer(path: Path) -> None:
    """Streamlit's private API is touched in lnviz/app/_streamlit_private.py, called by the
    app layer's controls: a page composes those controls, it does not reach past them."""
    assert not [n for n in imports(path) if n.startswith("lnviz.app._")], path.name
