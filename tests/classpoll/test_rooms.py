"""A room's life on both backends: start, follow, ask, vote, vote again, reveal, reset,
close, expiry; what the lecturer and the students each see."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lnviz.classpoll import rooms
from lnviz.classpoll.rooms import Poll, PollQuestion, RoomView, Tally, poll_hours
from tests.classpoll.conftest import FakeClock, refused

NUMBER = PollQuestion(
    "epsilon",
    "core-var",
    "At q = ε, what is the core's variance?",
    "number",
    answer=0.5,
    explanation="q/(q+ε) = 1/2.",
    solution="1/2",
    link_script="pages/epsilon.py",
    link_params=(("eps", "1"),),
)
CHOICE = PollQuestion(
    "invariance",
    "shift",
    "Which shift leaves the output unchanged?",
    "choice",
    choices=("a common one", "an unequal one", "none"),
    correct=0,
    explanation="The mean absorbs it.",
)


def voters(n: int) -> list[str]:
    return [Poll.new_voter() for _ in range(n)]


def started(poll: Poll, question: PollQuestion | None = None) -> tuple[str, str]:
    code, key = poll.start("session-1", "epsilon", {"eps": "0.5"})
    if question is not None:
        poll.ask(code, key, question)
    return code, key


def test_a_new_room_shows_its_page_and_nothing_asked(poll: Poll, clock: FakeClock) -> None:
    code, key = poll.start("session-1", "epsilon", {"eps": "0.5", "n": "8"})
    assert len(code) == 10 and set(code) <= set(rooms.ALPHABET)
    assert len(key) == 32 and key != code
    assert poll.view(code) == RoomView(
        code, "epsilon", (("eps", "0.5"), ("n", "8")), None, 1, False, clock.now + 3600
    )
    assert poll.view(code.lower()) == poll.view(Poll.display_code(code)) == poll.view(code)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("abcde-fghjk", "ABCDEFGHJK"),
        ("  ABCDE FGHJK ", "ABCDEFGHJK"),
        ("o0i1l-O0I1L", "0011100111"),
        ("zzzzz zzzzz", "ZZZZZZZZZZ"),
    ],
)
def test_codes_are_read_in_their_typed_forms(typed: str, code: str) -> None:
    assert Poll.normalize_code(typed) == code
    assert Poll.display_code(typed) == f"{code[:5]}-{code[5:]}"


@pytest.mark.parametrize(
    "typed", ["ABCDE-FGHJ", "ABCDE-FGHJKM", "ABCDE-FGHJU", "ABCDE_FGHJK", "", "x" * 10_000, 12345]
)
def test_anything_else_is_not_a_code(typed: object) -> None:
    err = refused(lambda: Poll.normalize_code(typed), "room")  # type: ignore[arg-type]
    assert "ABCDE-FGHJK" in err.message


@pytest.mark.parametrize(
    ("hours", "expected"),
    [("2", 2.0), ("0.1", 0.1), ("72", 72.0), ("0.05", 4.0), ("73", 4.0), ("abc", 4.0),
     ("nan", 4.0), ("inf", 4.0), ("", 4.0), ("1" * 10_000, 4.0)],
)  # fmt: skip
def test_room_life_comes_from_lnviz_poll_hours(
    hours: str, expected: float, monkeypatch: pytest.MonkeyPatch, make_poll: Callable[..., Poll]
) -> None:
    assert poll_hours({"LNVIZ_POLL_HOURS": hours}) == expected
    monkeypatch.setenv("LNVIZ_POLL_HOURS", hours)
    assert make_poll().ttl_s == expected * 3600
    assert poll_hours({}) == 4.0


def test_the_question_is_hidden_from_students_until_the_reveal(poll: Poll) -> None:
    code, key = started(poll)
    lecturer = poll.ask(code, key, NUMBER)
    assert lecturer.question == NUMBER, "the lecturer's own view keeps the answer"
    student = poll.view(code)
    assert student is not None and student.question is not None
    q = student.question
    assert (q.prompt, q.kind, q.id, q.page, q.key) == (
        NUMBER.prompt,
        "number",
        NUMBER.id,
        "epsilon",
        "core-var",
    )
    assert (q.answer, q.correct, q.explanation, q.solution) == (None, -1, "", "")
    assert (q.link_script, q.link_params) == ("", ())
    assert NUMBER.explanation not in repr(student) and "1/2" not in repr(student)
    poll.reveal(code, key)
    revealed = poll.view(code)
    assert revealed is not None and revealed.question == NUMBER and revealed.revealed


def test_choice_questions_hide_the_right_option(poll: Poll) -> None:
    code, _key = started(poll, CHOICE)
    view = poll.view(code)
    assert view is not None and view.question is not None
    assert view.question.choices == CHOICE.choices and view.question.correct == -1


def test_answers_are_counted_per_round_and_replaced_per_voter(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    a, b, c = voters(3)
    assert poll.submit(code, a, "1/2") == "Answer received: 1/2"
    poll.submit(code, b, "0.4")
    poll.submit(code, a, "0.6")  # a changes its mind
    assert poll.my_answer(code, a) == "0.6"
    assert poll.tally(code, key, 1).total == 2
    assert [g.value for g in poll.tally(code, key, 1).number_groups] == [0.4, 0.6]
    assert poll.vote_again(code, key).round == 2
    assert poll.my_answer(code, a) is None, "round 2 starts empty"
    assert poll.tally(code, key, 2) == Tally(2, 0, (), ())
    poll.submit(code, c, "1/2")
    assert poll.my_answer(code, c) == "1/2"
    assert (poll.tally(code, key, 1).total, poll.tally(code, key, 2).total) == (2, 1)


def test_choice_answers_by_index(poll: Poll) -> None:
    code, key = started(poll, CHOICE)
    a, b, c = voters(3)
    assert poll.submit(code, a, 0) == "Answer received: a common one"
    poll.submit(code, b, "2")
    poll.submit(code, c, 0)
    assert poll.tally(code, key, 1) == Tally(1, 3, (2, 0, 1), ())
    assert poll.my_answer(code, b) == "none"
    for bad in (3, -1, True, "1.0", "one", "22", 10**20, None, 0.0):
        refused(lambda bad=bad: poll.submit(code, a, bad), "answer")
    assert poll.tally(code, key, 1).choice_counts == (2, 0, 1)


def test_vote_again_only_from_round_one_before_the_reveal(poll: Poll) -> None:
    code, key = started(poll)
    refused(lambda: poll.vote_again(code, key), "question")
    poll.ask(code, key, NUMBER)
    poll.vote_again(code, key)
    refused(lambda: poll.vote_again(code, key), "round")
    poll.ask(code, key, CHOICE)
    poll.reveal(code, key)
    refused(lambda: poll.vote_again(code, key), "round")


def two_rounds(poll: Poll) -> tuple[str, str, str]:
    """A room with NUMBER answered once in each round: (code, key, round 1's voter)."""
    code, key = started(poll, NUMBER)
    a, b = voters(2)
    poll.submit(code, a, "0.5")
    poll.vote_again(code, key)
    poll.submit(code, b, "1/2")
    return code, key, a


def test_the_reveal_shows_every_round_and_closes_voting(poll: Poll) -> None:
    code, key, a = two_rounds(poll)
    assert poll.revealed_tallies(code) == ()
    poll.reveal(code, key)
    shown = poll.revealed_tallies(code)
    assert [(t.round, t.total) for t in shown] == [(1, 1), (2, 1)]
    assert shown[1].number_groups[0].forms == (("1/2", 1),)
    refused(lambda: poll.submit(code, a, "0.7"), "question")
    assert poll.tally(code, key, 2).total == 1


def test_asking_the_same_question_keeps_its_answers_and_a_changed_one_starts_afresh(
    poll: Poll,
) -> None:
    code, key = started(poll, NUMBER)
    poll.submit(code, Poll.new_voter(), "0.5")
    poll.follow(code, key, "epsilon", {"eps": "2"})
    assert poll.ask(code, key, NUMBER).round == 1
    assert poll.tally(code, key, 1).total == 1
    changed = PollQuestion(**{**NUMBER.to_dict(), "answer": 2 / 3})
    assert changed.id != NUMBER.id
    poll.ask(code, key, changed)
    assert poll.tally(code, key, 1).total == 0


def test_reset_deletes_both_rounds(poll: Poll) -> None:
    code, key, a = two_rounds(poll)
    poll.reveal(code, key)
    view = poll.reset(code, key)
    assert (view.round, view.revealed) == (1, False)
    assert poll.tally(code, key, 1).total == poll.tally(code, key, 2).total == 0
    assert poll.my_answer(code, a) is None
    poll.submit(code, a, "0.25")
    assert poll.tally(code, key, 1).total == 1


def test_follow_moves_the_room_and_clears_the_question(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    view = poll.follow(code, key, "invariance", {"shift": "3"})
    assert (view.page, view.params, view.question) == ("invariance", (("shift", "3"),), None)
    assert poll.view(code) == view
    refused(lambda: poll.submit(code, Poll.new_voter(), "1"), "question")
    assert poll.my_answer(code, Poll.new_voter()) is None
    refused(lambda: poll.tally(code, key, 1), "question")
    refused(lambda: poll.follow(code, key, "", {}), "page")
    refused(lambda: poll.follow(code, key, "x", {"k": 1}), "params")  # type: ignore[dict-item]
    refused(lambda: poll.follow(code, key, "x", {f"k{i}": "v" for i in range(51)}), "params")
    refused(lambda: poll.follow(code, key, "x", {"k": "v" * 501}), "params")


def test_close_deletes_the_room_and_its_answers(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    voter = Poll.new_voter()
    poll.submit(code, voter, "0.5")
    poll.close(code, key)
    assert poll.view(code) is None
    assert poll.store.answers(code, f"{NUMBER.id}:1") == {}
    assert poll.my_answer(code, voter) is None
    assert poll.revealed_tallies(code) == ()
    refused(lambda: poll.submit(code, voter, "0.5"), "room")
    refused(lambda: poll.reveal(code, key), "room")


def test_a_room_expires_after_its_life(make_poll: Callable[..., Poll], clock: FakeClock) -> None:
    poll = make_poll(ttl_s=600)
    code, key = started(poll, NUMBER)
    clock.advance(599)
    poll.submit(code, Poll.new_voter(), "0.5")
    assert poll.reveal(code, key).expires_at == clock.now + 1, "a change does not extend it"
    clock.advance(1)
    assert poll.view(code) is None
    refused(lambda: poll.tally(code, key, 1), "room")
    refused(lambda: poll.submit(code, Poll.new_voter(), "0.5"), "room")


def test_a_reloaded_phone_gets_its_answer_back(make_poll: Callable[..., Poll]) -> None:
    first = make_poll(ttl_s=3600)
    code, _key = started(first, NUMBER)
    voter = Poll.new_voter()
    first.submit(code, voter, " 1 / 2 ")
    assert make_poll(ttl_s=3600).my_answer(code.lower(), voter) == "1 / 2"


def test_questions_round_trip_and_ids_follow_the_question() -> None:
    for q in (NUMBER, CHOICE):
        assert PollQuestion.from_dict(q.to_dict()) == q
        assert PollQuestion.from_dict(q.to_dict()).id == q.id
        assert q.public().id == q.id and q.public() != q
    assert NUMBER.id != PollQuestion(**{**NUMBER.to_dict(), "prompt": "other"}).id
    assert NUMBER.id == PollQuestion(**{**NUMBER.to_dict(), "explanation": "other"}).id
    assert CHOICE.id != PollQuestion(**{**CHOICE.to_dict(), "choices": ("x", "y", "z")}).id


@pytest.mark.parametrize(
    "change",
    [
        {"kind": "text"},
        {"choices": ("only one",)},
        {"choices": tuple("abcdefghijklm")},
        {"correct": 3},
        {"correct": True},
        {"prompt": "p" * 2001},
        {"choices": ("a", "b" * 301)},
        {"link_params": (("k", "v" * 501),)},
        {"rel_tol": 2.0},
        {"unknown": 1},
    ],
)
def test_a_malformed_question_is_refused(change: dict[str, object]) -> None:
    refused(lambda: PollQuestion.from_dict({**CHOICE.to_dict(), **change}), "question")


def test_only_a_complete_question_can_be_asked(poll: Poll) -> None:
    code, key = started(poll)
    refused(lambda: poll.ask(code, key, NUMBER.public()), "question")
    refused(lambda: poll.ask(code, key, "what?"), "question")  # type: ignore[arg-type]
    refused(lambda: poll.tally(code, key, 3), "round")
