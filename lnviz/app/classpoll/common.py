"""What the lecturer's and students' parts of the class poll share: service, keys, answers chart."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from lnviz.app.charts import chart
from lnviz.classpoll.rooms import Poll, PollError, PollQuestion, Tally
from lnviz.classpoll.store import StoreUnavailable, open_store
from lnviz.content.answers import check_answer
from lnviz.content.questions import Question
from lnviz.content.text import plain, short
from lnviz.figures.poll import ANSWERS

ROOM_PARAM, VOTER_PARAM = "room", "voter"  # a student's link: the room, the anonymous id
LECTURER_KEY = "_lnviz_class_lecturer"  # session state: {"code", "key"}, never in a link
STUDENT_KEY = "_lnviz_class_student"  # session state: {"code", "voter"}
SESSION_KEY = "_lnviz_class_session"  # session state: a random id (rate limit of starts)
SEEN_KEY = "_lnviz_class_seen"  # session state: the room's state the student's page shows
NOTE_KEY = "_lnviz_class_note"  # session state: the last message of a lecturer's button
MOVED_KEY = "_lnviz_class_moved"  # session state: the lecturer opened the next question
WATCH_EVERY_S = 2.0  # a student's phone looks at the room this often
PROJECTOR_EVERY_S = 1.0  # the projector's counts are redrawn this often
STUDENT_ONLY = (ROOM_PARAM, VOTER_PARAM)  # a student's keys, not the projector's

T = TypeVar("T")


@st.cache_resource(show_spinner=False)
def service() -> Poll:
    """One room service per server process, on the store the environment names."""
    return Poll(open_store())


def call(action: Callable[[], T]) -> T | None:
    """Run a room action; a failure is said on the panel, the page goes on, and it gives None."""
    try:
        return action()
    except StoreUnavailable as err:
        st.warning(
            f"The class poll cannot reach its store right now ({plain(err, 200)}). "
            "The rest of the page works as usual.",
            icon=":material/cloud_off:",
        )
    except PollError as err:
        st.error(plain(err.message, 400), icon=":material/error:")
    return None


def lecturer_room() -> str | None:
    """The room code of this session's class, if it runs one."""
    room = st.session_state.get(LECTURER_KEY)
    return room["code"] if room else None


def in_class() -> bool:
    """Whether this session is a student's in a class (the page's own questions wait)."""
    return STUDENT_KEY in st.session_state


def student_params(params: dict[str, str]) -> dict[str, str]:
    """The students' link's parameters: the view's, and the room of this lecturer's class."""
    code = lecturer_room()
    out = {k: v for k, v in params.items() if k not in STUDENT_ONLY}
    if code:
        out[ROOM_PARAM] = Poll.display_code(code)
    return out


def snapshot(question: Question, page: str) -> PollQuestion:
    """A question as the lecturer's page computes it now, for the room."""
    return PollQuestion(
        page=page,
        key=question.key,
        prompt=question.prompt,
        kind=question.kind,
        choices=question.choices,
        answer=question.answer,
        correct=question.correct,
        rel_tol=question.rel_tol,
        explanation=question.explanation,
        solution=question.solution,
        link_script=question.link.script,
        link_params=tuple(sorted(question.link.params.items())),
    )


def bars(
    question: PollQuestion, tallies: Sequence[Tally], revealed: bool
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int | None]:
    """(labels, counts per round, right row or None) for the answers chart; numbers by 3 digits."""
    if question.kind == "choice":
        labels = tuple(c if len(c) <= 60 else c[:59] + "…" for c in question.choices)
        counts = tuple(tuple(t.choice_counts) for t in tallies)
        return labels, counts, (question.correct if revealed else None)
    values = sorted({g.value for t in tallies for g in t.number_groups})
    forms: dict[float, dict[str, int]] = {v: {} for v in values}
    for t in tallies:
        for g in t.number_groups:
            for text, n in g.forms:
                forms[g.value][text] = forms[g.value].get(text, 0) + n
    labels = tuple(_group_label(v, forms[v]) for v in values)
    counts = tuple(
        tuple(next((g.count for g in t.number_groups if g.value == v), 0) for v in values)
        for t in tallies
    )
    right = None
    if revealed and question.answer is not None:
        near = [i for i, v in enumerate(values) if _right(v, question)]
        right = near[0] if near else None
    return labels, counts, right


def _right(value: float, question: PollQuestion) -> bool:
    """The rule of a page's own Check (lnviz.content.answers.check_answer)."""
    assert question.answer is not None
    return math.isclose(value, question.answer, rel_tol=question.rel_tol, abs_tol=1e-9)


def _group_label(value: float, forms: dict[str, int]) -> str:
    """The value, then the two forms the class wrote most: "0.5 (1/2, 0.5)" (chart text)."""
    ordered = [text for text, _ in sorted(forms.items(), key=lambda f: -f[1])[:2]]
    written = ", ".join(t if len(t) <= 12 else t[:11] + "…" for t in ordered)
    return f"{short(value)} ({written})"


def verdict(question: PollQuestion, mine: str) -> str:
    """Whether the student's last answer was right, once the answer is shown."""
    if question.kind == "choice":
        right = 0 <= question.correct < len(question.choices) and (
            mine == question.choices[question.correct]
        )
    else:
        right = question.answer is not None and (
            check_answer(mine, question.answer, rel_tol=question.rel_tol).correct
        )
    return "right" if right else "not it"


def results_chart(
    question: PollQuestion, tallies: Sequence[Tally], *, revealed: bool, key: str
) -> None:
    labels, counts, right = bars(question, tallies, revealed)
    if not labels:
        st.caption("No answers yet.")
        return
    chart(ANSWERS, labels, counts, right, key=key)
