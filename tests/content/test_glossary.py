"""The glossary data: slugs, definitions, formulas, links, search, and the visitor-text parsers."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lnviz.content import glossary, registry
from lnviz.errors import LnvizError
from tests.apptest_helpers import ROOT

REQUIRED = {  # the terms issue 6 asks for
    "layer-normalization", "normalized-core", "epsilon", "gain", "bias", "population-variance",
    "centering-matrix", "weighted-centering-matrix", "oblique-projection", "d-inner-product",
    "batch-normalization", "group-normalization", "instance-normalization", "rms-normalization",
    "reduction-axes", "parameter-axes", "jacobian", "lipschitz-constant", "shift-invariance",
    "scale-invariance", "look-ahead-bias",
}  # fmt: skip
ISSUE_15 = {  # terms pages used without explaining them (issue 15, item 5)
    "idempotent", "welford", "bfloat16", "float16", "catastrophic-cancellation",
    "one-pass-variance", "two-pass-variance", "residual-connection", "residual-stream",
    "pre-ln", "post-ln", "learning-rate-warm-up", "garch", "log-return", "qk-norm",
    "attention-entropy", "softmax", "dynamic-tanh",
}  # fmt: skip


def routed_pages() -> set[str]:
    """url_paths of the page registry (what the router declares)."""
    return {p.url_path for p in registry.PAGES if not p.is_home}


def test_links_name_pages_by_their_registry_titles() -> None:
    link = glossary.Link("batch-statistics", "x")
    assert link.page_title == registry.by_path("batch-statistics").title == "Batch statistics"


def test_every_required_term_is_there_and_slugs_are_unique() -> None:
    slugs = [t.slug for t in glossary.TERMS]
    assert len(slugs) == len(set(slugs)) >= 20
    assert set(slugs) >= REQUIRED
    assert set(slugs) >= ISSUE_15


def test_every_term_has_words_that_prose_links() -> None:
    """Each entry can be linked from a page's prose (gain and bias have no words: they are
    too common to link), and the words of issue 15's entries find only their own entry."""
    from lnviz.content.term_links import MENTIONS, link_terms

    assert set(MENTIONS) == {t.slug for t in glossary.TERMS} - {"gain", "bias"}
    for slug, words in MENTIONS.items():
        for word in words:
            others = [s for s in MENTIONS if s != slug]
            assert link_terms(f"A {word}, here.", [slug])[1] == (slug,), word
            if slug in ISSUE_15:
                assert link_terms(f"A {word}, here.", others)[1] == (), (slug, word)


@pytest.mark.parametrize("term", glossary.TERMS, ids=lambda t: t.slug)
def test_each_term_is_complete(term: glossary.Term) -> None:
    assert glossary.parse_slug(term.slug) == term.slug  # its address is a valid slug
    assert len(term.definition.split()) >= 20, "a definition of at least a sentence or two"
    assert term.formulas and all(f.strip() for f in term.formulas)
    for formula in term.formulas:
        assert formula.count("{") == formula.count("}"), formula  # balanced LaTeX groups
    assert term.links, "at least one page shows it"
    for related in term.related:
        assert glossary.term_by_slug(related) is not None, related
        assert related != term.slug


@pytest.mark.parametrize("term", glossary.TERMS, ids=lambda t: t.slug)
def test_each_link_names_a_routed_page_file(term: glossary.Term) -> None:
    pages = routed_pages()
    for target in term.links:
        assert target.page in pages, target
        assert (ROOT / target.script).is_file(), target.script
        assert target.query, "a link opens its page at a preset state"
        assert all(isinstance(v, str) and v for _, v in target.query)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [t.slug for t in glossary.TERMS]),  # empty: everything, in order
        ("JACOBIAN", ["jacobian"]),  # case-insensitive
        ("tomorrow", ["look-ahead-bias"]),  # words of the definition
        ("rmsnorm", ["rms-normalization"]),  # aliases
        ("oblique projection", ["weighted-centering-matrix", "oblique-projection"]),  # all words
        ("running", ["batch-normalization", "running-statistics", "momentum"]),
        ("zebra", []),
        ("<script>alert(1)</script>", []),
    ],
)
def test_search(query: str, expected: list[str]) -> None:
    assert [t.slug for t in glossary.search(query)] == expected


@pytest.mark.parametrize(
    ("raw", "slug"),
    [("epsilon", "epsilon"), ("  Epsilon\n", "epsilon"), ("LOOK-AHEAD-BIAS", "look-ahead-bias")],
)
def test_parse_slug_accepts(raw: str, slug: str) -> None:
    assert glossary.parse_slug(raw) == slug


