"""The router: sections, url paths, and the home page it runs by default."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lnviz.content import registry
from tests.apptest_helpers import ROOT, assert_clean, figures

EXPLORE = {"reduction-axes", "epsilon", "gain-and-bias", "invariance", "weighted-centering"}
URL_PATHS = EXPLORE | {
    "sequences",
    "batch-statistics",
    "frameworks",
    "numerics",
    "glossary",
    "examples",
    "transformer",
    "why-normalize",
    "references",
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


def test_registry_declares_every_page_once_with_an_existing_script() -> None:
    paths = [p.url_path for p in registry.PAGES if not p.is_home]
    assert set(paths) == URL_PATHS and len(paths) == len(set(paths))
    for info in registry.PAGES:
        assert (ROOT / info.script).is_file(), info.script
        assert info.section in registry.SECTIONS


def test_page_files_are_named_like_their_url_paths() -> None:
    """A mismatch makes Streamlit's own pages/ discovery report 'Page not found' on first load."""
    scripts = {p.name for p in (ROOT / "pages").glob("*.py")}
    assert scripts == {f"{info.url_path or 'home'}.py" for info in registry.PAGES}


def test_app_py_only_routes() -> None:
    """The router stays short: the page list lives in the registry, not in app.py."""
    source = (ROOT / "app.py").read_text()
    assert len(source.splitlines()) <= 40
    assert "st.Page(" not in source
