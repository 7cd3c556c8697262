"""The router: sections, url paths, and the home page it runs by default."""

from __future__ import annotations

import ast

from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import ROOT, assert_clean, figures

EXPLORE = {"reduction-axes", "epsilon", "gain-and-bias", "invariance", "weighted-centering"}
URL_PATHS = EXPLORE | {
    "sequences",
    "batch-statistics",
    "frameworks",
    "numerics",
    "glossary",
    "examples",
}


def test_home_page_renders_a_card_per_explorer_page() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert_clean(at)
    assert "layer normalization" in at.title[0].value
    specs = figures(at)
    assert len(specs) == len(EXPLORE)  # one live thumbnail per explorer page
    drawn = {str(spec["data"]) for spec in specs}
    assert len(drawn) == len(EXPLORE), "two cards show the same thumbnail"
    links = at.get("page_link")
    assert len(links) == len(URL_PATHS)  # and a link to every page


def test_router_declares_every_page_with_its_url_path() -> None:
    tree = ast.parse((ROOT / "app.py").read_text())
    paths = {
        kw.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page"
        for kw in node.keywords
        if kw.arg == "url_path"
    }
    assert paths == URL_PATHS
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page":
            script = node.args[0].value
            assert (ROOT / script).is_file(), script


def test_page_files_are_named_like_their_url_paths() -> None:
    """A mismatch makes Streamlit's own pages/ discovery report 'Page not found' on first load."""
    tree = ast.parse((ROOT / "app.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page":
            url = next((k.value.value for k in node.keywords if k.arg == "url_path"), None)
            if url is not None:
                assert node.args[0].value == f"pages/{url}.py"
