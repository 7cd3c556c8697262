"""One script run at a time per server process: runs wait their turn in arrival order.

Streamlit runs every session's script in a thread of its own, and one Python process
executes one thread at a time (the GIL), switching between the runnable ones every few
milliseconds. With a class on one server, ten or more runs are often in progress at once:
each takes ten times its own time to finish, the long ones longest, and the event loop
that ships their elements to the browsers gets only its share of the interpreter too.
Queueing the runs instead — the next run starts when the one before it has finished —
spends the same CPU time, but a run now waits for the runs ahead of it and then goes
straight through. Measured with `benchmarks/load.py` (30 visitors, a move a second, one
server, the same hour): p95 530 ms with runs interleaved, 233–247 ms queued
(docs/benchmarks.md, "One run at a time").

A run that cannot start within WAIT_S seconds (one run stuck, say) starts anyway, as
without the queue, so one bad run cannot stop the whole server. LNVIZ_CONCURRENT_RUNS=1
in the environment leaves Streamlit as it comes (benchmarks use it to compare).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["RunQueue", "install"]

T = TypeVar("T")
WAIT_S = 10.0  # the longest a run waits for its turn before it starts anyway


class RunQueue:
    """A turn for one run at a time; waiting runs are let in oldest first.

    >>> q = RunQueue()
    >>> q.run(lambda: 41 + 1)
    42
    >>> q.busy
    False
    """

    def __init__(self, wait_s: float = WAIT_S) -> None:
        self._turn = threading.Semaphore(1)  # its waiters are woken in arrival order
        self.wait_s = wait_s
        self.queue_jumps = 0  # runs that started without their turn (waited wait_s)

    @property
    def busy(self) -> bool:
        """Whether a run holds the turn now."""
        if self._turn.acquire(blocking=False):
            self._turn.release()
            return False
        return True

    def run(self, work: Callable[[], T]) -> T:
        """`work()` once the runs ahead of it have finished (or after wait_s at most)."""
        has_turn = self._turn.acquire(timeout=self.wait_s)
        if not has_turn:
            self.queue_jumps += 1
        try:
            return work()
        finally:
            if has_turn:
                self._turn.release()


QUEUE = RunQueue()  # one per server process


def install() -> bool:
    """Queue every script run of this server process (once per process; the call made
    during the first run takes effect from the next run on). True if installed now."""
    if os.environ.get("LNVIZ_CONCURRENT_RUNS") == "1":
        return False
    from lnviz.app._streamlit_private import wrap_script_execution

    return wrap_script_execution(QUEUE.run)
