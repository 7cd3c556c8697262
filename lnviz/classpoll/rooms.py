"""The class poll's room service, where security lives: every input checked before any work."""

from __future__ import annotations

import copy
import hashlib
import hmac
import math
import os
import random
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from lnviz.classpoll.questions import (
    LABELS,
    NumberGroup,
    PollError,
    PollQuestion,
    Tally,
    group_numbers,
    text_pairs,
)
from lnviz.classpoll.store import Store
from lnviz.content.answers import ACCEPTED, MAX_CHARS, read_answer
from lnviz.errors import LnvizError

__all__ = [
    "LABELS",
    "NumberGroup",
    "Poll",
    "PollError",
    "PollQuestion",
    "RoomView",
    "Tally",
    "poll_hours",
]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
CODE_LEN = 10  # 50 bits
CODE_FORM = "10 letters and digits such as ABCDE-FGHJK (spaces and hyphens are fine)"
_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})
VOTER = re.compile(r"[0-9a-f]{32}")
DEFAULT_HOURS, MIN_HOURS, MAX_HOURS = 4.0, 0.1, 72.0
CAS_ATTEMPTS = 10


def poll_hours(env: Mapping[str, str] = os.environ) -> float:
    """A room's life in hours: LNVIZ_POLL_HOURS if it is a number from 0.1 to 72, else 4."""
    try:
        hours = float(env.get("LNVIZ_POLL_HOURS", "")[:20])
    except ValueError:
        return DEFAULT_HOURS
    return hours if MIN_HOURS <= hours <= MAX_HOURS else DEFAULT_HOURS


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class RoomView:
    """What a room shows, never the lecturer key; `public()` hides the answer until the reveal."""

    code: str
    page: str
    params: tuple[tuple[str, str], ...]
    question: PollQuestion | None
    round: int
    revealed: bool
    expires_at: float

    @property
    def display_code(self) -> str:
        return Poll.display_code(self.code)

    def public(self) -> RoomView:
        if self.question is None or self.revealed:
            return self
        return replace(self, question=self.question.public())


