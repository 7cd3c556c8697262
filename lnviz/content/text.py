"""Every number a page or chart shows, in one style: true minus, ∞, undefined vs NaN."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction

import numpy as np

MINUS = "−"
EPS_LABELS = {1 / 3: "1/3", 4 / 3: "4/3", 0.0: "0"}  # ε values with a name of their own
_MAX_DEN = 64  # largest denominator recognised as "exact"


def _minus(text: str) -> str:
    return text.replace("-", MINUS)


def _special(x: float, nan: str = "undefined") -> str | None:
    if math.isnan(x):
        return nan
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    return None


def number(x: float, digits: int = 6) -> str:
    """A number for prose and metrics: `digits` decimals, trailing zeros trimmed."""
    special = _special(float(x))
    if special is not None:
        return special
    text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else _minus(text)


def vector(v: Iterable[float] | np.ndarray, digits: int = 4) -> str:
    """A vector for prose: each entry as `number`."""
    return "(" + ", ".join(number(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def short(x: float, digits: int = 4) -> str:
    """A short number for labels and alt text: `digits` significant digits."""
    special = _special(float(x))
    return special if special is not None else _minus(f"{float(x):.{digits}g}")


def short_vector(v: Iterable[float] | np.ndarray, digits: int = 4) -> str:
    """A vector of `short` entries."""
    return "(" + ", ".join(short(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def float_result(x: float, digits: int = 6) -> str:
    """A value a floating-point format computed: `digits` significant digits, NaN and ±∞ as such."""
    special = _special(float(x), nan="NaN")
    if special is not None:
        return special
    return _minus(f"{float(x):.{digits}g}").replace("e+0", "e+").replace("e−0", "e−")


def rel_error(x: float) -> str:
    """A relative error at one significant digit: 3e-05 reads 3e−5; 0, NaN and ∞ as such."""
    special = _special(float(x), nan="NaN")
    if special is not None:
        return special
    if x == 0:
        return "0"
    return _minus(f"{float(x):.0e}".replace("e-0", "e-").replace("e+0", "e+"))


def eps_label(eps: float) -> str:
    """An ε value: 1/3, 4/3, 0 or two significant digits."""
    return EPS_LABELS.get(eps, f"{eps:.2g}")


def offset_label(c: float) -> str:
    """A mean offset: 2000, 1e4, 5e7 (short, and readable in a URL)."""
    return f"{c:g}" if c < 1e4 else f"{c:.0e}".replace("e+0", "e").replace("e+", "e")


def angle(degrees: float) -> str:
    """An angle in degrees, two decimals."""
    return "undefined" if math.isnan(degrees) else f"{number(degrees, 2)}°"


def _fraction(x: float) -> Fraction | None:
    frac = Fraction(x).limit_denominator(_MAX_DEN)
    if frac == 0 and x != 0:  # a tiny nonzero value has no small closed form
        return None
    return frac if math.isclose(float(frac), x, rel_tol=1e-13, abs_tol=0.0) else None


def _frac_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _isqrt(n: int) -> int | None:
    root = math.isqrt(n)
    return root if root * root == n else None


def exact(x: float) -> str | None:
    """A short closed form (p/q, ±√(p/q)) equal to x to rounding, else None; never 0 for x != 0."""
    if not math.isfinite(x):
        return None
    sign = MINUS if x < 0 else ""
    f = _fraction(abs(x))
    if f is not None:
        return sign + _frac_text(f) if f != 0 else "0"
    sq = _fraction(x * x)
    if sq is None or sq == 0:
        return None
    p, q = sq.numerator, sq.denominator
    rp, rq = _isqrt(p), _isqrt(q)
    if rp is not None:  # √(p/q) = rp / √q
        return f"{sign}{rp}/√{q}"
    if rq is not None:  # √(p/q) = √p / rq
        return f"{sign}√{p}" + ("" if rq == 1 else f"/{rq}")
    return f"{sign}√({p}/{q})"


def exact_vec(v: Iterable[float] | np.ndarray) -> str | None:
    """Closed forms of every entry, or None unless all have one and some are not integers."""
    forms = [exact(float(x)) for x in np.asarray(v).ravel()]
    if any(f is None for f in forms) or not any("/" in f or "√" in f for f in forms if f):
        return None
    return "(" + ", ".join(f for f in forms if f) + ")"


def vector_with_exact(v: Iterable[float] | np.ndarray, digits: int = 6) -> str:
    """The decimals of a vector, followed by its closed forms when they say more."""
    form = exact_vec(v)
    text = vector(v, digits)
    return f"{text} = {form}" if form else text


def with_exact(x: float, digits: int = 6) -> str:
    """The decimal, followed by its closed form when that says more (a fraction or a root)."""
    form = exact(x)
    text = number(x, digits)
    return f"{text} = {form}" if form and ("/" in form or "√" in form) else text


_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_AUTOLINK = re.compile(r"(?i)(?<=w)(?=ww)|(?<=:)(?=//)|(?<=@)")  # where GFM starts a bare link


def plain(text: object, limit: int = 80) -> str:
    """Visitor text made inert for Streamlit's markdown: shown exactly, rendering nothing."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MD_PUNCT.sub(r"\\\1", _AUTOLINK.sub("\u2060", text))
