"""A lesson's URL keys as data: one spec for its controls, their validation and the URL tests."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Log-spaced ε from 1e-6 to 10 (four per decade), plus 1/3 and 4/3: every ε slider's values.
EPS_GRID = tuple(sorted({round(10 ** (k / 4), 12) for k in range(-24, 5)} | {1 / 3, 4 / 3}))


@dataclass(frozen=True)
class Key:
    """One URL key: its name in the link, its control's label and its default."""

    name: str
    label: str
    default: Any
    help: str | None = field(default=None, kw_only=True)

    def problem(self, value: Any) -> str | None:
        """Why `value` is not a value of this key, or None."""
        return None


@dataclass(frozen=True)
class Eps(Key):
    """ε on its log grid (EPS_GRID), optionally with 0."""

    name: str = "eps"
    label: str = "ε (added to the variance)"
    default: float = 1 / 3
    allow_zero: bool = field(default=False, kw_only=True)

    @property
    def options(self) -> tuple[float, ...]:
        return ((0.0,) if self.allow_zero else ()) + EPS_GRID

    def problem(self, value: Any) -> str | None:
        ok = any(math.isclose(value, o, rel_tol=1e-9) for o in self.options)
        return None if ok else f"{value} is not one of its values"


@dataclass(frozen=True)
class Number(Key):
    """A number in [lo, hi] (a slider, by `step`)."""

    lo: float = field(default=0.0, kw_only=True)
    hi: float = field(default=1.0, kw_only=True)
    step: float | None = field(default=None, kw_only=True)

    def problem(self, value: Any) -> str | None:
        return None if self.lo <= value <= self.hi else f"{value} is outside [{self.lo}, {self.hi}]"


@dataclass(frozen=True)
class Options(Key):
    """One of fixed options (numbers on a select slider, or words on a radio)."""

    options: tuple[Any, ...] = field(default=(), kw_only=True)

    def problem(self, value: Any) -> str | None:
        return None if value in self.options else f"{value!r} is not one of its options"


@dataclass(frozen=True)
class Whole(Key):
    """A whole number in [lo, hi]."""

    lo: int = field(default=0, kw_only=True)
    hi: int = field(default=1, kw_only=True)

    def problem(self, value: Any) -> str | None:
        ok = isinstance(value, int) and self.lo <= value <= self.hi
        return None if ok else f"{value!r} is not a whole number from {self.lo} to {self.hi}"


@dataclass(frozen=True)
class Toggle(Key):
    """On or off."""

    default: bool = False

    def problem(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else f"{value!r} is not true or false"


@dataclass(frozen=True)
class Vector(Key):
    """Comma-separated numbers in [lo, hi], min_len to max_len of them (fractions allowed)."""

    lo: float = field(default=-1e4, kw_only=True)
    hi: float = field(default=1e4, kw_only=True)
    min_len: int = field(default=1, kw_only=True)
    max_len: int = field(default=8, kw_only=True)

    def problem(self, value: Any) -> str | None:
        from lnviz.errors import LnvizError
        from lnviz.params import parse_vector

        try:
            parse_vector(
                str(value),
                self.name,
                min_len=self.min_len,
                max_len=self.max_len,
                lo=self.lo,
                hi=self.hi,
            )
        except LnvizError as err:
            return str(err)
        return None


@dataclass(frozen=True)
class Text(Key):
    """Free text of at most max_chars characters, read by the page's own parser."""

    max_chars: int = field(default=400, kw_only=True)

    def problem(self, value: Any) -> str | None:
        ok = isinstance(value, str) and len(value) <= self.max_chars
        return None if ok else f"not a text of at most {self.max_chars} characters"


@dataclass(frozen=True)
class Link(Key):
    """A key with no control of its own: the page reads it from the link (ui.link_text)."""

    default: str = ""


SEED = Whole("seed", "random seed", 0, lo=0, hi=9999)  # every page's random-number seed box


@dataclass(frozen=True)
class State:
    """A lesson's keys, in the order its page draws them."""

    keys: tuple[Key, ...]

    def __init__(self, *keys: Key) -> None:
        names = [k.name for k in keys]
        if len(set(names)) != len(names):
            raise ValueError(f"a key named twice: {names}")
        object.__setattr__(self, "keys", keys)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)

    def __getitem__(self, name: str) -> Key:
        return next(k for k in self.keys if k.name == name)

    def problems(self, values: Mapping[str, Any]) -> list[str]:
        """What is wrong with a preset (key: value): unknown keys and values out of range."""
        found = []
        for name, value in values.items():
            if name not in self.names:
                found.append(f"{name}: not a key of this lesson")
            elif (why := self[name].problem(value)) is not None:
                found.append(f"{name}: {why}")
        return found
