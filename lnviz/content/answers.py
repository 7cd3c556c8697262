"""Read a learner's numeric answer (1/3, √(3/2), 2/√3, 1e-3) by a small grammar, never as code."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from lnviz.errors import LnvizError

MAX_CHARS = 60  # an answer longer than this is refused before it is read
MAX_DEPTH = 12  # nested brackets and roots
ACCEPTED = "a number such as 0.5, 1/3, 11/9, √(3/2), sqrt(2)/2 or 1e-3"
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?)|(?P<word>sqrt|pi)|(?P<op>[-+*/^()√π×−]))"
)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.replace("−", "-").replace("×", "*").replace("·", "*").replace("**", "^").rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(text)
        out.append(m.group(m.lastgroup or "op"))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.i, self.depth = tokens, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise ValueError("end")
        self.i += 1
        return tok

    def answer(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.factor()
        while self.peek() in ("*", "/", "(", "√", "sqrt", "pi", "π"):
            if self.peek() not in ("*", "/"):  # 4√3, 2(1/3), 2π: a product written without *
                value *= self.power()
                continue
            op, rhs = self.take(), self.factor()
            if op == "/" and rhs == 0:
                raise ZeroDivisionError
            value = value * rhs if op == "*" else value / rhs
        return value

    def factor(self) -> float:
        if self.peek() in ("+", "-"):
            return -self.factor() if self.take() == "-" else self.factor()
        return self.power()

    def power(self) -> float:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.factor()
            if abs(exponent) > 64:
                raise OverflowError
            return float(base**exponent)
        return base

    def atom(self) -> float:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ValueError("depth")
        tok = self.take()
        if tok == "(":
            value = self.answer()
            if self.take() != ")":
                raise ValueError(")")
        elif tok in ("√", "sqrt"):
            value = self.atom()
            if value < 0:
                raise ValueError("root of a negative number")
            value = math.sqrt(value)
        elif tok in ("pi", "π"):
            value = math.pi
        elif tok[0].isdigit() or tok[0] == ".":
            value = float(tok)
        else:
            raise ValueError(tok)
        self.depth -= 1
        return value


def read_answer(text: str, field: str = "answer") -> float:
    """The value of an answer in an accepted form; LnvizError for anything else (code, 1/0, nan)."""
    raw = str(text)
    if not raw.strip() or len(raw) > MAX_CHARS:
        shown = raw if len(raw) <= MAX_CHARS else raw[:MAX_CHARS] + "…"
        raise LnvizError(field, shown, ACCEPTED)
    try:
        reader = _Reader(_tokens(raw.strip()))
        value = reader.answer()
        if reader.peek() is not None:
            raise ValueError(reader.peek())
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        raise LnvizError(field, raw, ACCEPTED) from None
    if not math.isfinite(value):
        raise LnvizError(field, raw, ACCEPTED)
    return float(value)


@dataclass(frozen=True)
class Verdict:
    """How an answer compares with the expected value."""

    value: float | None  # what the learner's answer is worth; None if it could not be read
    correct: bool
    message: str  # what to tell the learner about the answer itself (not the hint)


def check_answer(
    text: str, expected: float, *, rel_tol: float = 0.01, abs_tol: float = 1e-9
) -> Verdict:
    """Right within rel_tol (0.01 by default): exact forms and 3-digit decimals both pass."""
    try:
        value = read_answer(text)
    except LnvizError:
        return Verdict(None, False, f"That is not a number this box reads: write {ACCEPTED}.")
    ok = math.isclose(value, expected, rel_tol=rel_tol, abs_tol=abs_tol)
    shown = f"{value:.6g}".replace("-", "−")
    return Verdict(value, ok, f"{shown} is right." if ok else f"{shown} is not it.")
