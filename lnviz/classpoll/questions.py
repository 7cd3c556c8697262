"""A poll's question, its tallies and the one error type of the poll, as plain data."""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

# What each field is called in a message; every PollError message starts with it.
LABELS = {
    "room": "Room code",
    "key": "Lecturer key",
    "voter": "Voter id",
    "session": "Session",
    "answer": "Answer",
    "question": "Question",
    "round": "Round",
    "page": "Page",
    "params": "Page settings",
}
KINDS = ("number", "choice")
MAX_CHOICES = 12
LIMITS = {  # characters per text field of a question
    "page": 100,
    "key": 100,
    "prompt": 2000,
    "explanation": 4000,
    "solution": 4000,
    "link_script": 200,
}
MAX_CHOICE_CHARS = 300
MAX_LINK_PARAMS, MAX_PARAM_CHARS = 50, 500


class PollError(Exception):
    """What to tell the visitor: `.field` and a `.message` that starts with the field's name."""

    def __init__(self, field: str, text: str) -> None:
        self.field = field
        self.message = f"{LABELS.get(field, field.capitalize())}: {text}"
        super().__init__(self.message)


def text_pairs(value: object, what: str, field: str = "params") -> tuple[tuple[str, str], ...]:
    """(name, value) string pairs from a mapping or a sequence of pairs, bounded."""
    items = value.items() if isinstance(value, Mapping) else value
    try:
        pairs = tuple((k, v) for k, v in items)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise PollError(field, f"{what} must be pairs of texts.") from None
    if len(pairs) > MAX_LINK_PARAMS:
        raise PollError(field, f"{what}: at most {MAX_LINK_PARAMS} settings.")
    for k, v in pairs:
        if not (isinstance(k, str) and isinstance(v, str)) or not 0 < len(k) <= 64:
            raise PollError(field, f"{what}: names of 1 to 64 characters, values texts.")
        if len(v) > MAX_PARAM_CHARS:
            raise PollError(field, f"{what}: values of at most {MAX_PARAM_CHARS} characters.")
    return pairs


@dataclass(frozen=True)
class PollQuestion:
    """A question as the lecturer's page computed it; `public()` hides its answer."""

    page: str
    key: str
    prompt: str
    kind: str  # "number" | "choice"
    choices: tuple[str, ...] = ()
    answer: float | None = None
    correct: int = -1
    rel_tol: float = 0.01
    explanation: str = ""
    solution: str = ""
    link_script: str = ""
    link_params: tuple[tuple[str, str], ...] = ()
    fixed_id: str = field(default="", repr=False)  # the id, kept by public()

    def __post_init__(self) -> None:
        def bad(text: str) -> PollError:
            return PollError("question", text)

        for name, limit in LIMITS.items():
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > limit:
                raise bad(f"{name} must be a text of at most {limit} characters.")
        if self.kind not in KINDS:
            raise bad(f"kind must be one of {', '.join(KINDS)}, not {str(self.kind)[:20]!r}.")
        choices = tuple(self.choices)
        if not all(isinstance(c, str) and len(c) <= MAX_CHOICE_CHARS for c in choices):
            raise bad(f"choices must be texts of at most {MAX_CHOICE_CHARS} characters.")
        if self.kind == "choice" and not 2 <= len(choices) <= MAX_CHOICES:
            raise bad(f"a choice question has 2 to {MAX_CHOICES} choices.")
        if self.kind == "number" and choices:
            raise bad("a number question has no choices.")
        if isinstance(self.correct, bool) or not isinstance(self.correct, int):
            raise bad("correct must be the index of the right choice (or -1).")
        if not -1 <= self.correct < max(len(choices), 1):
            raise bad("correct must be the index of one of the choices (or -1).")
        if self.answer is not None and (
            isinstance(self.answer, bool)
            or not isinstance(self.answer, int | float)
            or not math.isfinite(self.answer)
        ):
            raise bad("answer must be a finite number (or none).")
        if not isinstance(self.rel_tol, int | float) or not 0 <= self.rel_tol < 1:
            raise bad("rel_tol must be a number from 0 to 1.")
        object.__setattr__(self, "choices", choices)
        object.__setattr__(
            self, "link_params", text_pairs(self.link_params, "the link's settings", "question")
        )
        if self.answer is not None:
            object.__setattr__(self, "answer", float(self.answer))

    @property
    def id(self) -> str:
        """A digest of (page, key, prompt, choices, answer): a changed question gets new slots."""
        if self.fixed_id:
            return self.fixed_id
        text = json.dumps([self.page, self.key, self.prompt, list(self.choices), self.answer])
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    @property
    def complete(self) -> bool:
        """Whether it carries its answer (a question the lecturer may ask)."""
        return self.answer is not None if self.kind == "number" else self.correct >= 0

    def public(self) -> PollQuestion:
        """The question a student sees before the reveal: the same id, no answer or explanation."""
        return replace(
            self,
            answer=None,
            correct=-1,
            explanation="",
            solution="",
            link_script="",
            link_params=(),
            fixed_id=self.id,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["choices"] = list(self.choices)
        data["link_params"] = [list(p) for p in self.link_params]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PollQuestion:
        names = set(cls.__dataclass_fields__)
        unknown = set(data) - names
        if unknown:
            raise PollError("question", f"unknown fields {sorted(unknown)[:3]}.")
        return cls(**data)


@dataclass(frozen=True)
class NumberGroup:
    """Answers agreeing to 3 significant digits, with their written forms, most common first."""

    value: float
    count: int
    forms: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Tally:
    """One round of the current question: counts per choice, or groups of numbers."""

    round: int
    total: int
    choice_counts: tuple[int, ...] = ()
    number_groups: tuple[NumberGroup, ...] = ()


def rounded(value: float) -> float:
    """The value to 3 significant digits (0.0 for −0)."""
    return float(f"{value:.3g}") + 0.0


def group_numbers(answers: Iterable[tuple[str, float]]) -> tuple[NumberGroup, ...]:
    """(text, value) answers grouped by value to 3 significant digits, sorted by value."""
    forms: dict[float, Counter[str]] = {}
    for text, value in answers:
        forms.setdefault(rounded(value), Counter())[text] += 1
    return tuple(
        NumberGroup(
            value,
            sum(counter.values()),
            tuple(sorted(counter.items(), key=lambda item: (-item[1], item[0]))),
        )
        for value, counter in sorted(forms.items())
    )
