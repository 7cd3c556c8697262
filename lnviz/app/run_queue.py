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

A visitor who moves again while a run of theirs waits in line does not go to the back of
it. Streamlit answers a new full-page request by stopping the session's script thread and
starting the rerun in a new thread (runner.fastReruns): that rerun takes the waiting run's
place in line, and the stopped run, which ends at its first element, goes through without
a turn. A fragment's rerun, or st.rerun(), instead stops the run at its next element and
starts the rerun at once in the same thread: that run keeps the turn for its rerun, once
(a kept turn that is not taken up within KEEP_S passes on). Without these, a visitor who
pressed an arrow key twice while the first run waited went to the back of the line again,
and waited twice.

A run that cannot start within WAIT_S seconds (one run stuck, say) starts anyway, as
without the queue, so one bad run cannot stop the whole server. LNVIZ_CONCURRENT_RUNS=1
in the environment leaves Streamlit as it comes (benchmarks use it to compare).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["RunQueue", "install"]

T = TypeVar("T")
WAIT_S = 10.0  # the longest a run waits for its turn before it starts anyway
KEEP_S = 1.0  # how long a turn kept for a rerun waits for it (it follows within ms)


class RunQueue:
    """A turn for one run at a time; waiting runs are let in oldest first.

    >>> q = RunQueue()
    >>> q.run(lambda: 41 + 1)
    42
    >>> q.busy
    False
    """

    def __init__(self, wait_s: float = WAIT_S, keep_s: float = KEEP_S) -> None:
        self.wait_s = wait_s
        self.keep_s = keep_s
        self.queue_jumps = 0  # runs that started without their turn (waited wait_s)
        self.replaced = 0  # waiting runs whose place a newer run of the same visitor took
        self._cond = threading.Condition()
        self._holder: int | None = None  # the thread whose run has the turn
        self._line: deque[_Ticket] = deque()  # the waiting runs, oldest first
        self._kept: tuple[int, float] | None = None  # (thread, until) the turn is kept for

    @property
    def busy(self) -> bool:
        """Whether a run holds the turn now (or it is kept for a run's rerun)."""
        with self._cond:
            return self._holder is not None or self._kept_now(time.monotonic())

    def holds_turn(self) -> bool:
        """Whether the calling thread's run holds the turn now."""
        with self._cond:
            return self._holder == threading.get_ident()

    def run(
        self,
        work: Callable[[], T],
        *,
        visitor: str | None = None,
        cut_short: Callable[[T], bool] | None = None,
    ) -> T:
        """`work()` once the runs ahead of it have finished (or after wait_s at most).

        A run of `visitor` (a session id) takes the place of that visitor's run waiting
        in line, if any; the replaced run goes through without a turn. When
        `cut_short(result)` says the run stopped for a rerun that follows at once in the
        same thread, the turn is kept for that rerun (once: a kept turn's run gives it
        back whatever its end).
        """
        me = threading.get_ident()
        kept = self._take_kept(me)
        has_turn = kept or self._acquire(me, visitor)
        keep = False
        try:
            result = work()
            keep = has_turn and not kept and cut_short is not None and cut_short(result)
            return result
        finally:
            if has_turn:
                self._release(me, keep)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Hold the turn for the block, as a run does (tests: a busy server)."""
        me = threading.get_ident()
        if not self._acquire(me, None):
            raise TimeoutError("the turn stayed busy for wait_s")
        try:
            yield
        finally:
            self._release(me, keep=False)

    # ---------------------------------------------------------------- the turn

    def _kept_now(self, now: float) -> bool:
        """Whether the turn is kept for a rerun now (a lapsed keep is dropped)."""
        if self._kept is not None and now >= self._kept[1]:
            self._kept = None
            self._cond.notify_all()
        return self._kept is not None

    def _take_kept(self, me: int) -> bool:
        """Take the turn kept for this thread's rerun, if it is still kept for it."""
        with self._cond:
            if self._kept_now(time.monotonic()) and self._kept and self._kept[0] == me:
                self._kept, self._holder = None, me
                return True
            return False

    def _acquire(self, me: int, visitor: str | None) -> bool:
        """Wait in line for the turn (in the place of `visitor`'s waiting run, if any);
        False (and no turn) after wait_s, or when a newer run of the visitor took this
        run's place."""
        ticket = _Ticket(visitor)
        with self._cond:
            older = next((t for t in self._line if visitor and t.visitor == visitor), None)
            if older is None:
                self._line.append(ticket)
            else:
                self._line[self._line.index(older)] = ticket
                older.replaced = True
                self.replaced += 1
                self._cond.notify_all()
            deadline = time.monotonic() + self.wait_s
            while True:
                if ticket.replaced:  # a stopped run: it ends at its first element
                    return False
                now = time.monotonic()
                free = self._holder is None and not self._kept_now(now)
                if free and self._line[0] is ticket:
                    self._line.popleft()
                    self._holder = me
                    self._cond.notify_all()  # the next in line is now at the head
                    return True
                if now >= deadline:
                    self._line.remove(ticket)
                    self.queue_jumps += 1
                    self._cond.notify_all()
                    return False
                wake = deadline if self._kept is None else min(deadline, self._kept[1])
                self._cond.wait(max(wake - now, 0.001))

    def _release(self, me: int, keep: bool) -> None:
        with self._cond:
            self._holder = None
            self._kept = (me, time.monotonic() + self.keep_s) if keep else None
            self._cond.notify_all()


class _Ticket:
    """A place in line."""

    __slots__ = ("replaced", "visitor")

    def __init__(self, visitor: str | None) -> None:
        self.visitor = visitor
        self.replaced = False


QUEUE = RunQueue()  # one per server process


def stopped_for_rerun(result: Any) -> bool:
    """Whether a run (the result of Streamlit 1.67's exec_func_with_error_handling: a
    tuple whose third item is the RerunData of the rerun that stopped it, else None)
    stopped for a rerun of the same session, which its thread starts next."""
    return isinstance(result, tuple) and len(result) > 2 and result[2] is not None


def install() -> bool:
    """Queue every script run of this server process (once per process; the call made
    during the first run takes effect from the next run on). True if installed now."""
    if os.environ.get("LNVIZ_CONCURRENT_RUNS") == "1":
        return False
    from lnviz.app._streamlit_private import wrap_script_execution

    return wrap_script_execution(
        lambda work, ctx: QUEUE.run(
            work, visitor=getattr(ctx, "session_id", None), cut_short=stopped_for_rerun
        )
    )
