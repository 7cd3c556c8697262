"""Every claim of the two source documents, checked live against the engine by separate routes."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import lnviz
from lnviz.content.claims_catalog import CLAIM_DATA
from lnviz.content.glossary import Link, link
from lnviz.content.sources import SOURCES
from lnviz.lessons.examples.state import SECTION_PAGES

CSV_COLUMNS = (
    *("page", "claim", "check", "stated by", "closed form", "expected", "route"),
    *("computed now", "max error", "tolerance", "agrees", "link"),
)

# The lesson: its pages in teaching order (SECTION_PAGES, the page's section values), each
# with a heading and a note for the teacher.
_SECTION_TEXT = {
    "gain-and-bias": ("1 · The formula, stage by stage",
     "One small vector through centring, scaling, gain and bias. Start here."),
    "epsilon": ("2 · What ε changes",
     "The same input under different ε; the curve h_ε, scaling, the Jacobian and its bound."),
    "invariance": ("3 · What layer norm cannot see",
     "Common shifts vanish exactly; unequal shifts, RMS norm and rescaling do not."),
    "reduction-axes": ("4 · Who shares a statistic",
     "From one vector to a (batch, token, feature) tensor: the schemes differ in what they pool."),
    "weighted-centering": ("5 · Weighted centering",
     "Replacing the mean by a weighted mean turns centring into a slanted projection."),
}  # fmt: skip
SECTIONS: tuple[tuple[str, str, str], ...] = tuple(
    (page, *_SECTION_TEXT[page]) for page in SECTION_PAGES
)


@dataclass(frozen=True)
class Stated:
    """Where a source writes a number: a verbatim excerpt, in which tests find the number."""

    source: str  # key of lnviz.content.sources.SOURCES
    context: str
    number: str


@dataclass(frozen=True)
class Check:
    """One number (or vector, or matrix), its closed form and the route that computes it."""

    label: str  # what is measured
    expected: tuple[float, ...]  # flattened expected values, from the closed form
    shape: tuple[int, ...]  # shape of the expected array; () for a scalar
    exact: str  # closed form, e.g. "(−1, 0, 1)/√2"
    compute: Callable[[], Any]  # the independent route, run live
    tol: float  # absolute tolerance
    route: str  # how `compute` gets its value, in words, e.g. "finite differences of the core"
    stated: Stated | None  # where a source writes this number; None for the app's own check

    @property
    def expected_array(self) -> np.ndarray:
        return np.array(self.expected, dtype=np.float64).reshape(self.shape)


def check(
    label: str,
    expected: Any,
    exact: str,
    compute: Callable[[], Any],
    tol: float,
    route: str,
    stated: tuple[str, str, str] | None = None,
) -> Check:
    """A Check from expected values of any nesting (scalar, vector, matrix)."""
    arr = np.asarray(expected, dtype=np.float64)
    if not np.isfinite(arr).all() or not (math.isfinite(tol) and tol >= 0):
        raise ValueError(f"check {label!r}: expected values and tolerance must be finite")
    if not route.strip():
        raise ValueError(f"check {label!r}: say how the value is computed (route)")
    where = None if stated is None else Stated(*stated)
    return Check(
        label, tuple(arr.ravel().tolist()), arr.shape, exact, compute, float(tol), route, where
    )


@dataclass(frozen=True)
class Claim:
    """A claim with the documents that state it, its checks and the page states that show it."""

    id: str  # the checklist's id, e.g. "C3" (internal, never shown)
    page: str  # url_path of the page that shows it
    title: str
    sources: tuple[str, ...]  # keys of the source documents that state it; () for the app's own
    statement: str  # in this project's words
    links: tuple[Link, ...]
    checks: tuple[Check, ...]

    @property
    def anchor(self) -> str:
        """A slug for the claim, e.g. 'c7-output'."""
        return "-".join("".join(ch if ch.isalnum() else " " for ch in self.id.lower()).split())

    @property
    def stated_checks(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.stated is not None)

    @property
    def own_checks(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.stated is None)


@dataclass(frozen=True)
class CheckResult:
    """The engine's value now against the expected one."""

    check: Check
    computed: np.ndarray | None  # None when the engine call failed
    error: float  # max |computed - expected|; inf on failure, shape mismatch or non-finite
    agrees: bool
    problem: str  # why it cannot agree ("" when the numbers were compared)


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    checks: tuple[CheckResult, ...]

    @property
    def agrees(self) -> bool:
        return all(c.agrees for c in self.checks)


