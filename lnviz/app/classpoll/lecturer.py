"""The lecturer's part of the class poll: start, ask, the projector's answers; the room follows."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from lnviz.app.classpoll.common import (
    LECTURER_KEY,
    MOVED_KEY,
    NOTE_KEY,
    PROJECTOR_EVERY_S,
    SESSION_KEY,
    STUDENT_ONLY,
    call,
    results_chart,
    service,
    snapshot,
)
from lnviz.app.targets import current_url_path, target
from lnviz.classpoll.rooms import Poll, PollError, PollQuestion
from lnviz.classpoll.store import StoreUnavailable
from lnviz.content import registry
from lnviz.content.questions import Question
from lnviz.content.text import plain


def follow(lecturer: dict[str, str], url_path: str) -> None:
    """The room shows the lecturer's page: moved on the lecturer's first run of a page."""
    view = call(lambda: service().view(lecturer["code"]))
    if view is None:
        return
    if view.page != url_path:
        params = {
            k: v
            for k, v in st.query_params.to_dict().items()
            if k not in ("present", "slide", "embed", *STUDENT_ONLY)
        }
        call(lambda: service().follow(lecturer["code"], lecturer["key"], url_path, params))


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
    """Open the next question's tab and ask it; the page reruns, so the tabs outside follow."""
    st.session_state[tabs_key] = label
    st.session_state[MOVED_KEY] = True
    _lecturer_do("ask", question)


def lecturer_panel(questions: Sequence[Question], index: int, page: str, tabs_key: str) -> None:
    """Under a lecturer's open question: ask it, then live answers and the round's buttons."""
    room = st.session_state.get(LECTURER_KEY)
    if not room:
        return
    asked = snapshot(questions[index], page)
    view = call(lambda: service().view(room["code"]))
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
    """The room's answers, redrawn every second; the right answer only after the reveal."""
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
        results_chart(question, tallies, revealed=view.revealed, key="class-results")
    with st.container(horizontal=True, key="lnviz-class-buttons"):
        rounds = (  # (shown, label, icon, the room's action, more of the button)
            (not view.revealed and view.round == 1, "Vote again", "forum", "vote_again",
             {"help": "A second round: neighbours discuss, then everyone answers again."}),
            (not view.revealed, "Reveal the answer", "visibility", "reveal", {"type": "primary"}),
            (True, "Reset", "restart_alt", "reset",
             {"help": "Forget this question's answers and start its first round again."}),
        )  # fmt: skip
        for shown, label, icon, action, more in rounds:
            if shown:
                st.button(label, icon=f":material/{icon}:", key=f"class-{action}",
                          on_click=_lecturer_do, args=(action,), **more)  # fmt: skip
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
                from lnviz.app.chrome import link_params  # (chrome draws this module's bar)

                st.page_link(
                    target(after.script),
                    label=f"Next page: {after.title}",
                    icon=":material/arrow_forward:",
                    query_params=link_params(),  # slides go on, from the first
                )
    if view.revealed:
        st.success(f"Answer: {question.solution}. {question.explanation}", icon=":material/school:")
    note = st.session_state.pop(NOTE_KEY, None)
    if note:
        st.warning(plain(note, 300), icon=":material/error:")
