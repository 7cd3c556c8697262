"""Where each worked number comes from: the sources' own numbers, and independent routes.

A check marked as stated by a source must find its excerpt and its number in that source's
text (../shared/seeds/*.txt; the folder sits beside the repository, as in CI), and the
number as written there must equal the check's expected value. Every check must compute
its value by a route other than its closed form: with the engine's closed-form functions
broken, every check still agrees.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import lnviz
from lnviz.content import claims
from lnviz.content.sources import SOURCES
from tests.apptest_helpers import ROOT
from tests.conftest import IN_CI

SEEDS = ROOT.parent / "shared" / "seeds"
STATED = [(c, k) for c in claims.CATALOG for k in c.checks if k.stated is not None]


def _squash(text: str) -> str:
    return " ".join(text.split())


def source_text(key: str) -> str:
    """The text of a source document; skip without the shared folder, but fail in CI."""
    path = SEEDS / SOURCES[key].file
    if not path.is_file():  # pragma: no cover - depends on the checkout
        message = f"{path} is required for this test"
        if IN_CI:
            pytest.fail(message + " and CI=true forbids skipping")
        pytest.skip(message)
    return _squash(Path(path).read_text(encoding="utf-8"))


def _eval(node: ast.AST) -> np.ndarray:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return np.float64(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand)
    if isinstance(node, ast.Tuple):
        return np.array([_eval(e) for e in node.elts])
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "sqrt":
        return np.sqrt(_eval(node.args[0]))
    if isinstance(node, ast.BinOp):
        ops = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.divide}
        return ops[type(node.op)](_eval(node.left), _eval(node.right))
    raise ValueError(f"not a number: {ast.dump(node)}")


def written_value(number: str) -> np.ndarray:
    """The value of a number as a source writes it (LaTeX fragments, or 'zero'/'one')."""
    s = {"zero": "0", "one": "1"}.get(number, number)
    s = s.replace("{)}^{\\mathsf{T}}", ")").replace("\\left(", "(").replace("\\right)", ")")
    s = s.replace("\\ ", "").replace("−", "-")
    s = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"((\1)/(\2))", s)
    s = re.sub(r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)", s)
    assert "\\" not in s and "{" not in s, s
    return _eval(ast.parse(s, mode="eval").body)


def test_written_value_reads_the_sources_spellings() -> None:
    assert written_value(r"(-1,0,1{)}^{\mathsf{T}}/\sqrt{2}").tolist() == pytest.approx(
        [-(2**-0.5), 0, 2**-0.5]
    )
    assert written_value(r"\left(-\sqrt{\frac{3}{2}},\ 1,\ \sqrt{\frac{3}{2}}\right)")[
        0
    ] == pytest.approx(-math.sqrt(1.5))
    assert written_value("11/9") == pytest.approx(11 / 9)
    assert written_value("zero") == 0


def test_some_numbers_are_stated_by_each_source_and_some_are_the_apps_own() -> None:
    assert {k.stated.source for _, k in STATED} == set(SOURCES)
    assert len(STATED) < sum(len(c.checks) for c in claims.CATALOG)


@pytest.mark.parametrize(("claim", "chk"), STATED, ids=[f"{c.id}-{k.label}" for c, k in STATED])
def test_a_stated_number_is_in_the_source_text(claim: claims.Claim, chk: claims.Check) -> None:
    assert chk.stated is not None
    text = source_text(chk.stated.source)
    context = _squash(chk.stated.context)
    assert context in text, (claim.id, chk.label, context)
    assert chk.stated.number in context
    np.testing.assert_allclose(
        written_value(chk.stated.number), chk.expected_array, rtol=0, atol=1e-12
    )
    assert chk.stated.source in claim.sources


def test_every_claim_names_known_sources() -> None:
    for claim in claims.CATALOG:
        assert set(claim.sources) <= set(SOURCES), claim.id


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_sources_are_named_from_their_own_text(key: str) -> None:
    src = SOURCES[key]
    text = source_text(key)
    assert src.marker in text
    if src.title is not None:
        assert text.startswith(src.title) or f" {src.title} " in text
        assert src.title in src.name


# ------------------------------------------------------------- independent routes


def _broken(*_args: object, **_kw: object) -> object:
    raise RuntimeError("closed form broken on purpose")


def _break_closed_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every engine function or field that evaluates a checked closed form, made unusable."""
    core_mod, family, jac = (sys.modules[f"lnviz.{m}"] for m in ("core", "family", "jacobian"))
    for mod, name in [
        (family, "h"),
        (family, "dh"),
        (jac, "jacobian"),
        (jac, "jacobian_spectrum"),
        (core_mod, "core_variance_ratio"),
    ]:
        monkeypatch.setattr(mod, name, _broken)
        monkeypatch.setattr(lnviz, name, _broken)
    real_core, real_stages = core_mod.analyze_core, core_mod.affine_stages

    def core_without_formula(z, eps):  # the core stays; its variance formula is gone
        c = real_core(z, eps)
        return dataclasses.replace(c, core_var=np.full_like(c.core_var, np.nan))

    def stages_without_bounds(*args, **kw):  # the stages stay; the bound formulas are gone
        return dataclasses.replace(
            real_stages(*args, **kw), core_lipschitz=math.nan, output_lipschitz=math.nan
        )

    monkeypatch.setattr(core_mod, "analyze_core", core_without_formula)
    monkeypatch.setattr(lnviz, "analyze_core", core_without_formula)
    monkeypatch.setattr(core_mod, "affine_stages", stages_without_bounds)
    monkeypatch.setattr(lnviz, "affine_stages", stages_without_bounds)


def test_checks_agree_without_the_engines_closed_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    _break_closed_forms(monkeypatch)
    with pytest.raises(RuntimeError):
        lnviz.dh(1.0, 1 / 3)
    assert math.isnan(lnviz.affine_stages([1, 2, 3], eps=0.01).core_lipschitz)
    for result in claims.evaluate_all():
        for res in result.checks:
            assert res.agrees, (result.claim.id, res.check.label, res.problem, res.error)


def test_weighted_centering_matrix_checks_do_not_use_its_formula(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wmod = sys.modules["lnviz.weighted"]
    monkeypatch.setattr(wmod, "weighted_centering_matrix", _broken)
    monkeypatch.setattr(lnviz, "weighted_centering_matrix", _broken)
    matrices = [k for c in claims.CATALOG for k in c.checks if k.label.startswith("Pₐ for a =")]
    assert len(matrices) == 2
    for chk in matrices:
        np.testing.assert_allclose(chk.compute(), chk.expected_array, rtol=0, atol=chk.tol)


@pytest.mark.parametrize("claim", claims.CATALOG, ids=lambda c: c.id)
def test_every_check_names_a_route_other_than_its_closed_form(claim: claims.Claim) -> None:
    for chk in claim.checks:
        assert chk.route.strip() and chk.route != chk.exact, (claim.id, chk.label)
        assert "formula" not in chk.route, (claim.id, chk.label, chk.route)


def test_a_wrong_derivative_route_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finite-difference routes see the engine: a core off by 1 % fails C5, C6, C7, C8."""
    real = lnviz.normalized_core
    monkeypatch.setattr(lnviz, "normalized_core", lambda z, eps: 1.01 * real(z, eps))
    broken = {r.claim.id for r in claims.evaluate_all() if not r.agrees}
    assert {"C5", "C6", "C7", "C8"} <= broken
