"""AppTest of the Worked examples page: live agreement, a visible failure, links, controls."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

import numpy as np
import pytest

import lnviz
from lnviz.content import claims
from lnviz.content.glossary import Link
from tests.apptest_helpers import assert_clean, metric, texts
from tests.deep_links import assert_link_opens, via_router

N_CHECKS = sum(len(c.checks) for c in claims.CATALOG)
N_CLAIMS = len(claims.CATALOG)
N_STATED = sum(len(c.stated_checks) for c in claims.CATALOG)
LINKS = {(t.page, t.query): t for c in claims.CATALOG for t in c.links}
OPEN = {"section": "All"}  # a link to the checks (folded, and not drawn, by default)

# What each claim's first link must show on its page: the state is the claim's state.
SHOWN = {
    "C13": ["output variance=1.222222", "(−√(3/2), 1, √(3/2))"],
    "C12": ["core variance=1", "**input z** = (1, 2, 3)"],
    "C14": ["core variance=0.666667", "q/(q+ε)=0.666667"],
    "C1": ["**core u** = (0, 0, 0)", "**output y** = (0, 1, 0)"],
    "C7 (output)": ["core bound ε^(−1/2)=10", "output bound max|γᵢ|·ε^(−1/2)=20"],
    "C3": ["ε=1/3", "**(−1, 0, 1)**"],
    "C2": ["variance q=1", "core variance q/(q+ε)=0.5"],
    "C8": ["ε=1/3", "ε^(−1/2) = 1.732"],
    "C4": ["max |u_ε(az) − u_ε(z)|=0.22169444", "same change at ε = 0=0"],
    "C5": ["operator norm ‖Du‖₂=1", "variance q=0.666667"],
    "C6": ["operator norm ‖Du‖₂=1", "bound attained?=no"],
    "C7": ["operator norm ‖Du‖₂=1", "bound ε^(−1/2)=1.732051"],
    "C9": ["largest change max |u_ε(z + c) − u_ε(z)|=0", "z + c = (101, 102, 103)"],
    "C10": ["(−4/√17, −1/√17, 5/√17)", "z + s = (1, 2, 4)"],
    "A4": ["0.4472", "z + c = (101, 102, 103)"],
    "C11": ["max change, b + c=0", "max change, W + 1rᵀ=0"],
    "D3": ["statistic groups=8", "entries per group=6"],
    "A1": ["statistic groups=6", "entries per group=8"],
    "A2": ["statistic groups=4", "entries per group=12"],
    "A3": ["γ shape=(4, 6)", "largest gap in means=0"],
    "W4": ["**2.5**", "**(3, −1)**"],
    "W1": ["**(1.5, −0.5)**", "| weighted mean of Pₐx | **0** |"],
    "W2": ["rank 1, n = 2"],
    "W3": ["**63.43°**"],
    "W5": ["**90°**", "fitted constant ĉ (solver) | **2.5**"],
    "W6": ["**(0, 1)**", "**undefined**"],
}


def card_titles(at) -> list[str]:
    """The claim cards' titles (h3, as the worked examples' one-line titles: a card goes on)."""
    return [
        m.value.split("\n")[0]
        for m in at.markdown
        if m.value.startswith("### ") and "\n" in m.value
    ]


def test_default_shows_every_card_agreeing() -> None:
    at = via_router("examples", OPEN)
    assert_clean(at)
    assert metric(at, "checks that agree") == f"{N_CHECKS} of {N_CHECKS}"
    assert metric(at, "claims that agree") == f"{N_CLAIMS} of {N_CLAIMS}"
    assert metric(at, "numbers the sources write") == str(N_STATED)
    assert f"the {N_STATED} numbers the source documents write" in at.success[0].value
    assert card_titles(at) == [f"### {c.title}" for c in claims.CATALOG]
    page_text = texts(at)
    assert page_text.count("**agrees**") == N_CHECKS
    assert "DISAGREES" not in page_text and not at.error
    sections = [h.value for h in at.header if h.value not in ("Step by step", "The whole table")]
    assert sections == [h for _, h, _ in claims.SECTIONS]
    assert (
        "the note on ε and weighted centering writes: (−1, 0, 1)/√2 = (−0.707107, 0, 0.707107)"
        in page_text
    )
    assert [b.label for b in at.get("download_button")] == ["Download every check as CSV"]


def test_the_sources_are_credited_only_with_their_own_numbers() -> None:
    """A number a source never writes is shown as the app's own check, with its route."""
    page_text = texts(via_router("examples", OPEN))
    assert page_text.count(" writes: ") == N_STATED
    assert (
        "“Layer normalisation”" in page_text and "the note on ε and weighted centering" in page_text
    )
    # h′(1) = 1/3 is the app's number: a closed form and a finite-difference route
    assert "closed form: 1/3 = 0.333333 · finite differences of the core's third" in page_text
    assert "writes: 1/3 = 0.333333 · finite" not in page_text
    assert page_text.count("**The app's own checks**") == sum(
        bool(c.own_checks) for c in claims.CATALOG
    )


