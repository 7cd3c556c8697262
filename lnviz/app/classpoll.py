"""The class answers together: a lecturer starts a class in presentation mode, students
join by its link (?room=CODE), answer the question the lecturer asks on their phones, and
the projector shows how the room answered, the right answer hidden until the reveal.

The rooms live in lnviz.classpoll (SQLite by default, Redis for replicas). The lecturer's
key stays in the lecturer's session (never in a link); a student is an anonymous random id
kept in the student's link, so that a reload keeps the answer given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from lnviz.app.charts import chart
from lnviz.app.targets import current_url_path, target
from lnviz.classpoll.rooms import Poll, PollError, PollQuestion, RoomView, Tally
from lnviz.classpoll.store import StoreUnavailable, open_store
from lnviz.content import registry
from lnviz.content.answers import ACCEPTED, MAX_CHARS, read_answer
from lnviz.content.questions import Question
from lnviz.content.text import plain, short
from lnviz.errors import LnvizError
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


def _call(action: Callable[[], T]) -> T | None:
    """Run a room action; a store that cannot be reached or a refused request is said on
    the class panel (the rest of the page goes on), and the result is None."""
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


# ----------------------------------------------------------------------------- the router


def before_page(url_path: str) -> None:
    """The router's part, before the page: join a class from the link; a lecturer's room
    follows the lecturer's page; a student sees the class box at the top of every page."""
    _join_from_link()
    lecturer = st.session_state.get(LECTURER_KEY)
    if lecturer:
        _follow(lecturer, url_path)
    student = st.session_state.get(STUDENT_KEY)
    if student:
        _student_box(student, url_path)


def _join_from_link() -> None:
    raw = st.query_params.get(ROOM_PARAM)
    student = st.session_state.get(STUDENT_KEY)
    if raw is None:
        if student:  # a page change by the sidebar: the link keeps the class (a reload)
            st.query_params[ROOM_PARAM] = Poll.display_code(student["code"])
            st.query_params[VOTER_PARAM] = student["voter"]
        return
    try:
        code = Poll.normalize_code(raw)
    except PollError as err:
        st.error(plain(err.message, 400), icon=":material/link_off:")
        return
    if lecturer_room() == code:
        return  # the lecturer opened the students' link in the projector's session
    given = st.query_params.get(VOTER_PARAM)
    if student and student["code"] == code:
        voter = student["voter"]
    else:
        voter = given if given and _is_voter(given) else Poll.new_voter()
        st.session_state[STUDENT_KEY] = {"code": code, "voter": voter}
        st.session_state.pop(SEEN_KEY, None)
    if given != voter:
        if given is not None and not _is_voter(given):
            st.warning(
                "The link's **voter** is not an id this app gives (32 hexadecimal "
                "digits): you joined with a new one.",
                icon=":material/link_off:",
            )
        st.query_params[VOTER_PARAM] = voter


