"""Predict, then check: a page's questions, answered before the page shows the result."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import streamlit as st

from lnviz.app import classpoll
from lnviz.app.chrome import link_params, presenting
from lnviz.app.targets import target
from lnviz.content import registry, sheets
from lnviz.content.answers import ACCEPTED, MAX_CHARS
from lnviz.content.questions import Question

PROGRESS_KEY = "lnviz-progress"  # {page: {question key: {"tries": n, "right": bool}}}
REVEAL_AFTER = 3  # tries before the explanation is shown anyway


def progress(page: str) -> dict[str, dict[str, object]]:
    """This session's record of the page's questions (created on first use)."""
    book = st.session_state.setdefault(PROGRESS_KEY, {})
    return book.setdefault(page, {})


def answered(page: str, questions: Sequence[Question]) -> int:
    """How many of these questions the learner has answered right in this session."""
    record = progress(page)
    return sum(1 for q in questions if record.get(q.key, {}).get("right"))


def tab_key(page: str) -> str:
    """The session-state key of the page's open question tab (its label, "Question i")."""
    return f"question-{page}"


def ask(questions: Sequence[Question], *, page: str, title: str = "Predict, then check") -> None:
    """The page's questions in one fragment box, only the open one drawn: a Check reruns little."""
    if not questions:
        return
    if classpoll.in_class():
        st.info(
            "In class, questions come from the lecturer: answer them in the class box at the "
            "top of the page. This page's own questions wait for after the lecture.",
            icon=":material/how_to_vote:",
        )
        return
    _box(tuple(questions), page, title)


@st.fragment
def _box(questions: tuple[Question, ...], page: str, title: str) -> None:
    with st.container(border=True, key="lnviz-quiz"):
        right = answered(page, questions)
        # one line: the title, the count, the teacher's sheets (the box stays short, so
        # the first chart is not pushed a screen down)
        with st.container(horizontal=True, vertical_alignment="center"):
            st.markdown(
                f"**{title}** · {right} of {len(questions)} answered",
                help="Commit to an answer before you look further down: the surprise is what "
                "sticks. Exact answers (1/3, √(3/2)) or decimals.",
                width="stretch",
            )
            sheet_downloads([(registry.title_of(page), questions)], name=page or "home")
        # One question at a time (tabs): the box stays short, so the charts it asks about
        # are not screens away on a phone.
        tabs = st.tabs(
            [f"Question {i}" for i in range(1, len(questions) + 1)],
            key=tab_key(page),
            on_change="rerun",
        )
        for tab, q in zip(tabs, questions, strict=True):
            if tab.open:
                with tab:
                    _question(q, page)
                    if presenting():
                        classpoll.lecturer_panel(questions, questions.index(q), page, tab_key(page))


def sheet_downloads(sections: list[tuple[str, tuple[Question, ...]]], *, name: str) -> None:
    """Exercise sheets to download; with answers only when presenting (the lecturer's view)."""
    panel = st.popover(
        "Exercise sheet", icon=":material/download:", key=f"sheets-{name}", on_change="rerun"
    )
    if not panel.open:
        return
    base = sheets.origin(st.context.url)
    with panel:
        st.caption("For a class: the questions with a link to each state on this server.")
        lecturer = presenting()
        for answers in (False, True) if lecturer else (False,):
            suffix = "-answers" if answers else ""
            label = "with answers" if answers else "for students"
            formats = (
                ("Markdown", sheets.markdown_sheet, "md", "text/markdown"),
                ("HTML", sheets.html_sheet, "html", "text/html"),
            )
            for column, (kind, write, ext, mime) in zip(st.columns(2), formats, strict=True):
                column.download_button(  # written when clicked, not on every run
                    f"{kind}, {label}",
                    functools.partial(write, sections, base, answers=answers),
                    file_name=f"lnviz-{name}-exercises{suffix}.{ext}",
                    mime=mime,
                    key=f"sheet-{name}-{ext}{suffix}",
                    on_click="ignore",
                )
        if not lecturer:
            st.caption("Sheets with the answers: in presentation mode, the lecturer's view.")


def _check(q: Question, page: str) -> None:
    """Check's callback: it runs before the page, so the verdict survives any rerun."""
    record = progress(page).setdefault(q.key, {"tries": 0, "right": False})
    response = st.session_state.get(f"answer-{page}-{q.key}")
    verdict = q.check(int(response) if isinstance(response, int) else response)
    # an empty box, or no option picked, is not a try
    readable = verdict.value is not None or (q.kind == "choice" and response is not None)
    if readable:
        record["tries"] = int(record["tries"]) + 1
    record["right"] = bool(record["right"]) or verdict.correct
    record["last"] = (verdict.correct, readable, verdict.message)


def _question(q: Question, page: str) -> None:
    record = progress(page).setdefault(q.key, {"tries": 0, "right": False})
    with st.form(f"quiz-{page}-{q.key}", border=False, enter_to_submit=True):
        st.markdown(q.prompt)
        check = {"label": "Check", "icon": ":material/check:", "on_click": _check,
                 "args": (q, page)}  # fmt: skip
        if q.kind == "number":
            with st.container(horizontal=True, vertical_alignment="bottom"):
                st.text_input(
                    "Your answer",
                    key=f"answer-{page}-{q.key}",
                    max_chars=MAX_CHARS,
                    placeholder="Your answer, e.g. 1/3 or 0.333",
                    help=f"Write {ACCEPTED}.",
                    label_visibility="collapsed",
                )
                st.form_submit_button(**check)
        else:
            st.radio(
                "Your answer",
                range(len(q.choices)),
                index=None,
                format_func=lambda i: q.choices[i],
                key=f"answer-{page}-{q.key}",
                label_visibility="collapsed",
            )
            st.form_submit_button(**check)
    last = record.get("last")
    if last is not None:
        correct, readable, message = last
        if correct:
            st.success(f"{message} {q.explanation}", icon=":material/check_circle:")
        elif not readable:
            st.warning(message, icon=":material/edit:")
        else:
            st.error(f"{message} Hint: {q.hint}", icon=":material/lightbulb:")
    if record["right"] or int(record["tries"]) >= REVEAL_AFTER:
        if not (last and last[0]):
            st.info(f"Answer: {q.solution}. {q.explanation}", icon=":material/school:")
        st.page_link(
            target(q.link.script),
            label=q.link.label,
            icon=":material/visibility:",
            query_params=link_params(q.link.params),
        )
