"""Closed forms that are certain: lnviz.content.text's forms, kept only within rounding."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from lnviz.content import text

REL_TOL = 1e-13  # a closed form must match the value to rounding, relative to max(1, |x|)


def value_of(closed: str) -> float:
    """The value of a form written by text.exact: 2, −1/3, √3, √(3/2), 4/√17, √3/2."""
    sign = -1.0 if closed.startswith("−") else 1.0
    body = closed.removeprefix("−")
    if body.startswith("√("):
        p, q = body[2:-1].split("/")
        return sign * math.sqrt(int(p) / int(q))

    def atom(part: str) -> float:
        return math.sqrt(int(part[1:])) if part.startswith("√") else float(int(part))

    num, _, den = body.partition("/")
    return sign * atom(num) / (atom(den) if den else 1.0)


def exact(x: float) -> str | None:
    """text.exact(x) if that form equals x to rounding, else None."""
    closed = text.exact(x)
    if closed is None:
        return None
    return closed if abs(value_of(closed) - x) <= REL_TOL * max(1.0, abs(x)) else None


def exact_vec(v: Iterable[float] | np.ndarray) -> str | None:
    """text.exact_vec(v) if every entry's form is certain, else None."""
    values = [float(x) for x in np.asarray(v, dtype=float).ravel()]
    if any(exact(x) is None for x in values):
        return None
    return text.exact_vec(values)


def form(x: float) -> str:
    """A certain closed form, else text.short's decimal (never a closed form that is wrong)."""
    return exact(x) or text.short(x)


def with_exact(x: float, digits: int = 6) -> str:
    """text.with_exact with a certain form only."""
    closed = exact(x)
    shown = text.number(x, digits)
    return f"{shown} = {closed}" if closed and ("/" in closed or "√" in closed) else shown


def vector_with_exact(values: Iterable[float] | np.ndarray) -> str:
    """Six-decimal entries, then closed forms such as (−√(3/2), 0, √(3/2)) if all are certain."""
    closed = exact_vec(values)
    decimals = text.vector(values, 6)
    return f"{decimals} = {closed}" if closed else decimals