class Poll:
    """Rooms in a store, run by the lecturer key, answered by code; rate limits as attributes."""

    starts_per_hour = 10  # per browser session
    all_starts_per_hour = 1000  # on the whole store: a bound on storage however many sessions
    submits_per_minute = 30  # per voter
    room_submits_per_minute = 3000  # per room

    def __init__(
        self,
        store: Store,
        *,
        ttl_s: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ttl_s = float(ttl_s) if ttl_s is not None else poll_hours() * 3600
        if not (math.isfinite(self.ttl_s) and self.ttl_s > 0):
            raise ValueError(f"ttl_s must be a positive number of seconds, not {ttl_s!r}")

    # ----------------------------------------------------------------- codes and ids

    @staticmethod
    def normalize_code(text: str) -> str:
        """The 10-character code in a typed text, forgiving case, spaces, hyphens, O/0 and I/L/1."""
        if not isinstance(text, str) or len(text) > 3 * CODE_LEN:
            raise PollError("room", f"write {CODE_FORM}.")
        code = text.strip().upper().translate(_LOOKALIKES)
        if len(code) != CODE_LEN or not all(c in ALPHABET for c in code):
            raise PollError("room", f"write {CODE_FORM}.")
        return code

    @staticmethod
    def display_code(code: str) -> str:
        """The code as shown: ABCDE-FGHJK."""
        code = Poll.normalize_code(code)
        return f"{code[:5]}-{code[5:]}"

    @staticmethod
    def new_voter() -> str:
        """A phone's random voter id (keep it in the browser; it identifies nobody)."""
        return secrets.token_hex(16)

    @staticmethod
    def _voter(voter: str) -> str:
        if not isinstance(voter, str) or not VOTER.fullmatch(voter):
            raise PollError("voter", "the voter id must be 32 lower-case hexadecimal digits.")
        return voter

    # ----------------------------------------------------------------- rooms

    def start(self, session: str, page: str, params: Mapping[str, str]) -> tuple[str, str]:
        """Open a room on `page`: (code, lecturer key); rate-limited per session and overall."""
        if not isinstance(session, str) or not 0 < len(session) <= 200:
            raise PollError("session", "the session id must be a text of 1 to 200 characters.")
        room = self._place(page, params)
        most = self.starts_per_hour
        if self.store.hit(f"start:{_digest(session)[:32]}", 3600) > most:
            raise PollError("room", f"at most {most} rooms an hour from one browser session.")
        if self.store.hit("start:all", 3600) > self.all_starts_per_hour:
            raise PollError("room", "too many rooms were opened this hour: try again later.")
        key = secrets.token_urlsafe(24)
        now = self.clock()
        room |= {"version": 1, "key": _digest(key), "round": 1, "revealed": False}
        room |= {"created": now, "expires_at": now + self.ttl_s}
        for _attempt in range(5):  # 50 bits: a collision is all but impossible
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))
            if self.store.create_room(code, room, math.ceil(self.ttl_s)):
                return code, key
        raise PollError("room", "no free room code was found: try again.")

    @staticmethod
    def _place(page: str, params: Mapping[str, str]) -> dict[str, Any]:
        """A room's page and settings, checked, with no question."""
        if not isinstance(page, str) or not 0 < len(page) <= 100:
            raise PollError("page", "the page must be a text of 1 to 100 characters.")
        pairs = text_pairs(params, "the page's settings")
        return {"page": page, "params": [list(p) for p in pairs], "question": None}

    def _load(self, code: str) -> tuple[str, dict[str, Any] | None]:
        code = self.normalize_code(code)
        room = self.store.load_room(code)
        if room is None or room["expires_at"] <= self.clock():
            return code, None
        return code, room

    def _open(self, code: str) -> tuple[str, dict[str, Any]]:
        code, room = self._load(code)
        if room is None:
            raise PollError("room", f"no open room has this code; check it ({CODE_FORM}).")
        return code, room

    @staticmethod
    def _room_view(code: str, room: Mapping[str, Any]) -> RoomView:
        question = room["question"]
        return RoomView(
            code=code,
            page=room["page"],
            params=tuple((k, v) for k, v in room["params"]),
            question=None if question is None else PollQuestion.from_dict(question),
            round=room["round"],
            revealed=room["revealed"],
            expires_at=room["expires_at"],
        )

    def view(self, code: str) -> RoomView | None:
        """What anyone in the room sees; None for an unknown, expired or closed room."""
        code, room = self._load(code)
        return None if room is None else self._room_view(code, room).public()

    # ----------------------------------------------------------------- the lecturer

    def _lecturer(self, code: str, key: str) -> tuple[str, dict[str, Any]]:
        """The room, if `key` is its lecturer key (compared in constant time)."""
        wrong = "it does not match this room (only the key given when it was opened runs it)."
        if not isinstance(key, str) or not 0 < len(key) <= 64:
            raise PollError("key", wrong)
        code, room = self._open(code)
        if not hmac.compare_digest(_digest(key), room["key"]):
            raise PollError("key", wrong)
        return code, room

    def _ttl_left(self, room: Mapping[str, Any]) -> int:
        return max(1, math.ceil(room["expires_at"] - self.clock()))

    def _update(self, code: str, key: str, change: Callable[[dict[str, Any]], None]) -> RoomView:
        """Apply `change` to the room by compare-and-set, again if another write won."""
        for attempt in range(CAS_ATTEMPTS):
            code, room = self._lecturer(code, key)
            new = copy.deepcopy(room)
            change(new)
            new["version"] = room["version"] + 1
            if self.store.save_room(code, new, room["version"], self._ttl_left(room)):
                return self._room_view(code, new)
            time.sleep(random.uniform(0, 0.005 * (attempt + 1)))  # let the other write land
        raise PollError("room", "the room was changed by several requests at once: try again.")

    @staticmethod
    def _require_question(room: Mapping[str, Any]) -> PollQuestion:
        if room["question"] is None:
            raise PollError("question", "no question is asked in this room yet.")
        return PollQuestion.from_dict(room["question"])

    def follow(self, code: str, key: str, page: str, params: Mapping[str, str]) -> RoomView:
        """The room moves to the lecturer's page and settings; its question is cleared."""
        place = self._place(page, params)
        return self._update(code, key, lambda r: r.update(place, round=1, revealed=False))

    def ask(self, code: str, key: str, question: PollQuestion) -> RoomView:
        """Make `question` the current one: round 1, hidden (asked again, it keeps its answers)."""
        if not isinstance(question, PollQuestion) or not question.complete:
            raise PollError("question", "ask a question with its answer (from the page).")
        data = question.to_dict()
        return self._update(code, key, lambda r: r.update(question=data, round=1, revealed=False))

    def vote_again(self, code: str, key: str) -> RoomView:
        """Round 2 of the current question (only from round 1, before the reveal)."""

        def again(room: dict[str, Any]) -> None:
            self._require_question(room)
            if room["round"] != 1 or room["revealed"]:
                raise PollError("round", "a second vote follows round 1, before the reveal.")
            room["round"] = 2

        return self._update(code, key, again)

    def reveal(self, code: str, key: str) -> RoomView:
        """Show everyone the answers' tallies and the question's answer."""

        def show(room: dict[str, Any]) -> None:
            self._require_question(room)
            room["revealed"] = True

        return self._update(code, key, show)

    def reset(self, code: str, key: str) -> RoomView:
        """The current question again from round 1, hidden, with no answers."""

        def restart(room: dict[str, Any]) -> None:
            self._require_question(room)
            room.update(round=1, revealed=False)

        view = self._update(code, key, restart)
        assert view.question is not None
        for rnd in (1, 2):
            self.store.delete_answers(view.code, f"{view.question.id}:{rnd}")
        return view

    def close(self, code: str, key: str) -> None:
        """Delete the room and every answer given in it."""
        code, _room = self._lecturer(code, key)
        self.store.delete_room(code)

    def tally(self, code: str, key: str, round: int) -> Tally:
        """The lecturer's live counts of one round (1 or 2) of the current question."""
        code, room = self._lecturer(code, key)
        if round not in (1, 2) or isinstance(round, bool):
            raise PollError("round", "the round is 1 or 2.")
        return self._tally(code, self._require_question(room), round)

    def _tally(self, code: str, question: PollQuestion, rnd: int) -> Tally:
        found = self.store.answers(code, f"{question.id}:{rnd}").values()
        if question.kind == "choice":
            counts = [0] * len(question.choices)
            for answer in found:
                index = answer.get("value")
                if isinstance(index, int) and 0 <= index < len(counts):
                    counts[index] += 1
            return Tally(rnd, sum(counts), choice_counts=tuple(counts))
        pairs = [
            (a["text"], float(a["value"]))
            for a in found
            if isinstance(a.get("text"), str) and isinstance(a.get("value"), int | float)
        ]
        return Tally(rnd, len(pairs), number_groups=group_numbers(pairs))

    # ----------------------------------------------------------------- everyone

    def revealed_tallies(self, code: str) -> tuple[Tally, ...]:
        """Every round's tally once the lecturer has revealed them; () before."""
        code, room = self._load(code)
        if room is None or not room["revealed"] or room["question"] is None:
            return ()
        question = PollQuestion.from_dict(room["question"])
        return tuple(self._tally(code, question, rnd) for rnd in range(1, room["round"] + 1))

    def submit(self, code: str, voter: str, response: str | int) -> str:
        """Store a voter's answer for this round (replacing theirs), rate-limited; a receipt."""
        voter = self._voter(voter)
        code = self.normalize_code(code)
        if self.store.hit(f"voter:{voter}", 60) > self.submits_per_minute:
            raise PollError("answer", f"at most {self.submits_per_minute} answers a minute: wait.")
        if self.store.hit(f"room:{code}", 60) > self.room_submits_per_minute:
            raise PollError("answer", "the room receives too many answers: try in a minute.")
        code, room = self._open(code)
        question = self._require_question(room)
        if room["revealed"]:
            raise PollError("question", "its answers are shown; the next question takes answers.")
        answer = self._read(question, response)
        slot = f"{question.id}:{room['round']}"
        self.store.put_answer(code, slot, voter, answer, self._ttl_left(room))
        shown = answer["text"] if len(answer["text"]) <= 60 else answer["text"][:59] + "…"
        return f"Answer received: {shown}"

    @staticmethod
    def _read(question: PollQuestion, response: str | int) -> dict[str, Any]:
        """{"text", "value"} of a response: a choice's index, or a number's text and value."""
        if question.kind == "choice":
            n = len(question.choices)
            index = response if isinstance(response, int) else -1
            if isinstance(response, str) and len(response) <= 2 and response.isdecimal():
                index = int(response)
            if isinstance(response, bool) or not 0 <= index < n:
                raise PollError("answer", f"choose one of the {n} options (0 to {n - 1}).")
            return {"text": question.choices[index], "value": index}
        if isinstance(response, int) and not isinstance(response, bool):
            response = str(response)
        accepted = f"write {ACCEPTED} (at most {MAX_CHARS} characters)."
        if not isinstance(response, str) or len(response) > MAX_CHARS:
            raise PollError("answer", accepted)
        try:
            value = read_answer(response, "answer")
        except LnvizError:
            raise PollError("answer", accepted) from None
        return {"text": " ".join(response.split()), "value": value}

    def my_answer(self, code: str, voter: str) -> str | None:
        """The voter's answer in the current round (so a reloaded phone shows it)."""
        voter = self._voter(voter)
        code, room = self._load(code)
        if room is None or room["question"] is None:
            return None
        slot = f"{PollQuestion.from_dict(room['question']).id}:{room['round']}"
        found = self.store.answer_of(code, slot, voter)
        return None if found is None else str(found.get("text"))
