"""Words of the gain-and-bias page's live control: which coordinate, and the text it writes."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lnviz.content.text import MINUS, number

SYMBOLS = {"z": "z", "gamma": "γ", "beta": "β"}
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_OPTION = re.compile(r"(z|gamma|beta)([1-9][0-9]?)")
_SEPARATORS = re.compile(r"[,;\s]+")  # as lnviz.params.parse_vector splits


def coordinate_options(d: int, fields: Iterable[str]) -> list[str]:
    """'z1'…'zd', then the same for each other field given, in that order."""
    return [f"{field}{i + 1}" for field in fields for i in range(d)]


def coordinate(option: str) -> tuple[str, int]:
    """('gamma', 1) for 'gamma2': the field and the 0-based coordinate."""
    match = _OPTION.fullmatch(option)
    if match is None:
        raise ValueError(f"not a coordinate: {option!r}")
    return match.group(1), int(match.group(2)) - 1


def coordinate_label(option: str) -> str:
    """'γ₂' for 'gamma2'."""
    field, index = coordinate(option)
    return SYMBOLS[field] + str(index + 1).translate(_SUBSCRIPT)


def with_entry(text: str, index: int, value: float) -> str:
    """`text` with entry `index` set to `value` so the parser reads it back; the rest as typed."""
    parts = [p for p in _SEPARATORS.split(str(text).strip().strip("()[]")) if p]
    if not 0 <= index < len(parts):
        return text
    parts[index] = number(value, 6).replace(MINUS, "-")
    return ", ".join(parts)
