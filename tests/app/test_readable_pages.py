"""Readable pages: the main flow of every course page (what shows without opening an
expander, at the page's defaults) stays within about 800 words; the rest folds away."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.content import registry
from tests.apptest_helpers import ROOT, assert_clean

MAX_WORDS = 800
TEXT = (
    "Markdown",
    "Caption",
    "Title",
    "Header",
    "Subheader",
    "Alert",
    "Success",
    "Info",
    "Warning",
    "Error",
)  # fmt: skip  (formulas, st.latex, are not words)
WORD = re.compile(r"[^\W\d_]{2,}")  # words of two letters or more, in any script


def main_flow(node: object) -> list[str]:
    """Text elements a reader sees without opening anything (expanders open by default
    count; folded expanders, popovers and later tabs do not), in page order."""
    out: list[str] = []
    for child in getattr(node, "children", {}).values():
        kind = type(child).__name__
        if kind in ("Popover", "Tab", "Tabs"):
            continue
        if kind == "Expander" and not _open(child):
            continue
        if kind in TEXT:
            out.append(str(child.value))
        out += main_flow(child)
    return out


def _open(expander: object) -> bool:
    proto = getattr(expander, "proto", None)
    return bool(proto is not None and proto.expanded)


def words(url_path: str) -> int:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page("../" + registry.by_path(url_path).script)
    at.run()
    assert_clean(at)
    text = "\n".join(main_flow(at.main))
    text = re.sub(r"\$[^$]*\$", " ", text)  # formulas are not words
    return len(WORD.findall(text))


@pytest.mark.parametrize("url_path", [p.url_path for p in registry.COURSE])
def test_main_flow_is_at_most_about_800_words(url_path: str) -> None:
    assert words(url_path) <= MAX_WORDS


def test_the_count_sees_text_and_skips_expanders() -> None:
    """The counter can fail: a page's text counts, an expander's does not."""

    class Leaf:
        def __init__(self, value: str) -> None:
            self.value, self.children = value, {}

    class Markdown(Leaf): ...

    class Expander:
        def __init__(self, *kids: object) -> None:
            self.children = dict(enumerate(kids))

    class Root(Expander): ...

    tree = Root(Markdown("one two"), Expander(Markdown("hidden words here")))
    assert main_flow(tree) == ["one two"]
