"""The glossary: one entry per idea, each with a stable slug, a formula and deep links."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from lnviz import params
from lnviz.content.glossary_terms import TERM_DATA
from lnviz.content.glossary_terms_applied import ENGINEERING_TERMS, MODEL_TERMS
from lnviz.content.registry import title_of
from lnviz.lessons.glossary.state import MAX_QUERY  # characters of a search kept


@dataclass(frozen=True)
class Link:
    """A page of the app (its url_path) in a given state (query parameters)."""

    page: str  # url_path, e.g. "epsilon"; the script is pages/<page>.py
    label: str
    query: tuple[tuple[str, str], ...] = ()

    @property
    def script(self) -> str:
        return f"pages/{self.page}.py"

    @property
    def page_title(self) -> str:
        return title_of(self.page)

    @property
    def params(self) -> dict[str, str]:
        return dict(self.query)

    @property
    def href(self) -> str:
        """The relative address, readable: commas and slashes stay as they are."""
        if not self.query:
            return self.page
        return f"{self.page}?{urlencode(self.query, quote_via=quote, safe=',/')}"


def link(page: str, label: str, **query: str) -> Link:
    """A Link from keyword query parameters (values are the strings a page reads)."""
    return Link(page, label, tuple((k, str(v)) for k, v in query.items()))


@dataclass(frozen=True)
class Term:
    """One glossary entry."""

    slug: str  # stable address: glossary?term=<slug>
    name: str
    definition: str  # Markdown, may contain inline LaTeX
    formulas: tuple[str, ...]  # LaTeX, one short line each (fits a phone)
    links: tuple[Link, ...]  # pages that show the idea, at a preset state
    related: tuple[str, ...] = ()  # slugs of other terms
    aliases: tuple[str, ...] = ()  # other names, found by the search

    def matches(self, words: tuple[str, ...]) -> bool:
        """True if every word occurs in the name, slug, aliases or definition."""
        hay = " ".join((self.name, self.slug, *self.aliases, self.definition)).lower()
        return all(w in hay for w in words)


def _build() -> tuple[Term, ...]:
    terms = []
    rows = (*TERM_DATA, *MODEL_TERMS, *ENGINEERING_TERMS)
    for slug, name, aliases, definition, formulas, links, related in rows:
        terms.append(
            Term(
                slug=slug,
                name=name,
                definition=" ".join(definition.split()),
                formulas=tuple(formulas),
                links=tuple(link(page, label, **query) for page, label, query in links),
                related=tuple(related),
                aliases=tuple(aliases),
            )
        )
    return tuple(terms)


TERMS: tuple[Term, ...] = _build()
_BY_SLUG = {t.slug: t for t in TERMS}


def term_by_slug(slug: str) -> Term | None:
    """The term with this slug, or None."""
    return _BY_SLUG.get(slug)


def parse_slug(raw: str) -> str:
    """A slug as typed in a link: trimmed, lower-cased, checked for form only (not existence)."""
    return params.parse_slug(raw, "term", MAX_QUERY, example="layer-normalization")


def parse_query(raw: str) -> tuple[str, ...]:
    """Search words: lower-cased, at most MAX_QUERY characters, split on spaces."""
    return tuple(str(raw)[:MAX_QUERY].lower().split())


def search(query: str, terms: tuple[Term, ...] = TERMS) -> tuple[Term, ...]:
    """Terms whose name, slug, aliases or definition contain every word; all terms for no words."""
    words = parse_query(query)
    return tuple(t for t in terms if t.matches(words))


def to_csv(terms: tuple[Term, ...] = TERMS) -> str:
    """One row per term: slug, name, definition, formulas, its address and its page links."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("slug", "name", "definition", "formulas", "address", "pages"))
    for t in terms:
        writer.writerow(
            (
                t.slug,
                t.name,
                t.definition,
                " ; ".join(t.formulas),
                f"glossary?term={t.slug}",
                " | ".join(x.href for x in t.links),
            )
        )
    return out.getvalue()
