"""The students' part of the class poll: joining, the class box atop every page, answering."""

from __future__ import annotations

import streamlit as st

from lnviz.app.classpoll.common import (
    NOTE_KEY,
    ROOM_PARAM,
    SEEN_KEY,
    STUDENT_KEY,
    STUDENT_ONLY,
    VOTER_PARAM,
    WATCH_EVERY_S,
    call,
    lecturer_room,
    results_chart,
    service,
    verdict,
)
from lnviz.app.targets import current_url_path, target
from lnviz.classpoll.rooms import VOTER, Poll, PollError, PollQuestion, RoomView
from lnviz.classpoll.store import StoreUnavailable
from lnviz.content import registry
from lnviz.content.answers import ACCEPTED, MAX_CHARS
from lnviz.content.text import plain


def join_from_link() -> None:
    """Join the class a link names (?room=CODE), or put this session's class back in the link."""
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
        st.error(
            f"The link's **room** “{plain(raw, 40)}” is not a class code. "
            f"{plain(err.message, 400)}",
            icon=":material/link_off:",
        )
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


def join_panel() -> None:
    """The sidebar's way in by code (no QR code at hand); its form is drawn when opened."""
    with st.sidebar:
        panel = st.popover(
            "Join a class", icon=":material/how_to_vote:", key="class-join", on_change="rerun"
        )
    if not panel.open:
        return
    with panel, st.form("class-join-form", border=False):
        st.text_input(
            "Class code",
            key="class-code",
            max_chars=40,
            placeholder="ABCDE-FGHJK",
            help="The code your lecturer shows: 10 letters and digits.",
        )
        st.form_submit_button("Join", icon=":material/login:", on_click=_join_by_code)
    refused = st.session_state.pop(NOTE_KEY, None)
    if refused:
        panel.error(plain(refused, 300), icon=":material/error:")


def _join_by_code() -> None:
    try:
        code = Poll.normalize_code(str(st.session_state.get("class-code") or ""))
    except PollError as err:
        st.session_state[NOTE_KEY] = err.message
        return
    st.query_params[ROOM_PARAM] = Poll.display_code(code)
    st.session_state["class-join"] = False


def _is_voter(text: str) -> bool:
    return VOTER.fullmatch(text) is not None


def _signature(view: RoomView | None) -> tuple[object, ...]:
    """What a student's page depends on: a change of it redraws the page."""
    if view is None:
        return (None,)
    question = view.question.id if view.question else None
    return (view.page, question, view.round, view.revealed)


def student_box(student: dict[str, str], url_path: str) -> None:
    """The class box atop the page: the question or its reveal, and a way to the class's page."""
    code, voter = student["code"], student["voter"]
    shown = Poll.display_code(code)
    with st.container(border=True, key="lnviz-class-box"):
        view = call(lambda: service().view(code))
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
    """Every few seconds: redraw the page if the room changed, on the room's page if it moved."""
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
    view = call(lambda: service().view(code))
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
    mine = call(lambda: service().my_answer(code, voter))
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
    mine = call(lambda: service().my_answer(code, voter))
    if mine is not None:
        st.markdown(f"Your last answer: {plain(mine, 80)}, **{verdict(question, mine)}**.")
    tallies = call(lambda: service().revealed_tallies(code))
    if tallies:
        results_chart(question, tallies, revealed=True, key="class-results-student")
    if question.link_script:
        student = st.session_state.get(STUDENT_KEY) or {}
        st.page_link(
            target(question.link_script),
            label="See it on the page",
            icon=":material/visibility:",
            query_params={**dict(question.link_params), **_student_keys(student)},
        )
