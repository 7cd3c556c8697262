"""Predict-then-check questions: what a learner answers before the page shows the result."""

from __future__ import annotations

from dataclasses import dataclass

from lnviz.content.answers import Verdict, check_answer
from lnviz.content.glossary import Link, link

__all__ = ["Question", "choice", "link", "number", "twice_or_half"]


@dataclass(frozen=True)
class Question:
    """One question: prompt, expected answer, hint, explanation and the page state that shows it."""

    key: str  # stable within its page
    prompt: str  # Markdown
    link: Link  # opens the page in the state that shows the answer
    hint: str
    explanation: str
    answer: float | None = None  # a numeric question's expected value
    choices: tuple[str, ...] = ()  # a multiple-choice question's options
    correct: int = -1  # the right option's index
    rel_tol: float = 0.01  # numeric answers within 1 % count (decimals to 3 digits)

    def __post_init__(self) -> None:
        numeric = self.answer is not None
        if numeric == bool(self.choices):
            raise ValueError(f"question {self.key}: either an answer or choices, not both")
        if self.choices and not 0 <= self.correct < len(self.choices):
            raise ValueError(f"question {self.key}: the right option is not among the choices")

    @property
    def kind(self) -> str:
        return "number" if self.answer is not None else "choice"

    @property
    def solution(self) -> str:
        """The right answer, as a sheet with answers prints it."""
        if self.answer is None:
            return self.choices[self.correct]
        from lnviz.content.text import with_exact

        return with_exact(self.answer)

    def check(self, response: str | int | None) -> Verdict:
        """The verdict on a typed answer (text) or a chosen option (its index)."""
        if self.answer is not None:
            return check_answer(str(response or ""), self.answer, rel_tol=self.rel_tol)
        if not isinstance(response, int) or not 0 <= response < len(self.choices):
            return Verdict(None, False, "Pick one of the options.")
        ok = response == self.correct
        return Verdict(float(response), ok, "That is right." if ok else "That is not it.")


def number(
    key: str, prompt: str, answer: float, show: Link, *, hint: str, explanation: str,
    rel_tol: float = 0.01,
) -> Question:  # fmt: skip
    """A numeric question."""
    return Question(key, prompt, show, hint, explanation, answer=float(answer), rel_tol=rel_tol)


def choice(
    key: str, prompt: str, choices: tuple[str, ...], correct: int, show: Link, *, hint: str,
    explanation: str,
) -> Question:  # fmt: skip
    """A multiple-choice question; `correct` is the right option's index."""
    return Question(key, prompt, show, hint, explanation, choices=choices, correct=correct)


def twice_or_half(n: int, top: int) -> int:
    """The learner's own case: n doubled, or halved past `top`; the page does not show it."""
    return 2 * n if 2 * n <= top else max(n // 2, 1)
