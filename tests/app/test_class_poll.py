"""The class poll through the router, one AppTest per person: the lecturer starts a class and
asks a question, students join by the link and answer, the lecturer sees the counts; hostile
links and an unreachable store are said in words, and the rest of the page works."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.app import classpoll
from lnviz.classpoll.rooms import Poll
from lnviz.lessons.epsilon import questions as epsilon_questions
from lnviz.lessons.gain_and_bias import questions as gain_and_bias_questions
from tests.apptest_helpers import assert_clean, shown
from tests.apptest_helpers import texts as raw_texts
from tests.deep_links import via_router


@pytest.fixture(autouse=True)
def own_store(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test on its own SQLite store (the app's default, in a temp directory)."""
    monkeypatch.delenv("LNVIZ_REDIS_URL", raising=False)
    monkeypatch.setenv("LNVIZ_POLL_DB", str(tmp_path) + "/poll.sqlite3")
    classpoll.service.clear()
    yield
    classpoll.service.clear()


def started_class() -> tuple[AppTest, str]:
    """A lecturer in presentation mode on epsilon who started a class and asked question 1."""
    lecturer = via_router("epsilon", {"present": "true"})
    lecturer.button(key="class-start").click().run()
    assert_clean(lecturer)
    code = lecturer.session_state[classpoll.LECTURER_KEY]["code"]
    assert f"Class {Poll.display_code(code)}" in texts(lecturer)
    lecturer.button(key="class-ask-epsilon-core-variance").click().run()
    assert_clean(lecturer)
    return lecturer, code


def texts(at: AppTest) -> str:
    """The page's text as a reader sees it (visitor text is escaped for Markdown)."""
    return shown(raw_texts(at))


def student(code: str, **extra: str) -> AppTest:
    at = via_router("epsilon", {"room": Poll.display_code(code), **extra})
    assert_clean(at)
    return at


def send(at: AppTest, text: str) -> AppTest:
    (box,) = [t for t in at.text_input if str(t.key).startswith("class-answer-")]
    box.set_value(text)
    (button,) = [b for b in at.button if b.label == "Send"]
    return button.click().run()


def test_students_answer_and_the_lecturer_counts_them() -> None:
    lecturer, code = started_class()
    assert "0 answered" in texts(lecturer)
    first = epsilon_questions.questions()[0]
    phones = [student(code) for _ in range(3)]
    for phone, text in zip(phones, ("1/2", "8/9", "0.889"), strict=True):
        assert "What is the variance of its core" in texts(phone)
        assert "In class, questions come from the lecturer" in texts(phone)
        send(phone, text)
        assert_clean(phone)
        assert f"Answer received: {text}" in texts(phone)
        assert "Answer: " not in texts(phone)  # nothing of the answer before the reveal
    lecturer.run()
    assert "3 answered" in texts(lecturer)
    room = lecturer.session_state[classpoll.LECTURER_KEY]
    (tally,) = [classpoll.service().tally(code, room["key"], 1)]
    assert tally.total == 3
    question = classpoll.service().view(code).question
    labels, counts, right = classpoll.bars(question, [tally], False)
    assert sorted(counts[0]) == [1, 2] and right is None  # 8/9 and 0.889 are one group
    assert any(label.startswith("0.889 (") for label in labels)
    lecturer.button(key="class-reveal").click().run()
    assert "answer revealed" in texts(lecturer)
    phones[0].run()
    assert f"Answer: {first.solution}" in texts(phones[0])
    assert "Your last answer: 1/2, **not it**" in texts(phones[0])
    phones[1].run()
    assert "Your last answer: 8/9, **right**" in texts(phones[1])


def test_a_reloaded_phone_keeps_its_answer_and_its_id() -> None:
    _, code = started_class()
    phone = student(code)
    voter = phone.session_state[classpoll.STUDENT_KEY]["voter"]
    assert phone.query_params[classpoll.VOTER_PARAM] in (voter, [voter])
    send(phone, "0.5")
    again = student(code, voter=voter)  # a reload: a new session with the same link
    assert "Answer received: 0.5" in texts(again)


