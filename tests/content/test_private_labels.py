"""No private labels in what a visitor reads: no "seed" (except random seeds), no "the notes",
no claim ids such as C13 or W4, in the worked examples, the glossary, the source names and the
string constants of the Worked examples, Glossary and Home pages."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

import pytest

from lnviz.content import claims, claims_view, glossary, sources
from tests.apptest_helpers import ROOT

IDS = {c.id.split(" ")[0] for c in claims.CATALOG}
PAGES = ("examples", "glossary", "home")


def private_labels(text: str) -> list[str]:
    """Every private label in a text: seeds other than random seeds, the notes, claim ids.

    A random seed is "random seed ..." in prose or the URL parameter `seed=`.

    >>> private_labels("the seed's toy, random seed 0, Seed toy (seed), the notes, C13 and W4")
    ['seed', 'Seed', 'seed', 'the notes', 'C13', 'W4']
    """
    found = [
        m.group(0)
        for m in re.finditer(r"seed", text, flags=re.I)
        if not text[: m.start()].lower().endswith("random ") and text[m.end() : m.end() + 1] != "="
    ]
    found += re.findall(r"the notes", text, flags=re.I)
    found += [w for w in re.findall(r"\b[A-Z]\d{1,2}\b", text) if w in IDS]
    return found


def _claim_texts() -> Iterator[tuple[str, str]]:
    for _, heading, note in claims.SECTIONS:
        yield "section", heading + " " + note
    for c in claims.CATALOG:
        yield c.id, " ".join((c.title, c.statement, *(t.label for t in c.links)))
        for k in c.checks:
            yield c.id, " ".join((k.label, k.exact, k.route))
    results = claims.evaluate_all()
    for r in results:
        card = claims_view.card(r)
        lines = (*card.stated, *card.own)
        yield r.claim.id, " ".join((card.title, card.sources, *(ln.markdown for ln in lines)))
    yield "overview", claims_view.overview(results, claims.summarize(results)).message
    yield "csv", claims.to_csv(results)


def _glossary_texts() -> Iterator[tuple[str, str]]:
    for t in glossary.TERMS:
        words = (t.name, t.definition, *t.formulas, *t.aliases, *(x.label for x in t.links))
        yield t.slug, " ".join(words)
    yield "csv", glossary.to_csv()


def _source_texts() -> Iterator[tuple[str, str]]:
    for s in sources.SOURCES.values():
        yield s.key, " ".join((s.name, s.short, s.title or ""))


def _page_strings(page: str) -> Iterator[tuple[str, str]]:
    tree = ast.parse((ROOT / "pages" / f"{page}.py").read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != doc:
            yield page, node.value


TEXTS = [
    *_claim_texts(),
    *_glossary_texts(),
    *_source_texts(),
    *(x for p in PAGES for x in _page_strings(p)),
]


@pytest.mark.parametrize(("where", "text"), TEXTS, ids=[w for w, _ in TEXTS])
def test_no_private_labels(where: str, text: str) -> None:
    assert private_labels(text) == [], where


def test_the_scan_finds_what_it_looks_for() -> None:
    assert private_labels("ε = 1/3 (seed)") == ["seed"]
    assert private_labels("Open the seeds' toy") == ["seed"]
    assert private_labels("In C13 the notes say") == ["the notes", "C13"]
    assert private_labels("random seed 0; W9 is no id; A4 is") == ["A4"]
    assert private_labels("reduction-axes?b=2&seed=0") == []
