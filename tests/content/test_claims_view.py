"""What the Worked examples page shows, tested without AppTest (lnviz.content.claims_view)."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.content import claims, claims_view


def test_a_card_separates_the_sources_numbers_from_the_apps_checks() -> None:
    c8 = claims_view.card(claims.evaluate(claims.claim_by_id("C8")))
    assert [ln.label for ln in c8.stated] == ["h(10⁶)"]
    assert [ln.source for ln in c8.stated] == ["the note on ε and weighted centering"]
    assert {ln.source for ln in c8.own} == {""}
    assert (
        c8.sources.startswith("In the untitled note on ε in layer normalization")
        and "these numbers" in c8.sources
    )
    dh1 = next(ln for ln in c8.own if ln.label == "h′(1)")
    assert dh1.value == "1/3 = 0.333333" and dh1.computed == "0.333333"
    assert dh1.route == "finite differences of the core's third coordinate"
    assert "closed form: 1/3 = 0.333333" in dh1.markdown and "writes" not in dh1.markdown


def test_a_claim_stated_only_in_words_says_its_numbers_are_the_apps() -> None:
    c1 = claims_view.card(claims.evaluate(claims.claim_by_id("C1")))
    assert not c1.stated and c1.own
    assert c1.sources.endswith("in words; every number below is the app's own.")


def test_values_have_no_float_noise() -> None:
    assert claims_view.show(np.array(0.33333333333333337)) == "0.333333"
    assert claims_view.show(np.array([[1 / 3, -2.0]])) == "[[0.333333, −2]]"
    for r in claims.evaluate_all():
        card = claims_view.card(r)
        for ln in (*card.stated, *card.own):
            assert "0000000" not in ln.computed + ln.value and "9999999" not in ln.computed


def test_overview_names_failed_claims_by_title(monkeypatch: pytest.MonkeyPatch) -> None:
    ok = claims.evaluate_all()
    info = claims_view.overview(ok, claims.summarize(ok))
    assert info.all_agree and info.message.startswith("Every check agrees")
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: np.zeros(np.shape(z)))
    bad = claims.evaluate_all()
    info = claims_view.overview(bad, claims.summarize(bad))
    assert not info.all_agree
    assert claims.claim_by_id("C3").title in info.message and "C3" not in info.message
