"""Every number a page or chart shows, in one style: true minus, ∞, undefined vs NaN.

>>> number(-0.5), short(2 / 3), vector([1, -2.5]), exact(11 / 9), eps_label(1e-3)
('−0.5', '0.6667', '(1, −2.5)', '11/9', '0.001')
"""

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
    """A number for prose and metrics: `digits` decimals, trailing zeros trimmed.

    >>> number(1 / 3), number(2.0), number(-1e-9), number(float("inf")), number(float("nan"))
    ('0.333333', '2', '0', '∞', 'undefined')
    """
    special = _special(float(x))
    if special is not None:
        return special
    text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else _minus(text)


def vector(v: Iterable[float] | np.ndarray, digits: int = 4) -> str:
    """A vector for prose: each entry as `number`.

    >>> vector(np.array([-1.0, 0.0, 1 / 3]))
    '(−1, 0, 0.3333)'
    """
    return "(" + ", ".join(number(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def short(x: float, digits: int = 4) -> str:
    """A short number for labels and alt text: `digits` significant digits.

    >>> short(12345.678), short(-0.000123456), short(float("-inf"))
    ('1.235e+04', '−0.0001235', '−∞')
    """
    special = _special(float(x))
    return special if special is not None else _minus(f"{float(x):.{digits}g}")


def short_vector(v: Iterable[float] | np.ndarray, digits: int = 4) -> str:
    """A vector of `short` entries.

    >>> short_vector([1 / 3, 2])
    '(0.3333, 2)'
    """
    return "(" + ", ".join(short(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def float_result(x: float, digits: int = 6) -> str:
    """A value a floating-point format computed: `digits` significant digits, NaN and ±∞ as such.

    >>> float_result(float("nan")), float_result(-1234567.0), float_result(1e-7)
    ('NaN', '−1.23457e+6', '1e−7')
    >>> float_result(2 / 3, 3)
    '0.667'
    """
    special = _special(float(x), nan="NaN")
    if special is not None:
        return special
    return _minus(f"{float(x):.{digits}g}").replace("e+0", "e+").replace("e−0", "e−")


def rel_error(x: float) -> str:
    """A relative error at one significant digit: 3e-05 reads 3e−5; 0, NaN and ∞ as such.

    >>> rel_error(3.1e-5), rel_error(0.0), rel_error(float("inf"))
    ('3e−5', '0', '∞')
    """
    special = _special(float(x), nan="NaN")
    if special is not None:
        return special
    if x == 0:
        return "0"
    return _minus(f"{float(x):.0e}".replace("e-0", "e-").replace("e+0", "e+"))


def eps_label(eps: float) -> str:
    """An ε value: 1/3, 4/3, 0 or two significant digits.

    >>> eps_label(1 / 3), eps_label(1e-6), eps_label(0.0316227766)
    ('1/3', '1e-06', '0.032')
    """
    return EPS_LABELS.get(eps, f"{eps:.2g}")


def offset_label(c: float) -> str:
    """A mean offset: 2000, 1e4, 5e7 (short, and readable in a URL).

    >>> offset_label(2000.0), offset_label(1e4), offset_label(5e7)
    ('2000', '1e4', '5e7')
    """
    return f"{c:g}" if c < 1e4 else f"{c:.0e}".replace("e+0", "e").replace("e+", "e")


def angle(degrees: float) -> str:
    """An angle in degrees, two decimals.

    >>> angle(45.0), angle(float("nan"))
    ('45°', 'undefined')
    """
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
    """A short closed form (p/q, ±√(p/q)) equal to x to rounding, else None; never 0 for x != 0.

    >>> exact(1 / 3), exact(11 / 9), exact(-(1.5**0.5)), exact(-4 / 17**0.5), exact(0.1234567)
    ('1/3', '11/9', '−√(3/2)', '−4/√17', None)
    >>> exact(0.0), exact(1e-17), exact(1 - 1e-12)
    ('0', None, None)
    """
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
    """Closed forms of every entry, or None unless all have one and some are not integers.

    >>> exact_vec(np.array([-(1.5**0.5), 1.0, 1.5**0.5]))
    '(−√(3/2), 1, √(3/2))'
    >>> exact_vec(np.array([1.0, 2.0])) is None  # the decimals already say it
    True
    """
    forms = [exact(float(x)) for x in np.asarray(v).ravel()]
    if any(f is None for f in forms) or not any("/" in f or "√" in f for f in forms if f):
        return None
    return "(" + ", ".join(f for f in forms if f) + ")"


def vector_with_exact(v: Iterable[float] | np.ndarray, digits: int = 6) -> str:
    """The decimals of a vector, followed by its closed forms when they say more.

    >>> vector_with_exact([-(1.5**0.5), 0.0, 1.5**0.5])
    '(−1.224745, 0, 1.224745) = (−√(3/2), 0, √(3/2))'
    """
    form = exact_vec(v)
    text = vector(v, digits)
    return f"{text} = {form}" if form else text


def with_exact(x: float, digits: int = 6) -> str:
    """The decimal, followed by its closed form when that says more (a fraction or a root).

    >>> with_exact(11 / 9), with_exact(0.5), with_exact(2.0)
    ('1.222222 = 11/9', '0.5 = 1/2', '2')
    """
    form = exact(x)
    text = number(x, digits)
    return f"{text} = {form}" if form and ("/" in form or "√" in form) else text


_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_AUTOLINK = re.compile(r"(?i)(?<=w)(?=ww)|(?<=:)(?=//)|(?<=@)")  # where GFM starts a bare link


def plain(text: object, limit: int = 80) -> str:
    """Visitor text made inert for Streamlit's markdown: shown exactly, rendering nothing.

    >>> print(plain("[a](javascript:alert(1)) **b**"))
    \\[a\\]\\(javascript\\:alert\\(1\\)\\) \\*\\*b\\*\\*
    """
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MD_PUNCT.sub(r"\\\1", _AUTOLINK.sub("\u2060", text))
