"""AppTest of the Glossary page: every term and link, ?term= addresses, search, hostile URLs."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from lnviz.content import glossary
from tests.apptest_helpers import assert_clean, texts
from tests.deep_links import REFUSED, shown_value_matches, via_router

LINKS = {(t.page, t.query): t for term in glossary.TERMS for t in term.links}
HOSTILE_TERMS = [
    "<script>alert(1)</script>",
    "[click](javascript:alert(1))",
    "![x](https://example.com/x.png)",
    "`code` **bold**",
    "../../etc/passwd",
    "nan",
    "inf",
    "-1",
    "ε",
    "x" * 5000,
    "",
]


def labels(at) -> list[str]:
    return [e.label.strip("*") for e in at.expander]


def rendered_links(at) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    return {
        (p.proto.page, tuple(parse_qsl(p.proto.query_string))) for p in at.main.get("page_link")
    }


def open_entries(at, slugs=None):
    """Open entries as a click on each does (a rerun): their bodies are drawn only then."""
    for slug in slugs or [t.slug for t in glossary.TERMS]:
        at.session_state[f"entry-{slug}"] = True
    return at.run()


def test_default_lists_every_term_collapsed_with_its_links() -> None:
    at = via_router("glossary")
    assert_clean(at)
    assert not at.warning and not at.error
    assert labels(at) == [t.name for t in glossary.TERMS]
    assert not any(e.proto.expanded for e in at.expander)
    assert not at.latex and not at.main.get("page_link")  # folded bodies are not sent
    open_entries(at)
    assert_clean(at)
    assert labels(at) == [t.name for t in glossary.TERMS]
    assert len(at.latex) == sum(len(t.formulas) for t in glossary.TERMS)
    shown = rendered_links(at)
    for target in LINKS.values():  # each link is on the page with exactly its parameters
        assert (target.page, target.query) in shown, target
    assert [b.label for b in at.get("download_button")] == ["Download the glossary as CSV"]


@pytest.mark.parametrize("term", glossary.TERMS, ids=lambda t: t.slug)
def test_term_address_opens_that_entry_first_and_highlighted(term: glossary.Term) -> None:
    at = via_router("glossary", {"term": term.slug})
    assert_clean(at)
    assert not at.warning
    first = at.expander[0]
    assert first.label.strip("*") == term.name and first.proto.expanded
    assert first.proto.icon == ":material/my_location:"
    assert "You followed a link to this entry" in first.markdown[0].value
    assert labels(at).count(term.name) == 1  # not repeated further down
    assert len(at.expander) == len(glossary.TERMS)
    assert not any(e.proto.expanded for e in at.expander[1:])


def test_related_entry_button_moves_the_highlight_and_the_address() -> None:
    at = via_router("glossary", {"term": "jacobian"})
    at.button(key="linked-jacobian-to-lipschitz-constant").click().run()
    assert_clean(at)
    assert labels(at)[0] == "Lipschitz constant" and at.expander[0].proto.expanded
    assert at.query_params["term"] == "lipschitz-constant"
    open_entries(at, ["epsilon"])
    at.button(key="entry-epsilon-to-normalized-core").click().run()  # from the list below
    assert labels(at)[0] == "Normalized core"


def test_term_address_tolerates_case_and_spaces() -> None:
    at = via_router("glossary", {"term": " Look-Ahead-Bias "})
    assert not at.warning
    assert labels(at)[0] == "Look-ahead bias"


def test_repeated_term_keys_use_the_last() -> None:
    at = via_router("glossary", [("term", "epsilon"), ("term", "jacobian")])
    assert_clean(at)
    assert labels(at)[0] == "Jacobian"


def test_unknown_term_names_the_slug_and_lists_everything() -> None:
    at = via_router("glossary", {"term": "flux-capacitor"})
    assert_clean(at)
    assert "`flux-capacitor`" in at.warning[0].value
    assert labels(at) == [t.name for t in glossary.TERMS]


@pytest.mark.parametrize("raw", HOSTILE_TERMS, ids=range(len(HOSTILE_TERMS)))
def test_hostile_term_shows_a_message_and_echoes_nothing(raw: str) -> None:
    at = via_router("glossary", {"term": raw})
    assert_clean(at)
    assert at.warning, raw
    page_text = texts(at)
    if len(raw) > 3:  # short values like "ε" or "-1" occur in ordinary prose
        assert raw not in page_text
    assert len(at.expander) == len(glossary.TERMS)


def test_search_box_filters_and_restores_from_the_url() -> None:
    at = via_router("glossary", {"q": "invariance"})
    assert_clean(at)
    assert at.text_input(key="q").value == "invariance"
    assert labels(at) == [t.name for t in glossary.search("invariance")]
    assert all(e.proto.expanded for e in at.expander)  # few matches: opened
    assert f"of {len(glossary.TERMS)} entries match" in texts(at)
    at.text_input(key="q").set_value("batch").run()
    assert labels(at) == [t.name for t in glossary.search("batch")]


def test_search_without_matches_says_so_without_echoing() -> None:
    at = via_router("glossary", {"q": "<img src=x onerror=alert(1)>"})
    assert_clean(at)
    assert not at.expander
    assert "No entry contains every word" in at.info[0].value
    assert "<img" not in texts(at)


def test_search_and_term_together_keep_the_linked_entry_first() -> None:
    at = via_router("glossary", {"term": "momentum", "q": "normalization"})
    assert_clean(at)
    assert labels(at)[0] == "Momentum (running averages)"
    assert labels(at)[1:] == [t.name for t in glossary.search("normalization")]


def test_presentation_mode_keeps_the_linked_entry_open() -> None:
    at = via_router("glossary", {"term": "epsilon", "present": "true"})
    assert_clean(at)
    opened = [e.label.strip("*") for e in at.expander if e.proto.expanded]
    assert opened == ["ε (epsilon)"]


def test_an_overlong_search_from_the_url_does_not_fail() -> None:
    at = via_router("glossary", {"q": "batch " * 400})
    assert_clean(at)


@pytest.mark.parametrize(("index", "q"), [(1, "normalization"), (2, "weight"), (3, "invariance")])
def test_presets_set_the_search(index: int, q: str) -> None:
    at = via_router("glossary")
    at.button(key=f"gl-presets-{index}").click().run()
    assert_clean(at)
    assert at.text_input(key="q").value == q
    assert labels(at) == [t.name for t in glossary.search(q)]
    at.button(key="gl-presets-0").click().run()
    assert len(at.expander) == len(glossary.TERMS)


@pytest.mark.parametrize("target", list(LINKS.values()), ids=lambda t: t.href)
def test_every_glossary_link_is_accepted_by_its_page(target: glossary.Link) -> None:
    """Opened as a visitor opens it, through the router (pages link to other pages)."""
    at = via_router(target.page, target.params)
    assert_clean(at)
    assert not at.error, (target.href, [e.value for e in at.error])
    assert not [w.value for w in at.warning if REFUSED in str(w.value)], target.href
    for key, raw in target.query:
        assert shown_value_matches(at, key, raw), (target.href, key, raw)


def test_no_private_labels_on_the_page() -> None:
    """Every entry's text, formulas and link labels as drawn: no seed labels, no claim ids."""
    from tests.content.test_private_labels import private_labels

    at = open_entries(via_router("glossary"))
    assert_clean(at)
    page_text = texts(at) + " ".join(p.proto.label for p in at.main.get("page_link"))
    assert "The error in a backtest" in page_text and "worked example a = (1/4, 3/4)" in page_text
    assert private_labels(page_text) == []
