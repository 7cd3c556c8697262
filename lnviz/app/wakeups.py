"""One wake-up of the server's event loop for a burst of messages, not one per message.

Every element a script run draws reaches the browser through the server's asyncio event
loop: the script thread hands it over with `loop.call_soon_threadsafe`, and the loop hands
it on with a second `call_soon_threadsafe` (streamlit.runtime.Runtime._enqueued_some_message).
Each such call writes a byte to the loop's self-pipe, one system call, and each byte makes
the loop's selector return and read it, another. A page run draws 30-200 elements, so a
rerun costs a few hundred of these system calls; under a class's load (benchmarks/load.py)
they took about a fifth of the server's time on the 2-core test machine.

`coalesce_wakeups(loop)` writes the byte only when none is waiting to be read: a callback
queued while a wake-up is pending runs in the same pass of the loop, or, if it was queued
after the loop counted this pass's callbacks, in the next pass, which does not wait because
the loop's ready queue is not empty (asyncio's `_run_once` selects with timeout 0 then).
Nothing is lost or delayed; only redundant bytes are not written. A byte is "waiting" from
the write until the loop reads the pipe; the flag is cleared as the loop reads, before it
runs the callbacks of that pass, so a callback queued later always finds the flag clear or
runs in that pass.

Applies to asyncio's selector event loops (the stdlib loop Streamlit's server runs here);
any other loop is left as it is. LNVIZ_KEEP_WAKEUPS=1 in the environment leaves every loop
as it is (benchmarks use it to measure the difference).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["coalesce_wakeups", "install"]

_MARK = "_lnviz_coalesced_wakeups"
_PATCHING = threading.Lock()


def coalesce_wakeups(loop: asyncio.AbstractEventLoop) -> bool:
    """Make `loop` skip self-pipe writes while one is unread; True if it was changed now.

    >>> loop = asyncio.new_event_loop()
    >>> coalesce_wakeups(loop), coalesce_wakeups(loop)  # once per loop
    (True, False)
    >>> loop.close()
    """
    if os.environ.get("LNVIZ_KEEP_WAKEUPS") == "1":
        return False
    if not isinstance(loop, asyncio.selector_events.BaseSelectorEventLoop):
        return False
    with _PATCHING:  # two sessions' first runs may both get here at once
        if getattr(loop, _MARK, False):
            return False
        _patch(loop)
        setattr(loop, _MARK, True)
        return True


def _patch(loop: asyncio.AbstractEventLoop) -> None:
    """Replace the loop's self-pipe reader, then its writer (the loop runs meanwhile).

    In this order every byte the new writer writes is read by the new reader, which clears
    the flag. The other order left a window in which the loop could read such a byte with
    the old reader: the flag stayed set, and every later wake-up was skipped.
    """
    write: Callable[[], None] = loop._write_to_self  # type: ignore[attr-defined]
    process: Callable[[Any], None] = loop._process_self_data  # type: ignore[attr-defined]
    pending = False  # a byte is in the self-pipe and the loop has not read it yet

    def write_once() -> None:
        nonlocal pending
        if not pending:
            pending = True
            write()

    def read(data: Any) -> None:  # called by the loop each time it reads the self-pipe
        nonlocal pending
        pending = False
        process(data)  # signal numbers on Unix, as before

    loop._process_self_data = read  # type: ignore[attr-defined]
    loop._write_to_self = write_once  # type: ignore[attr-defined]


def install() -> bool:
    """Coalesce the wake-ups of this server's event loop (once per server process); True
    if installed now. LNVIZ_KEEP_WAKEUPS=1 in the environment leaves the loop as it is.

    It was opt-in for two days: two full runs of the test suite with it on (of four) failed
    in a browser test whose page never started its first run. The cause, found on
    2026-12-04 and reproduced by tests/app/test_wakeups.py: the patch goes in while the
    loop runs, from the first script runs of the process, and two of those can run at once
    (the run queue is not in place yet). A patch interleaved with another, or a wake-up
    read by the old reader after the new writer was in, left the writer's flag set for
    good, so every later wake-up was skipped. The patch now takes a lock and replaces the
    reader before the writer. Measured gain: docs/benchmarks.md.
    """
    from lnviz.app._streamlit_private import server_event_loop

    loop = server_event_loop()
    return loop is not None and coalesce_wakeups(loop)
