"""What a stranger, a student or a hostile client cannot do, on both backends."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from lnviz.classpoll import rooms
from lnviz.classpoll.rooms import Poll, PollQuestion
from tests.classpoll.conftest import FakeClock, away_from_window_edge, refused
from tests.classpoll.test_rooms import CHOICE, NUMBER, started


def test_codes_of_ten_thousand_starts_are_distinct_and_well_formed(poll: Poll) -> None:
    poll.all_starts_per_hour = 10**6  # type: ignore[misc]
    codes, keys = set(), set()
    start = time.monotonic()
    for i in range(10_000):
        code, key = poll.start(f"session-{i // 10}", "epsilon", {})
        codes.add(code)
        keys.add(key)
    assert len(codes) == len(keys) == 10_000
    assert all(len(c) == 10 and set(c) <= set(rooms.ALPHABET) for c in codes)
    assert set("".join(codes)) == set(rooms.ALPHABET), "every symbol of the alphabet is used"
    assert all(Poll.normalize_code(c) == c for c in codes)
    assert time.monotonic() - start < 60


def test_only_the_keys_hash_is_stored(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    stored = poll.store.load_room(code)
    assert stored is not None
    text = json.dumps(stored)
    assert key not in text and "session-1" not in text
    assert stored["key"] == hashlib.sha256(key.encode()).hexdigest()
    assert set(stored) == {
        "version", "key", "page", "params", "question", "round", "revealed", "created",
        "expires_at",
    }  # fmt: skip
    view = poll.view(code)
    assert stored["key"] not in repr(view) and key not in repr(view)


def lecturer_calls(poll: Poll, code: str, key: str) -> list[Callable[[], object]]:
    return [
        lambda: poll.follow(code, key, "other", {}),
        lambda: poll.ask(code, key, CHOICE),
        lambda: poll.vote_again(code, key),
        lambda: poll.reveal(code, key),
        lambda: poll.reset(code, key),
        lambda: poll.tally(code, key, 1),
        lambda: poll.close(code, key),
    ]


@pytest.mark.parametrize("which", ["other room's key", "altered", "empty", "huge", "not text"])
def test_a_wrong_key_is_refused_for_every_lecturer_call(poll: Poll, which: str) -> None:
    code, key = started(poll, NUMBER)
    _other_code, other_key = poll.start("session-2", "epsilon", {})
    wrong: Any = {
        "other room's key": other_key,
        "altered": key[:-1] + ("A" if key[-1] != "A" else "B"),
        "empty": "",
        "huge": key * 1000,
        "not text": None,
    }[which]
    poll.submit(code, Poll.new_voter(), "0.5")
    before = poll.view(code)
    for call in lecturer_calls(poll, code, wrong):
        err = refused(call, "key")
        assert "does not match" in err.message
    assert poll.view(code) == before, "nothing changed"
    assert poll.tally(code, key, 1).total == 1, "nothing deleted"


def test_a_wrong_key_and_an_unknown_room_say_no_more_than_view(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    unknown = "ZZZZZZZZZZ" if code != "ZZZZZZZZZZ" else "YYYYYYYYYY"
    assert poll.view(unknown) is None
    refused(lambda: poll.reveal(unknown, key), "room")  # view() says as much
    refused(lambda: poll.reveal(code, "x" * 32), "key")


def test_another_rooms_code_shows_nothing_of_this_room(poll: Poll) -> None:
    code_a, key_a = started(poll, NUMBER)
    code_b, _key_b = poll.start("session-2", "invariance", {})
    voter = Poll.new_voter()
    poll.submit(code_a, voter, "0.5")
    view_b = poll.view(code_b)
    assert view_b is not None and view_b.question is None and view_b.page == "invariance"
    assert poll.my_answer(code_b, voter) is None
    assert poll.revealed_tallies(code_b) == ()
    refused(lambda: poll.tally(code_b, key_a, 1), "key")


def test_students_cannot_read_tallies_before_the_reveal(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    for voter in (Poll.new_voter() for _ in range(3)):
        poll.submit(code, voter, "1/3")
    assert poll.revealed_tallies(code) == ()
    view = poll.view(code)
    assert view is not None and view.question is not None and view.question.answer is None
    poll.vote_again(code, key)
    assert poll.revealed_tallies(code) == ()
    poll.reveal(code, key)
    assert [t.total for t in poll.revealed_tallies(code)] == [3, 0]


@pytest.mark.parametrize(
    "voter",
    ["A" * 32, "a" * 31, "a" * 33, "g" * 32, "a" * 31 + "\n", " " + "a" * 31, "", None, 12,
     "a" * 10_000],
)  # fmt: skip
def test_the_voter_id_format_is_enforced(poll: Poll, voter: Any) -> None:
    code, _key = started(poll, NUMBER)
    refused(lambda: poll.submit(code, voter, "0.5"), "voter")
    refused(lambda: poll.my_answer(code, voter), "voter")
    assert len(Poll.new_voter()) == 32 and rooms.VOTER.fullmatch(Poll.new_voter())


HOSTILE = [
    "__import__('os')",
    "__import__('os').system('id')",
    "x" * 10_000,
    "1" * 61,
    "1/0",
    "nan",
    "inf",
    "1e999",
    "-inf",
    "",
    "   ",
    "((((((((((((((1))))))))))))))",
    "2^1000",
    "√-1",
    "1;2",
    "0x10",
    "1_000",
    "ⅷ",
    "\x00",
    ["1"],
    3.5,
    None,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t)[:20])
def test_hostile_answers_are_refused_and_nothing_is_stored(poll: Poll, text: Any) -> None:
    code, key = started(poll, NUMBER)
    err = refused(lambda: poll.submit(code, Poll.new_voter(), text), "answer")
    assert "1/3" in err.message and "60 characters" in err.message, "what is accepted"
    assert poll.tally(code, key, 1).total == 0


def test_an_answer_of_sixty_characters_is_read(poll: Poll) -> None:
    code, key = started(poll, NUMBER)
    text = "1/3" + " " * 56 + "0"  # 60 characters: 1/30
    assert len(text) == 60
    poll.submit(code, Poll.new_voter(), "(" * 5 + "1/2" + ")" * 5)
    refused(lambda: poll.submit(code, Poll.new_voter(), text + "0"), "answer")
    assert poll.tally(code, key, 1).total == 1


def test_a_voter_may_submit_thirty_times_a_minute(
    backend: str, poll: Poll, clock: FakeClock
) -> None:
    code, _key = started(poll, NUMBER)
    voter, other = Poll.new_voter(), Poll.new_voter()
    away_from_window_edge(60)
    for i in range(30):
        poll.submit(code, voter, str(i))
    err = refused(lambda: poll.submit(code, voter, "31"), "answer")
    assert "30 answers a minute" in err.message
    assert poll.my_answer(code, voter) == "29", "the refused one did not replace it"
    poll.submit(code, other, "1")  # another voter is not limited by this one
    if backend == "sqlite":  # the next window, on the fake clock
        clock.advance(60)
        code2, _key2 = started(poll, NUMBER)
        poll.submit(code2, voter, "0.5")


def test_a_room_takes_a_bounded_number_of_answers_a_minute(poll: Poll) -> None:
    poll.room_submits_per_minute = 5  # type: ignore[misc]
    code, key = started(poll, NUMBER)
    away_from_window_edge(60)
    for _ in range(5):
        poll.submit(code, Poll.new_voter(), "0.5")
    err = refused(lambda: poll.submit(code, Poll.new_voter(), "0.5"), "answer")
    assert "too many answers" in err.message
    assert poll.tally(code, key, 1).total == 5


def test_a_session_starts_ten_rooms_an_hour(backend: str, poll: Poll, clock: FakeClock) -> None:
    away_from_window_edge(3600)
    for _ in range(10):
        poll.start("busy-session", "epsilon", {})
    err = refused(lambda: poll.start("busy-session", "epsilon", {}), "room")
    assert "10 rooms an hour" in err.message
    poll.start("another-session", "epsilon", {})
    if backend == "sqlite":
        clock.advance(3600)
        poll.start("busy-session", "epsilon", {})


def test_the_store_bounds_rooms_an_hour_over_all_sessions(poll: Poll) -> None:
    poll.all_starts_per_hour = 3  # type: ignore[misc]
    away_from_window_edge(3600)
    for i in range(3):
        poll.start(f"s{i}", "epsilon", {})
    refused(lambda: poll.start("s9", "epsilon", {}), "room")


@pytest.mark.parametrize("session", ["", "s" * 201, None, 7])
def test_a_session_id_is_a_bounded_text(poll: Poll, session: Any) -> None:
    refused(lambda: poll.start(session, "epsilon", {}), "session")


def test_answers_hold_no_personal_data(poll: Poll) -> None:
    code, _key = started(poll, NUMBER)
    voter = Poll.new_voter()
    poll.submit(code, voter, "1/2")
    assert poll.store.answers(code, f"{NUMBER.id}:1") == {voter: {"text": "1/2", "value": 0.5}}


def test_a_question_must_match_its_kind_before_it_is_asked() -> None:
    refused(lambda: PollQuestion("p", "k", "?", "number", choices=("a", "b")), "question")
    refused(lambda: PollQuestion("p", "k", "?", "number", answer=float("nan")), "question")
    refused(lambda: PollQuestion("p", "k" * 101, "?", "number", answer=1.0), "question")