def test_no_private_labels_or_claim_ids_on_the_page() -> None:
    page_text = texts(via_router("examples", OPEN))
    for label in ("the notes", "(seed)", "Seed toy", "seed's", "seeds'", "the seed"):
        assert label.lower() not in page_text.lower(), label
    ids = {c.id.split(" ")[0] for c in claims.CATALOG}
    assert not [w for w in re.findall(r"\b[A-Z]\d{1,2}\b", page_text) if w in ids]


def test_links_on_the_cards_carry_each_claims_state() -> None:
    at = via_router("examples", OPEN)
    shown = {
        (p.proto.page, tuple(parse_qsl(p.proto.query_string))) for p in at.main.get("page_link")
    }
    for target in LINKS.values():
        assert (target.page, target.query) in shown, target


def test_a_broken_engine_shows_failure_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    real = lnviz.normalized_core
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: real(z, eps) + 0.01)
    at = via_router("examples", OPEN)
    assert_clean(at)
    broken = [r for r in claims.evaluate_all() if not r.agrees]
    failed_checks = sum(not c.agrees for r in broken for c in r.checks)
    assert failed_checks >= 4  # C3 twice, C9 and C10 use normalized_core
    assert metric(at, "checks that agree") == f"{N_CHECKS - failed_checks} of {N_CHECKS}"
    assert metric(at, "largest error") == "1e−2"
    c3 = claims.claim_by_id("C3").title
    assert at.error and c3 in at.error[0].value and not at.success
    assert "C3" not in at.error[0].value
    page_text = texts(at)
    assert page_text.count("DISAGREES") == failed_checks
    assert page_text.count("a check disagrees") == len(broken)
    assert "the engine's core: **(−0.99, 0.01, 1.01)**" in page_text


def test_an_engine_that_raises_is_a_failure_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def boom(z, eps):
        raise RuntimeError("engine down")

    monkeypatch.setattr(lnviz, "normalized_core", boom)
    at = via_router("examples", {"section": "Epsilon"})
    assert_clean(at)
    assert "the route raised RuntimeError" in texts(at)
    assert "the engine's core: **—**" in texts(at)


def test_only_disagreements_toggle(monkeypatch: pytest.MonkeyPatch) -> None:
    at = via_router("examples", {"fails": "true"})
    assert_clean(at)
    assert not card_titles(at)
    assert len(at.info) == len(claims.SECTIONS)  # "Every claim of this section agrees."
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: np.zeros(np.shape(z)))
    at = via_router("examples", {"fails": "true"})
    titles = [t[4:] for t in card_titles(at)]
    assert titles == [r.claim.title for r in claims.evaluate_all() if not r.agrees]


@pytest.mark.parametrize(("page", "label"), [("epsilon", "Epsilon"), ("invariance", "Invariances")])
def test_section_choice_from_the_url_and_the_radio(page: str, label: str) -> None:
    expected = [f"### {c.title}" for c in claims.CATALOG if c.page == page]
    at = via_router("examples", {"section": label})
    assert_clean(at)
    assert not at.warning
    assert card_titles(at) == expected
    at.radio(key="section").set_value("all").run()
    assert len(card_titles(at)) == N_CLAIMS


