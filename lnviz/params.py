"""Parse what visitors type or URLs carry: a clean value, or an LnvizError a page can show."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

from lnviz.errors import LnvizError, _short

MAX_TEXT = 400  # characters accepted in one text field
_SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # ASCII only: \w and str.isalnum take any script
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?(/(\d+(\.\d*)?|\.\d+))?$")


def parse_number(text: str, field: str, lo: float = -1e6, hi: float = 1e6) -> float:
    """A decimal, scientific or fraction literal ("0.25", "1e-3", "1/3") within [lo, hi]."""
    accepted = f"a number from {lo:g} to {hi:g}"
    raw = str(text).strip()
    if len(raw) > 40 or not _NUMBER.match(raw):
        raise LnvizError(field, text, accepted)
    try:
        if "/" in raw:
            num, den = raw.split("/")
            if float(den) == 0:
                raise LnvizError(field, text, accepted + " (division by zero)")
            value = float(Fraction(num) / Fraction(den))
        else:
            value = float(raw)
    except OverflowError:  # e.g. "1e999/1": the exact fraction is beyond any float
        raise LnvizError(field, text, accepted) from None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise LnvizError(field, text, accepted)
    return value


def parse_vector(
    text: str,
    field: str,
    *,
    min_len: int = 1,
    max_len: int = 16,
    lo: float = -1e6,
    hi: float = 1e6,
) -> np.ndarray:
    """Comma- or space-separated numbers as a float64 vector with bounded length and range."""
    accepted = f"{min_len} to {max_len} numbers from {lo:g} to {hi:g}, separated by commas"
    raw = str(text)
    if len(raw) > MAX_TEXT:
        raise LnvizError(field, raw, accepted + f" (at most {MAX_TEXT} characters)")
    parts = [p for p in re.split(r"[,;\s]+", raw.strip().strip("()[]")) if p]
    if not min_len <= len(parts) <= max_len:
        raise LnvizError(field, raw, accepted + f" (got {len(parts)})")
    values = []
    for part in parts:
        try:
            values.append(parse_number(part, field, lo, hi))
        except LnvizError:
            raise LnvizError(
                field, raw, accepted + f" ({_short(part, 24)} is not a number in range)"
            ) from None
    return np.array(values, dtype=np.float64)  # (n,)


def clamp_int(value: object, field: str, lo: int, hi: int) -> int:
    """An int clamped to [lo, hi]; refuses what is not an integer."""
    try:
        number = int(str(value).strip())
    except ValueError:
        raise LnvizError(field, value, f"a whole number from {lo} to {hi}") from None
    return max(lo, min(hi, number))


def parse_entries(
    text: str,
    field: str,
    shape: tuple[int, int, int],
    *,
    max_entries: int = 32,
    lo: float = -1000.0,
    hi: float = 1000.0,
) -> tuple[tuple[int, int, int, float], ...]:
    """Edits of a (B, T, F) tensor written as "b,t,f=value; ...", with 0-based indices."""
    accepted = (
        f"up to {max_entries} edits 'b,t,f=value' separated by ';', with 0 <= b < {shape[0]}, "
        f"0 <= t < {shape[1]}, 0 <= f < {shape[2]} and values from {lo:g} to {hi:g}"
    )
    raw = str(text)
    if len(raw) > MAX_TEXT:
        raise LnvizError(field, raw, accepted)
    items = [p.strip() for p in raw.split(";") if p.strip()]
    if len(items) > max_entries:
        raise LnvizError(field, raw, accepted)
    out = []
    for item in items:
        m = re.fullmatch(r"(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*=\s*(\S+)", item)
        if not m:
            raise LnvizError(field, item, accepted)
        b, t, f = (int(m.group(i)) for i in (1, 2, 3))
        if not (b < shape[0] and t < shape[1] and f < shape[2]):
            raise LnvizError(field, item, accepted)
        try:
            value = parse_number(m.group(4), field, lo, hi)
        except LnvizError:
            raise LnvizError(field, item, accepted) from None
        out.append((b, t, f, value))
    return tuple(out)


def parse_slug(text: str, field: str, max_chars: int = 60, *, example: str = "") -> str:
    """A URL slug: lower-case words joined by hyphens; case and outer blanks are forgiven."""
    accepted = "lower-case words joined by hyphens" + (f", e.g. {example}" if example else "")
    slug = str(text).strip().lower()
    if len(slug) > max_chars:
        raise LnvizError(field, text, accepted + f" (at most {max_chars} characters)")
    if not _SLUG.fullmatch(slug):
        raise LnvizError(field, text, accepted)
    return slug


def parse_search(text: str, field: str, max_chars: int = 60) -> str:
    """Free search text with its blanks collapsed; refused beyond max_chars characters."""
    words = " ".join(str(text).split())
    if len(words) > max_chars:
        raise LnvizError(field, text, f"at most {max_chars} characters")
    return words
