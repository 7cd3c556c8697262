"""A process that answers in a room, for tests/classpoll/test_concurrency.py (spawned:
imports the poll only, not the test suite's Streamlit setup)."""

from __future__ import annotations

from typing import Any

from lnviz.classpoll.rooms import Poll
from lnviz.classpoll.store import RedisStore, SQLiteStore


def answer_many(backend: str, where: str, code: str, n: int, barrier: Any, out: Any) -> None:
    """Submit `n` answers from `n` new voters once every process is ready; report receipts."""
    store = SQLiteStore(where) if backend == "sqlite" else RedisStore(where)
    poll = Poll(store, ttl_s=3600)
    barrier.wait(30)
    receipts = [poll.submit(code, Poll.new_voter(), f"{i}/{n}") for i in range(1, n + 1)]
    out.put(len(receipts))