def _link(page: str, row: tuple) -> Link:
    """(label, query) on the claim's page, or (label, query, url_path) on another one."""
    label, query, *other = row
    return link(other[0] if other else page, label, **query)


def _build() -> tuple[Claim, ...]:
    claims = []
    for cid, page, title, sources, statement, links, checks in CLAIM_DATA:
        claims.append(
            Claim(
                id=cid,
                page=page,
                title=title,
                sources=tuple(sources),
                statement=" ".join(statement.split()),
                links=tuple(_link(page, row) for row in links),
                checks=tuple(check(*row) for row in checks),
            )
        )
    return tuple(claims)


CATALOG: tuple[Claim, ...] = _build()


def claim_by_id(cid: str) -> Claim:
    """The catalog entry with this id (KeyError if there is none)."""
    for c in CATALOG:
        if c.id == cid:
            return c
    raise KeyError(cid)


def _run(chk: Check) -> CheckResult:
    """Compute and compare: error = max |computed - expected| against chk.tol."""
    want = chk.expected_array
    try:
        got = np.asarray(chk.compute(), dtype=np.float64)  # shape of want, if all is well
    except Exception as err:  # a broken engine must show as a failure, not crash the page
        return CheckResult(chk, None, math.inf, False, f"the route raised {type(err).__name__}")
    if got.shape != want.shape:
        problem = f"the route returned shape {got.shape}, expected {want.shape}"
        return CheckResult(chk, got, math.inf, False, problem)
    if not np.isfinite(got).all():
        return CheckResult(chk, got, math.inf, False, "the route returned a non-finite value")
    err = float(np.abs(got - want).max()) if want.size else 0.0
    return CheckResult(chk, got, err, err <= chk.tol, "")


def evaluate(claim: Claim) -> ClaimResult:
    """Run every check of a claim against the engine as it is now."""
    return ClaimResult(claim, tuple(_run(c) for c in claim.checks))


def evaluate_all(claims: tuple[Claim, ...] = CATALOG) -> tuple[ClaimResult, ...]:
    return tuple(evaluate(c) for c in claims)


_KEPT: dict[int, object] = {}  # id → the object: ids in a key stay unique


def engine_key() -> tuple[int, ...]:
    """Ids of the public engine functions, kept alive so a replaced function never reuses an id."""
    functions = [getattr(lnviz, name) for name in lnviz.__all__]
    for function in functions:
        _KEPT.setdefault(id(function), function)
    return tuple(id(function) for function in functions)


@dataclass(frozen=True)
class Summary:
    claims: int
    claims_agree: int
    checks: int
    checks_agree: int

    @property
    def all_agree(self) -> bool:
        return self.checks_agree == self.checks


def summarize(results: tuple[ClaimResult, ...]) -> Summary:
    """How many claims and checks agree."""
    checks = [c for r in results for c in r.checks]
    return Summary(
        claims=len(results),
        claims_agree=sum(r.agrees for r in results),
        checks=len(checks),
        checks_agree=sum(c.agrees for c in checks),
    )


def _numbers(arr: np.ndarray | None) -> str:
    """Values to 15 significant digits, ASCII minus, ';' between rows, so spreadsheets read them."""
    if arr is None:
        return ""
    if arr.ndim < 2:
        return " ".join(f"{v:.15g}" for v in np.atleast_1d(arr))
    return "; ".join(_numbers(row) for row in arr)


def to_csv(results: tuple[ClaimResult, ...]) -> str:
    """One row per check: page, claim, what, who states it, closed form, route, error, link."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        for c in r.checks:
            chk = c.check
            who = SOURCES[chk.stated.source].short if chk.stated else "the app's own check"
            writer.writerow(
                (
                    *(r.claim.page, r.claim.title, chk.label, who, chk.exact),
                    *(_numbers(chk.expected_array), chk.route, _numbers(c.computed)),
                    *(f"{c.error:.3g}", f"{chk.tol:g}", "yes" if c.agrees else "NO"),
                    r.claim.links[0].href if r.claim.links else "",
                )
            )
    return out.getvalue()
