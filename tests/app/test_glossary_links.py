"""Glossary links both ways: every page links the terms the registry says it uses (at
their first mention), every link resolves to an entry, and each entry's "used on" list is
exactly the pages that link it."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.content import glossary, registry
from lnviz.content.term_links import MENTIONS
from tests.apptest_helpers import ROOT, assert_clean

LINK = re.compile(r"\]\(glossary\?term=([a-z0-9-]+)(?:&present=true)?\)")


def page_text(url_path: str) -> str:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page("../" + registry.by_path(url_path).script)
    at.run()
    assert_clean(at)
    return "\n".join(str(m.value) for m in at.markdown)


def test_every_declared_term_has_an_entry_and_words_to_find_it() -> None:
    slugs = {t.slug for t in glossary.TERMS}
    assert set(MENTIONS) <= slugs
    for info in registry.PAGES:
        assert set(info.terms) <= set(MENTIONS), (info.url_path, set(info.terms) - set(MENTIONS))


@pytest.mark.parametrize("url_path", [p.url_path for p in registry.PAGES if p.terms])
def test_page_links_exactly_its_terms_once_each(url_path: str) -> None:
    links = LINK.findall(page_text(url_path))
    declared = registry.by_path(url_path).terms
    assert sorted(set(links)) == sorted(declared), url_path
    assert len(links) == len(set(links)), "each term is linked at its first mention only"


def test_used_on_lists_are_the_pages_that_link_the_term() -> None:
    for term in glossary.TERMS:
        users = {p.url_path for p in registry.pages_using(term.slug)}
        assert users == {p.url_path for p in registry.PAGES if term.slug in p.terms}


def test_glossary_entry_shows_its_used_on_list() -> None:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page("../pages/glossary.py")
    at.query_params["term"] = "layer-normalization"
    at.run()
    assert_clean(at)
    text = "\n".join(str(m.value) for m in at.markdown)
    users = registry.pages_using("layer-normalization")
    assert users and all(p.title in text for p in users)