@pytest.mark.parametrize(
    "room", ["<b>x</b>", "ABCDE", "A" * 500, "'; DROP TABLE rooms; --", "ÀBCDE-FGHJK"]
)
def test_a_hostile_room_code_is_refused_with_its_field_named(room: str) -> None:
    at = via_router("epsilon", {"room": room})
    assert_clean(at)
    (error,) = at.error
    message = shown(str(error.value))
    assert "room" in message and "Room code" in message and "ABCDE-FGHJK" in message
    assert classpoll.STUDENT_KEY not in at.session_state
    assert at.get("plotly_chart")  # the page itself is drawn


def test_another_rooms_code_shows_nothing_of_any_room() -> None:
    _, code = started_class()
    guess = "0" * 10 if code != "0" * 10 else "1" * 10
    at = student(guess, voter="f" * 32)
    assert "is not running" in texts(at)
    assert "variance of its core" not in texts(at)


def test_an_unreachable_store_is_said_on_the_class_panel_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("LNVIZ_REDIS_URL", f"redis://127.0.0.1:{port}/0")
    classpoll.service.clear()
    lecturer = via_router("epsilon", {"present": "true"})
    lecturer.button(key="class-start").click().run()
    assert_clean(lecturer)
    assert "cannot reach" in texts(lecturer) or any(
        "reach" in str(w.value) for w in lecturer.warning
    )
    assert classpoll.LECTURER_KEY not in lecturer.session_state
    assert len(lecturer.get("plotly_chart")) >= 3  # the page is all there


def test_a_student_joins_by_typing_the_code_in_the_sidebar() -> None:
    _, code = started_class()
    at = via_router("epsilon")
    at.session_state["class-join"] = True  # the panel opened
    at.run()
    at.text_input(key="class-code").set_value("nonsense")
    (join,) = [b for b in at.button if b.label == "Join"]
    join.click().run()
    assert "Room code" in texts(at) and classpoll.STUDENT_KEY not in at.session_state
    at.session_state["class-join"] = True
    at.run()
    at.text_input(key="class-code").set_value(Poll.display_code(code).lower().replace("-", " "))
    (join,) = [b for b in at.button if b.label == "Join"]
    join.click().run()
    assert_clean(at)
    assert at.session_state[classpoll.STUDENT_KEY]["code"] == code
    assert "What is the variance of its core" in texts(at)


def test_a_choice_question_is_polled_by_option_and_counted_per_option() -> None:
    lecturer = via_router("gain-and-bias", {"present": "true"})
    lecturer.button(key="class-start").click().run()
    code = lecturer.session_state[classpoll.LECTURER_KEY]["code"]
    lecturer.session_state["question-gain-and-bias"] = "Question 3"  # the choice question
    lecturer.run()
    lecturer.button(key="class-ask-gain-and-bias-zero-gain").click().run()
    assert_clean(lecturer)
    picks = (0, 0, 2)
    for pick in picks:
        phone = via_router("gain-and-bias", {"room": Poll.display_code(code)})
        (options,) = [r for r in phone.radio if str(r.key).startswith("class-answer-")]
        options.set_value(pick)
        (button,) = [b for b in phone.button if b.label == "Send"]
        button.click().run()
        assert_clean(phone)
        assert "Answer received" in texts(phone)
    room = lecturer.session_state[classpoll.LECTURER_KEY]
    tally = classpoll.service().tally(code, room["key"], 1)
    assert tally.total == 3 and tuple(tally.choice_counts) == (2, 0, 1)
    lecturer.button(key="class-reveal").click().run()
    question = classpoll.service().view(code).question  # revealed: with its right option
    labels, counts, right = classpoll.bars(question, [tally], True)
    expected = gain_and_bias_questions.questions()[2].correct
    assert counts == ((2, 0, 1),) and right == expected >= 0 and len(labels) == 3
