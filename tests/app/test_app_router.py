"""The router: sections, url paths, and the home page it runs by default."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lnviz.content import registry
from tests.apptest_helpers import ROOT, assert_clean, figures

URL_PATHS = {
    "reduction-axes",
    "epsilon",
    "gain-and-bias",
    "invariance",
    "weighted-centering",
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


def test_home_page_shows_the_course_as_a_labelled_card_per_step() -> None:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60).run()
    assert_clean(at)
    assert "layer normalization" in at.title[0].value
    specs = figures(at)
    steps = len(registry.COURSE)
    assert len(specs) == 2 + steps  # Pre-LN's and Post-LN's blocks, one picture per step
    drawn = {str(spec["data"]) for spec in specs[2:]}
    assert len(drawn) == steps, "two cards show the same thumbnail"
    labels = [str(c.value) for c in at.caption if str(c.value).startswith("Step ")]
    assert labels == [f"Step {k} · {p.section}" for k, p in enumerate(registry.COURSE, 1)]
    links = at.main.get("page_link")
    assert {link.proto.page for link in links} == URL_PATHS  # a link to every page


def test_home_page_starts_a_beginner_and_a_practitioner() -> None:
    """Why normalize, where layer norm sits in a transformer (a diagram with alt text), the
    formula, then 'Start the course' at the first step and a shortcut to the engineering."""
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60).run()
    assert_clean(at)
    text = " ".join(str(m.value) for m in at.markdown)
    assert "transformer" in text and "residual stream" in text
    for words in ("drifts from layer to layer", "attention or an MLP", "Pre-LN", "Post-LN"):
        assert words in text, words
    pre, post = at.get("plotly_chart")[:2]  # the two placements, side by side
    assert "layer norm, then through attention or an MLP" in pre.proto.alt
    assert "Pre-LN transformer block" in pre.proto.alt
    assert "the sum goes through layer norm" in post.proto.alt
    assert "Post-LN transformer block" in post.proto.alt
    assert "usually needs a gentle start of training" in text
    links = {link.proto.label: link.proto.page for link in at.main.get("page_link")}
    start = registry.COURSE[0]
    assert links[f"Start the course: {start.title}"] == start.url_path
    assert links["Framework parity"] == "frameworks" and links["Numerics lab"] == "numerics"
    assert any("## Start the course" in str(m.value) for m in at.markdown)
    subheads = [h.value for h in at.header]
    assert subheads.index("The formula") < subheads.index("The course, step by step")


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
