"""The glossary in a real browser: an entry's body is drawn when the visitor opens it (the
opening reruns the page), and a linked entry arrives open."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lnviz.content import glossary

from .helpers import Visit, exception_report, interact

pytestmark = pytest.mark.browser


def _entry(visit: Visit, name: str) -> Any:
    return visit.page.locator("[data-testid=stExpander]", has_text=name).first


def test_opening_an_entry_draws_its_definition_and_links(open_page: Callable[..., Visit]) -> None:
    term = glossary.term_by_slug("epsilon")
    assert term is not None
    visit = open_page("glossary")
    page = visit.page
    entry = _entry(visit, term.name)
    assert entry.locator("[data-testid=stPageLink]").count() == 0  # folded: not drawn
    interact(page, entry.locator("summary").click)
    page.wait_for_function(
        "(name) => [...document.querySelectorAll('[data-testid=stExpander]')].some("
        "(e) => e.innerText.includes(name) && e.querySelector('[data-testid=stPageLink]'))",
        arg=term.name,
    )
    text = entry.inner_text()
    assert "See it on a page" in text and f"glossary?term={term.slug}" in text
    links = entry.locator("[data-testid=stPageLink]").count()
    assert links >= len(term.links)
    assert not exception_report(visit) and not visit.page_errors


def test_a_linked_entry_arrives_open(open_page: Callable[..., Visit]) -> None:
    visit = open_page("glossary", {"term": "jacobian"})
    entry = _entry(visit, "Jacobian")
    assert "You followed a link to this entry" in entry.inner_text()
    assert entry.locator("[data-testid=stPageLink]").count() >= 1