def _is_voter(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


def _follow(lecturer: dict[str, str], url_path: str) -> None:
    """The room shows the lecturer's page: moved on the lecturer's first run of a page."""
    view = _call(lambda: service().view(lecturer["code"]))
    if view is None:
        return
    if view.page != url_path:
        params = {
            k: v
            for k, v in st.query_params.to_dict().items()
            if k not in ("present", "slide", "embed", *STUDENT_ONLY)
        }
        _call(lambda: service().follow(lecturer["code"], lecturer["key"], url_path, params))


# ----------------------------------------------------------------------------- students


def _signature(view: RoomView | None) -> tuple[object, ...]:
    """What a student's page depends on: a change of it redraws the page."""
    if view is None:
        return (None,)
    question = view.question.id if view.question else None
    return (view.page, question, view.round, view.revealed)


def _student_box(student: dict[str, str], url_path: str) -> None:
    code, voter = student["code"], student["voter"]
    shown = Poll.display_code(code)
    with st.container(border=True, key="lnviz-class-box"):
        view = _call(lambda: service().view(code))
        st.session_state[SEEN_KEY] = _signature(view)
        if view is None:
            st.warning(
                f"Class {shown} is not running: it has ended, or the code is not one of a "
                "class on this server. The course works on its own as usual.",
                icon=":material/meeting_room:",
            )
            st.button("Leave the class", key="class-leave", on_click=_leave)
            return
        st.markdown(f"**Class {shown}** · the lecturer's question")
        if view.page != url_path:
            page = registry.by_path(view.page) if view.page in _paths() else None
            if page is not None:
                st.page_link(
                    target(page.script),
                    label=f"The class is on “{page.title}”: go there",
                    icon=":material/arrow_forward:",
                    query_params={**dict(view.params), **_student_keys(student)},
                )
        question = view.question
        if question is None:
            st.caption("Waiting for the lecturer's question. It appears here by itself.")
        elif view.revealed:
            _revealed(code, voter, view, question)
        else:
            _answer_box(code, voter, question.id, view.round)
    _watch(code)


def _paths() -> set[str]:
    return {p.url_path for p in registry.PAGES}


def _student_keys(student: dict[str, str]) -> dict[str, str]:
    return {ROOM_PARAM: Poll.display_code(student["code"]), VOTER_PARAM: student["voter"]}


def _leave() -> None:
    st.session_state.pop(STUDENT_KEY, None)
    for key in STUDENT_ONLY:
        st.query_params.pop(key, None)


@st.fragment(run_every=WATCH_EVERY_S)
def _watch(code: str) -> None:
    """Every few seconds: has the room changed? Then the page is drawn again, on the
    room's page if the lecturer moved to another one."""
    try:
        view = service().view(code)
    except (StoreUnavailable, PollError):
        return
    seen = st.session_state.get(SEEN_KEY)
    now = _signature(view)
    if now == seen:
        return
    student = st.session_state.get(STUDENT_KEY)
    moved = view is not None and seen is not None and seen[0] != view.page
    if moved and student and view.page in _paths() and view.page != current_url_path():
        page = registry.by_path(view.page)
        st.switch_page(
            target(page.script), query_params={**dict(view.params), **_student_keys(student)}
        )
    st.rerun(scope="app")


@st.fragment
def _answer_box(code: str, voter: str, question_id: str, round_: int) -> None:
    """The student's answer; sending reruns this box only."""
    view = _call(lambda: service().view(code))
    if view is None or view.question is None or view.question.id != question_id:
        return  # the watcher redraws the page
    question = view.question
    if view.round > 1:
        st.info(
            "Second vote: talk it over with your neighbours, then answer again.",
            icon=":material/forum:",
        )
    widget = f"class-answer-{question_id}-{view.round}"
    with st.form(f"class-form-{question_id}-{view.round}", border=False, enter_to_submit=True):
        st.markdown(question.prompt)
        if question.kind == "number":
            st.text_input(
                "Your answer",
                key=widget,
                max_chars=MAX_CHARS,
                placeholder="e.g. 1/3 or 0.333",
                help=f"Write {ACCEPTED}.",
            )
        else:
            st.radio(
                "Your answer",
                range(len(question.choices)),
                index=None,
                key=widget,
                format_func=lambda i: question.choices[i],
            )
        st.form_submit_button(
            "Send", icon=":material/send:", on_click=_send, args=(code, voter, widget)
        )
    mine = _call(lambda: service().my_answer(code, voter))
    refused = st.session_state.pop(NOTE_KEY, None)
    if refused:
        st.error(plain(refused, 400), icon=":material/error:")
    if mine is not None:
        st.success(
            f"Answer received: {plain(mine, 80)}. You can change it until the lecturer "
            "shows the answer.",
            icon=":material/check_circle:",
        )


def _send(code: str, voter: str, widget: str) -> None:
    response = st.session_state.get(widget)
    if response is None or (isinstance(response, str) and not response.strip()):
        st.session_state[NOTE_KEY] = "Write or pick an answer first."
        return
    try:
        service().submit(code, voter, response)
    except (PollError, StoreUnavailable) as err:
        st.session_state[NOTE_KEY] = getattr(err, "message", str(err))


def _revealed(code: str, voter: str, view: RoomView, question: PollQuestion) -> None:
    st.markdown(question.prompt)
    st.success(f"Answer: {question.solution}. {question.explanation}", icon=":material/school:")
    mine = _call(lambda: service().my_answer(code, voter))
    if mine is not None:
        st.markdown(f"Your last answer: {plain(mine, 80)}, **{_verdict(question, mine)}**.")
    tallies = _call(lambda: service().revealed_tallies(code))
    if tallies:
        _results_chart(question, tallies, revealed=True, key="class-results-student")
    if question.link_script:
        student = st.session_state.get(STUDENT_KEY) or {}
        st.page_link(
            target(question.link_script),
            label="See it on the page",
            icon=":material/visibility:",
            query_params={**dict(question.link_params), **_student_keys(student)},
        )


# ----------------------------------------------------------------------------- the chart


def bars(
    question: PollQuestion, tallies: Sequence[Tally], revealed: bool
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int | None]:
    """(labels, counts per round, the right row or None) for the answers chart.

    Numbers: one row per value (to 3 significant digits) of any round, labelled with the
    forms the class wrote; choices: one row per option."""
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
        near = [i for i, v in enumerate(values) if _close(v, question.answer, question.rel_tol)]
        right = near[0] if near else None
    return labels, counts, right


def _close(value: float, expected: float, rel_tol: float) -> bool:
    return abs(value - expected) <= max(rel_tol * abs(expected), 1e-9)


def _group_label(value: float, forms: dict[str, int]) -> str:
    """ "0.5 (1/2, 0.5)": the value, then the forms the class wrote most (chart text, not
    Markdown: a form holds only the answer grammar's characters)."""
    ordered = [text for text, _ in sorted(forms.items(), key=lambda f: -f[1])[:2]]
    written = ", ".join(t if len(t) <= 12 else t[:11] + "…" for t in ordered)
    return f"{short(value)} ({written})"


def _verdict(question: PollQuestion, mine: str) -> str:
    """Whether the student's last answer was right, once the answer is shown."""
    if question.kind == "choice":
        right = 0 <= question.correct < len(question.choices) and (
            mine == question.choices[question.correct]
        )
    else:
        try:
            right = question.answer is not None and _close(
                read_answer(mine), question.answer, question.rel_tol
            )
        except LnvizError:
            right = False
    return "right" if right else "not it"


def _results_chart(
    question: PollQuestion, tallies: Sequence[Tally], *, revealed: bool, key: str
) -> None:
    labels, counts, right = bars(question, tallies, revealed)
    if not labels:
        st.caption("No answers yet.")
        return
    chart(ANSWERS, labels, counts, right, key=key)


# ----------------------------------------------------------------------------- lecturer


def lecturer_bar() -> None:
    """Presentation mode's class control: start a class, or its code and a way to end it."""
    room = st.session_state.get(LECTURER_KEY)
    if room is None:
        st.button(
            "Start a class poll",
            icon=":material/how_to_vote:",
            key="class-start",
            on_click=_start,
            help="Students join with the QR code; you ask each question "
            "of the page as a live poll and reveal the answer when the room has voted.",
        )
    else:
        st.markdown(
            f"**Class {Poll.display_code(room['code'])}**",
            help="Students join with the QR code (Scan to open this view) or this code.",
        )
        st.button("End the class", icon=":material/stop_circle:", key="class-end", on_click=_end)
    note = st.session_state.pop(NOTE_KEY, None)
    if note:
        st.warning(plain(note, 300), icon=":material/error:")


def _session_id() -> str:
    return st.session_state.setdefault(SESSION_KEY, Poll.new_voter())


def _start() -> None:
    params = {
        k: v
        for k, v in st.query_params.to_dict().items()
        if k not in ("present", "slide", "embed", *STUDENT_ONLY)
    }
    try:
        code, key = service().start(_session_id(), current_url_path(), params)
    except (PollError, StoreUnavailable) as err:
        st.session_state[NOTE_KEY] = getattr(err, "message", str(err))
        return
    st.session_state[LECTURER_KEY] = {"code": code, "key": key}


def _end() -> None:
    room = st.session_state.pop(LECTURER_KEY, None)
    if room:
        try:
            service().close(room["code"], room["key"])
        except (PollError, StoreUnavailable) as err:
            st.session_state[NOTE_KEY] = getattr(err, "message", str(err))


def _lecturer_do(action: str, *args: object) -> None:
    """A lecturer's button: ask, vote_again, reveal or reset, with this session's key."""
    room = st.session_state.get(LECTURER_KEY)
    if not room:
        return
    try:
        getattr(service(), action)(room["code"], room["key"], *args)
    except (PollError, StoreUnavailable) as err:
        st.session_state[NOTE_KEY] = getattr(err, "message", str(err))


def _next(tabs_key: str, label: str, question: PollQuestion) -> None:
    """Open the next question's tab and ask it; the page runs again, so the tabs (outside
    the projector's fragment) show it."""
    st.session_state[tabs_key] = label
    st.session_state[MOVED_KEY] = True
    _lecturer_do("ask", question)


def lecturer_panel(questions: Sequence[Question], index: int, page: str, tabs_key: str) -> None:
    """Under the open question in a lecturer's class: ask it, then the room's live answers
    and the buttons of a round (vote again, reveal, reset, next question)."""
    room = st.session_state.get(LECTURER_KEY)
    if not room:
        return
    asked = snapshot(questions[index], page)
    view = _call(lambda: service().view(room["code"]))
    if view is None:
        return
    if view.question is None or view.question.id != asked.id:
        st.button(
            "Ask the class",
            icon=":material/how_to_vote:",
            type="primary",
            key=f"class-ask-{page}-{asked.key}",
            on_click=_lecturer_do,
            args=("ask", asked),
            help="Students see this question on their phones and answer it; you see how "
            "many answered and what, the right answer hidden until you reveal it.",
        )
        return
    following = None
    if index + 1 < len(questions):
        following = (f"Question {index + 2}", snapshot(questions[index + 1], page))
    _projector(room["code"], room["key"], asked.id, tabs_key, following)


@st.fragment(run_every=PROJECTOR_EVERY_S)
def _projector(
    code: str,
    key: str,
    question_id: str,
    tabs_key: str,
    following: tuple[str, PollQuestion] | None,
) -> None:
    """The room's answers, redrawn every second: counts, then the bars; the right answer
    only after the reveal."""
    if st.session_state.pop(MOVED_KEY, False):
        st.rerun(scope="app")
    try:
        view = service().view(code)
        if view is None or view.question is None or view.question.id != question_id:
            st.caption("The class has moved on from this question.")
            return
        rounds = range(1, view.round + 1)
        tallies = tuple(service().tally(code, key, r) for r in rounds)
    except (StoreUnavailable, PollError) as err:
        st.warning(
            f"The class poll cannot reach its store right now ({plain(err, 200)}).",
            icon=":material/cloud_off:",
        )
        return
    question = view.question
    now = tallies[-1]
    state = "answer revealed" if view.revealed else "voting"
    st.markdown(f"**Class poll · round {view.round} · {state}** · {now.total} answered")
    if now.total or view.round > 1:
        _results_chart(question, tallies, revealed=view.revealed, key="class-results")
    with st.container(horizontal=True, key="lnviz-class-buttons"):
        if not view.revealed and view.round == 1:
            st.button(
                "Vote again",
                icon=":material/forum:",
                key="class-again",
                on_click=_lecturer_do,
                args=("vote_again",),
                help="A second round: neighbours discuss, then everyone answers again.",
            )
        if not view.revealed:
            st.button(
                "Reveal the answer",
                icon=":material/visibility:",
                key="class-reveal",
                on_click=_lecturer_do,
                args=("reveal",),
                type="primary",
            )
        st.button(
            "Reset",
            icon=":material/restart_alt:",
            key="class-reset",
            on_click=_lecturer_do,
            args=("reset",),
            help="Forget this question's answers and start its first round again.",
        )
        if following is not None:
            label, asked = following
            st.button(
                "Next question",
                icon=":material/skip_next:",
                key="class-next",
                on_click=_next,
                args=(tabs_key, label, asked),
            )
        else:
            _, after = registry.neighbours(view.page)
            if after is not None:
                st.page_link(
                    target(after.script),
                    label=f"Next page: {after.title}",
                    icon=":material/arrow_forward:",
                )
    if view.revealed:
        st.success(f"Answer: {question.solution}. {question.explanation}", icon=":material/school:")
    note = st.session_state.pop(NOTE_KEY, None)
    if note:
        st.warning(plain(note, 300), icon=":material/error:")
