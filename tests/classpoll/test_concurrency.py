"""Many phones at once: no answer lost, no lecturer change lost, on both backends, from
threads of one process and from two processes on one SQLite file."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path

import pytest

from lnviz.classpoll.rooms import Poll
from tests.classpoll import _worker
from tests.classpoll.conftest import run_at_once
from tests.classpoll.test_rooms import NUMBER, started


@pytest.mark.parametrize("sharing", ["one store object", "a store object per thread"])
def test_sixty_phones_answer_at_once_and_none_is_lost(
    make_poll: Callable[..., Poll], sharing: str
) -> None:
    poll = make_poll(ttl_s=3600)
    code, key = started(poll, NUMBER)
    voters = [Poll.new_voter() for _ in range(60)]
    polls = [poll] * 60 if sharing == "one store object" else [make_poll() for _ in range(60)]
    errors = run_at_once(60, lambda i: polls[i].submit(code, voters[i], f"{i + 1}/60"))
    assert errors == []
    tally = poll.tally(code, key, 1)
    assert tally.total == 60
    assert sorted(g.value for g in tally.number_groups) == sorted(
        float(f"{(i + 1) / 60:.3g}") for i in range(60)
    )
    assert all(poll.my_answer(code, v) is not None for v in voters)


def test_concurrent_lecturer_changes_all_land(make_poll: Callable[..., Poll]) -> None:
    """Eight changes at once (two lecturer tabs, say): compare-and-set retries, none lost."""
    poll = make_poll(ttl_s=3600)
    code, key = started(poll)
    errors = run_at_once(8, lambda i: make_poll().follow(code, key, "epsilon", {"i": str(i)}))
    assert errors == []
    stored = poll.store.load_room(code)
    assert stored is not None and stored["version"] == 1 + 8


@pytest.mark.parametrize("backend", ["sqlite", "redis"], indirect=True)
def test_two_processes_answer_into_one_store(
    backend: str, tmp_path: Path, make_poll: Callable[..., Poll], request: pytest.FixtureRequest
) -> None:
    poll = make_poll(ttl_s=3600)
    code, key = started(poll, NUMBER)
    where = (
        str(tmp_path / "poll.sqlite3")
        if backend == "sqlite"
        else request.getfixturevalue("redis_url")
    )
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=_worker.answer_many, args=(backend, where, code, 30, barrier, out))
        for _ in range(2)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    assert sorted(out.get(timeout=5) for _ in procs) == [30, 30]
    tally = poll.tally(code, key, 1)
    assert tally.total == 60
    assert sum(g.count for g in tally.number_groups) == 60