@pytest.mark.parametrize(
    "raw",
    [
        *("", "-", "a--b", "-a", "a-", "a b", "ε", "<script>", "../etc/passwd", "a" * 61),
        *("x_y", "[x](javascript:alert(1))", "epsilon\x00"),
    ],
)
def test_parse_slug_refuses_with_the_field_named(raw: str) -> None:
    with pytest.raises(LnvizError) as err:
        glossary.parse_slug(raw)
    assert err.value.name == "term"
    assert "hyphens" in err.value.accepted


def test_nan_is_a_valid_form_but_not_a_term() -> None:
    assert glossary.parse_slug("nan") == "nan"
    assert glossary.term_by_slug("nan") is None


@given(st.text(max_size=200))
def test_parse_slug_returns_a_safe_slug_or_refuses(raw: str) -> None:
    try:
        slug = glossary.parse_slug(raw)
    except LnvizError:
        return
    assert len(slug) <= glossary.MAX_QUERY
    assert set(slug) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")


@given(st.text(max_size=500))
def test_parse_query_is_bounded_and_search_never_fails(raw: str) -> None:
    words = glossary.parse_query(raw)
    assert sum(len(w) for w in words) <= glossary.MAX_QUERY
    found = glossary.search(raw)
    assert set(found) <= set(glossary.TERMS)


def test_link_href_is_readable_and_escapes_what_it_must() -> None:
    target = glossary.link("sequences", "x", wrt="market returns", leak="true")
    assert target.href == "sequences?wrt=market%20returns&leak=true"
    assert glossary.link("epsilon", "x").href == "epsilon"


def test_csv_has_one_row_per_term_with_its_address() -> None:
    rows = list(csv.DictReader(io.StringIO(glossary.to_csv())))
    assert [r["slug"] for r in rows] == [t.slug for t in glossary.TERMS]
    assert rows[2]["address"] == "glossary?term=epsilon"
    assert "epsilon?z=1,2,3&eps=4/3" in rows[2]["pages"]


# --------------------------------------------------------------------- exact wording


def _text(slug: str) -> str:
    term = glossary.term_by_slug(slug)
    assert term is not None
    return " ".join((term.definition, *term.formulas))


def test_bias_makes_the_mean_need_not_be_zero_and_returns_beta_only_with_eps() -> None:
    bias = glossary.term_by_slug("bias")
    assert bias is not None
    assert "need not be 0" in bias.definition
    assert "no longer 0" not in bias.definition and "is not 0" not in bias.definition
    assert "when ε > 0" in bias.definition and "at ε = 0" in bias.definition
    assert any(r"\varepsilon>0" in f and r"y=\beta" in f for f in bias.formulas)


def test_jacobian_entry_matches_the_engines_eigenvalues() -> None:
    """The radial factor is the orthogonal one times ε/(q+ε): its place depends on q/ε."""
    import lnviz

    text = _text("jacobian")
    assert "the most" not in text
    assert r"\varepsilon/(q+\varepsilon)^{3/2}" in text and r"(q+\varepsilon)^{-1/2}" in text
    assert r"1/(1+q/\varepsilon)" in text and "depends on $q/\\varepsilon$" in text
    for z, eps in [([0.0, 1e-3, 2e-3, 0.0], 1.0), ([1.0, 2.0, 3.0, 7.0], 1e-4)]:
        spec = lnviz.jacobian_spectrum(z, eps)
        vals = {d.label: d.measured[0] for d in spec.directions}
        ratio = vals["radial"] / vals["tangential"]
        assert ratio == pytest.approx(1 / (1 + spec.q / eps), rel=1e-9)
    # q ≪ ε: nearly equal; q ≫ ε: the radial factor nearly 0 (the text says both)
    assert "nearly equal to it when $q\\ll\\varepsilon$" in text
    assert "nearly 0 when $q\\gg\\varepsilon$" in text


def test_look_ahead_bias_is_defined_as_the_bias_itself() -> None:
    text = _text("look-ahead-bias")
    assert text.startswith("The error in a backtest or a validation score")
    assert "only became available after $t$" in text


@pytest.mark.parametrize(
    ("slug", "absent"),
    [
        ("rms-normalization", "m="),  # m is the momentum on this page, nothing else
        ("rms-normalization", "m+"),
        ("d-inner-product", "u,v"),  # u is the core and v the centred input
        ("oblique-projection", "P^2"),  # P is the (symmetric) centering matrix
        ("momentum", "r\\leftarrow"),
        ("momentum", ",b"),  # b is the batch index on this page
    ],
)
def test_one_meaning_per_symbol(slug: str, absent: str) -> None:
    assert absent not in _text(slug).replace(" ", "").replace("\\,", "")


def test_one_notation_for_the_core_at_eps_over_a_squared() -> None:
    """u_{ε/a²}, never a form that reads as u_ε divided by a²."""
    for term in glossary.TERMS:
        text = " ".join((term.definition, *term.formulas))
        assert r"u_\varepsilon/a" not in text and "u_ε/a" not in text, term.slug
    assert r"u_{\varepsilon/a^2}(z)" in _text("scale-invariance")
