"""What the Worked examples page shows, prepared as plain text (the page only draws it)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lnviz.content import text
from lnviz.content.claims import CheckResult, ClaimResult, Summary
from lnviz.content.glossary import Link
from lnviz.content.sources import SOURCES

DIGITS = 6  # decimals of every value on the page


def show(values: np.ndarray | None) -> str:
    """A scalar, vector or matrix with six decimals; '—' when nothing was computed."""
    if values is None:
        return "—"
    if values.ndim == 0:
        return text.number(float(values), DIGITS)
    if values.ndim == 1:
        return text.vector(values, DIGITS)
    rows = (text.vector(row, DIGITS)[1:-1] for row in values)
    return "[" + ", ".join(f"[{r}]" for r in rows) + "]"


@dataclass(frozen=True)
class CheckLine:
    """One check as the page shows it."""

    agrees: bool
    label: str  # what is measured
    value: str  # closed form, with its decimal when that says more
    computed: str  # the route's value now
    route: str  # how the value was computed
    error: str  # max |computed − expected|
    tolerance: str
    problem: str  # why no comparison was possible ("" when it was)
    source: str  # short name of the source that writes the number; "" for the app's own

    @property
    def markdown(self) -> str:
        mark = (
            ":green[:material/check_circle: **agrees**]"
            if self.agrees
            else ":red[:material/cancel: **DISAGREES**]"
        )
        who = f"{self.source} writes" if self.source else "closed form"
        why = f" — {self.problem}" if self.problem else ""
        return (
            f"{mark} · **{self.label}**  \n"
            f"{who}: {self.value} · {self.route}: **{self.computed}**  \n"
            f"error {self.error} (tolerance {self.tolerance}){why}"
        )


@dataclass(frozen=True)
class Card:
    """One claim: its statement, the sources' numbers, the app's own checks, its links."""

    anchor: str
    title: str
    statement: str
    agrees: bool
    sources: str  # "" or a sentence naming the documents that state the claim
    stated: tuple[CheckLine, ...]
    own: tuple[CheckLine, ...]
    links: tuple[Link, ...]


def _value(res: CheckResult) -> str:
    chk = res.check
    decimal = show(chk.expected_array)
    same = chk.exact == decimal or chk.exact.endswith(f"= {decimal}")
    return chk.exact if same else f"{chk.exact} = {decimal}"


def _line(res: CheckResult) -> CheckLine:
    chk = res.check
    return CheckLine(
        agrees=res.agrees,
        label=chk.label,
        value=_value(res),
        computed=show(res.computed),
        route=chk.route,
        error=text.rel_error(res.error),
        tolerance=text.rel_error(chk.tol),
        problem=res.problem,
        source=SOURCES[chk.stated.source].short if chk.stated else "",
    )


def _names(keys: tuple[str, ...]) -> str:
    names = [SOURCES[k].name for k in keys]
    return " and ".join(names)


def card(result: ClaimResult) -> Card:
    """The card of one evaluated claim."""
    claim = result.claim
    lines = [_line(r) for r in result.checks]
    stated = tuple(ln for ln in lines if ln.source)
    own = tuple(ln for ln in lines if not ln.source)
    if not claim.sources:
        said = ""
    elif stated:
        said = f"In {_names(claim.sources)}, with these numbers:"
    else:
        said = f"In {_names(claim.sources)}, in words; every number below is the app's own."
    return Card(
        anchor=claim.anchor,
        title=claim.title,
        statement=claim.statement,
        agrees=result.agrees,
        sources=said,
        stated=stated,
        own=own,
        links=claim.links,
    )


@dataclass(frozen=True)
class Overview:
    """The page's summary: counts, the largest error and one message."""

    checks: str  # "63 of 63"
    claims: str
    stated: str  # how many numbers the sources write
    largest_error: str
    all_agree: bool
    message: str


def overview(results: tuple[ClaimResult, ...], summary: Summary) -> Overview:
    """Counts and the message above the cards (failed claims named by their titles)."""
    checks = [c for r in results for c in r.checks]
    n_stated = sum(c.check.stated is not None for c in checks)
    if summary.all_agree:
        message = (
            f"Every check agrees: the {n_stated} numbers the source documents write and the "
            f"app's {len(checks) - n_stated} further checks."
        )
    else:
        failed = "; ".join(r.claim.title for r in results if not r.agrees)
        message = (
            f"{summary.checks - summary.checks_agree} check(s) disagree, in: {failed}. "
            "The cards below say which value differs and by how much."
        )
    return Overview(
        checks=f"{summary.checks_agree} of {summary.checks}",
        claims=f"{summary.claims_agree} of {summary.claims}",
        stated=str(n_stated),
        largest_error=text.rel_error(max((c.error for c in checks), default=0.0)),
        all_agree=summary.all_agree,
        message=message,
    )