@pytest.mark.parametrize(("index", "cards"), [(0, N_CLAIMS), (1, 7), (2, 0)])
def test_presets(index: int, cards: int) -> None:
    at = via_router("examples", OPEN)
    at.button(key=f"ex-presets-{index}").click().run()
    assert_clean(at)
    assert len(card_titles(at)) == cards


@pytest.mark.parametrize(
    "query",
    [
        {"section": "<script>alert(1)</script>"},
        {"section": "nan"},
        {"fails": "maybe"},
        {"fails": "<b>x</b>"},
        {"section": "x" * 5000},
    ],
)
def test_hostile_url_values_show_a_message(query: dict[str, str]) -> None:
    at = via_router("examples", query)
    assert_clean(at)
    assert at.warning
    assert len(card_titles(at)) == N_CLAIMS


def test_presentation_mode_shows_the_same_cards() -> None:
    at = via_router("examples", {"present": "true", "section": "Epsilon"})
    assert_clean(at)
    assert len(card_titles(at)) == 7


def test_repeated_keys_use_the_last() -> None:
    at = via_router("examples", [("section", "Epsilon"), ("section", "Weighted centering")])
    assert_clean(at)
    weighted = [f"### {c.title}" for c in claims.CATALOG if c.page == "weighted-centering"]
    assert card_titles(at) == weighted


def test_every_claim_has_a_shown_state() -> None:
    assert set(SHOWN) == {c.id for c in claims.CATALOG}


@pytest.mark.parametrize("claim", claims.CATALOG, ids=lambda c: c.id)
def test_first_link_opens_the_claims_state(claim: claims.Claim) -> None:
    at = assert_link_opens(claim.links[0])
    page_text = texts(at)
    for snippet in SHOWN[claim.id]:
        assert snippet in page_text, (claim.id, snippet)


@pytest.mark.parametrize(
    "target",
    [t for c in claims.CATALOG for t in c.links[1:]],
    ids=lambda t: t.href,
)
def test_every_other_link_is_accepted_by_its_page(target: Link) -> None:
    assert_link_opens(target)


# ----------------------------------------------------------- worked step by step (issue 15)


def test_examples_are_worked_first_and_the_checks_are_folded() -> None:
    from lnviz.content import examples_worked as ex

    at = via_router("examples")
    assert_clean(at)
    assert at.header[0].value == "Step by step"
    titles = [m.value for m in at.markdown if m.value.startswith("### ") and "\n" not in m.value]
    assert titles == [f"### {e.title}" for e in ex.EXAMPLES]
    checks = [e for e in at.expander if e.label.startswith("Checks")]
    assert len(checks) == 1 and not checks[0].proto.expanded  # closed by default
    assert not checks[0].metric and not checks[0].header  # and not drawn while closed
    assert not card_titles(at)
    at.session_state["checks-open"] = True  # what opening it in the browser sets
    at.run()
    checks = [e for e in at.expander if e.label.startswith("Checks")]
    assert checks[0].metric and checks[0].header  # the verification lives inside it
    assert card_titles(at) == [f"### {c.title}" for c in claims.CATALOG]
    worked = ex.worked(ex.EXAMPLES[0])
    first = next(m.value for m in at.markdown if m.value.startswith("1. **input z**"))
    assert all(step.value in first for step in worked.steps)
    assert "1.222222 = 11/9" in first


def test_a_link_to_a_checks_state_opens_the_checks() -> None:
    at = via_router("examples", {"section": "epsilon"})
    assert_clean(at)
    assert next(e for e in at.expander if e.label.startswith("Checks")).proto.expanded


def test_every_worked_example_link_opens_its_state() -> None:
    from lnviz.content import examples_worked as ex

    at = via_router("examples")
    shown = {
        (p.proto.page, tuple(parse_qsl(p.proto.query_string))) for p in at.main.get("page_link")
    }
    for example in ex.EXAMPLES:
        assert (example.link.page, example.link.query) in shown, example.title
        assert_link_opens(example.link)
