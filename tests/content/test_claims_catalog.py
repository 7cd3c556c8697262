"""The worked-examples catalog: every entry agrees with the engine, and a broken engine shows."""

from __future__ import annotations

import csv
import io
import math
import re

import numpy as np
import pytest

import lnviz
from lnviz.content import claims
from tests.apptest_helpers import ROOT

# Every numbered claim of CLAIMS.md that has numbers or a concrete checkable case.
REQUIRED = {f"C{k}" for k in range(1, 15)} | {"W1", "W2", "W3", "W4", "W5", "W6"}
CLAIMS_MD = ROOT.parent / "shared" / "seeds" / "CLAIMS.md"


def test_ids_are_unique_and_cover_the_checklist() -> None:
    ids = [c.id for c in claims.CATALOG]
    assert len(ids) == len(set(ids))
    covered = {i.split(" ")[0] for i in ids}  # "C7 (output)" covers C7
    assert covered >= REQUIRED, REQUIRED - covered
    if CLAIMS_MD.is_file():  # the seeds sit beside the repository while it is developed
        listed = set(re.findall(r"^\| ([CW]\d+) \|", CLAIMS_MD.read_text(), flags=re.M))
        assert listed and listed <= covered, listed - covered


def test_every_claim_belongs_to_a_lesson_section_in_order() -> None:
    order = [page for page, _, _ in claims.SECTIONS]
    pages = [c.page for c in claims.CATALOG]
    assert set(pages) == set(order)
    assert pages == sorted(pages, key=order.index), "the catalog is grouped by section, in order"


@pytest.mark.parametrize("claim", claims.CATALOG, ids=lambda c: c.id)
def test_catalog_entry_agrees_with_the_engine(claim: claims.Claim) -> None:
    result = claims.evaluate(claim)
    for res in result.checks:
        assert res.problem == "", (claim.id, res.check.label, res.problem)
        assert res.agrees, (claim.id, res.check.label, res.computed, res.check.expected)
        assert res.error <= res.check.tol
    assert result.agrees
    assert claim.statement and claim.title and claim.links and claim.checks
    assert all(c.tol <= 1e-9 for c in claim.checks), "tolerances stay near rounding level"


@pytest.mark.parametrize(
    ("cid", "label", "value"),
    [  # a few expected values recomputed here from the closed forms, independently
        ("C3", "core at ε = 4/3", [-(2**-0.5), 0.0, 2**-0.5]),
        ("C10", "core of (1, 2, 4)", [v / math.sqrt(17) for v in (-4, -1, 5)]),
        ("C13", "variance of y", 11 / 9),
        ("C4", "max |u_ε(10z) − u_ε(z)|", 10 / math.sqrt(67) - 1),
        ("W4", "Euclidean projection", [3.0, -1.0]),
        ("W3", "Euclidean angle (degrees)", 63.43494882292201),
    ],
)
def test_expected_values_are_the_closed_forms(cid: str, label: str, value: object) -> None:
    chk = next(c for c in claims.claim_by_id(cid).checks if c.label == label)
    np.testing.assert_allclose(chk.expected_array, value, rtol=0, atol=1e-15)


def test_a_wrong_engine_value_is_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    real = lnviz.normalized_core
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: real(z, eps) * 1.001)
    results = claims.evaluate_all()
    broken = {r.claim.id for r in results if not r.agrees}
    assert {"C3", "C9", "C10"} <= broken
    c3 = next(r for r in results if r.claim.id == "C3")
    assert all(not c.agrees and c.error > 1e-4 and c.problem == "" for c in c3.checks)
    summary = claims.summarize(results)
    assert summary.checks_agree < summary.checks and not summary.all_agree


@pytest.mark.parametrize(
    ("fake", "problem"),
    [
        (lambda z, eps: (_ for _ in ()).throw(RuntimeError("boom")), "raised RuntimeError"),
        (lambda z, eps: np.zeros(7), "shape (7,)"),
        (lambda z, eps: np.full(3, np.nan), "non-finite"),
    ],
)
def test_a_failing_engine_is_a_disagreement_not_an_exception(
    monkeypatch: pytest.MonkeyPatch, fake: object, problem: str
) -> None:
    monkeypatch.setattr(lnviz, "normalized_core", fake)
    result = claims.evaluate(claims.claim_by_id("C3"))
    assert not result.agrees
    for res in result.checks:
        assert not res.agrees and res.error == math.inf
        assert problem in res.problem


def test_check_refuses_non_finite_expected_values() -> None:
    with pytest.raises(ValueError, match="finite"):
        claims.check("x", [1.0, math.nan], "?", lambda: [1.0, 1.0], 1e-12, "numpy")
    with pytest.raises(ValueError, match="finite"):
        claims.check("x", 1.0, "1", lambda: 1.0, -1.0, "numpy")


def test_check_refuses_a_check_without_a_route() -> None:
    with pytest.raises(ValueError, match="route"):
        claims.check("x", 1.0, "1", lambda: 1.0, 0.0, "  ")


def test_anchor_slugs() -> None:
    assert claims.claim_by_id("C7 (output)").anchor == "c7-output"
    with pytest.raises(KeyError):
        claims.claim_by_id("C99")


def test_csv_numbers_carry_no_float_noise() -> None:
    """1/3 computed as 0.33333333333333337 is written 0.333333333333333, not with noise."""
    text = claims.to_csv(claims.evaluate_all())
    assert "0.33333333333333" in text
    assert not re.search(r"\d{16,}", text), re.search(r"\d{16,}", text)


def test_csv_has_a_row_per_check_and_marks_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    text = claims.to_csv(claims.evaluate_all())
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == sum(len(c.checks) for c in claims.CATALOG)
    assert list(rows[0]) == list(claims.CSV_COLUMNS)
    assert {r["agrees"] for r in rows} == {"yes"}
    title = claims.claim_by_id("C3").title
    c3 = [r for r in rows if r["claim"] == title]
    assert c3[0]["link"] == "epsilon?z=1,2,3&eps=1/3"
    assert [float(v) for v in c3[0]["computed now"].split()] == [-1.0, 0.0, 1.0]
    assert (
        c3[0]["stated by"] == "the note on ε and weighted centering"
        and c3[0]["route"] == "the engine's core"
    )
    c8 = claims.claim_by_id("C8").title
    assert {r["stated by"] for r in rows if r["claim"] == c8} >= {"the app's own check"}
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: np.zeros(3))
    broken = list(csv.DictReader(io.StringIO(claims.to_csv(claims.evaluate_all()))))
    assert {r["agrees"] for r in broken if r["claim"] == title} == {"NO"}


def test_an_engine_key_never_names_a_freed_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replaced function named by a key stays alive, so a later replacement cannot reuse
    its address and be taken for it (the examples page caches its checks by this key)."""
    import gc
    import weakref

    def replaced(z, eps):  # a stand-in that a test would patch in
        return z

    monkeypatch.setattr(lnviz, "normalized_core", replaced)
    first = claims.engine_key()
    alive = weakref.ref(replaced)
    monkeypatch.undo()
    del replaced
    gc.collect()
    assert alive() is not None

    def later(z, eps):
        return z

    monkeypatch.setattr(lnviz, "normalized_core", later)
    assert claims.engine_key() != first
