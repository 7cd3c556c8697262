"""The server's event loop writes one wake-up byte per burst of thread-safe calls, and no
call is lost or left waiting (lnviz.app.wakeups)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator

import pytest

from lnviz.app import wakeups
from tests.apptest_helpers import ROOT

WAIT_S = 10.0  # generous: a lost wake-up would wait forever, not a few seconds


@pytest.fixture
def running_loop() -> Iterator[tuple[asyncio.AbstractEventLoop, list[int]]]:
    """A selector loop running in its own thread, its self-pipe writes counted, coalesced."""
    loop = asyncio.new_event_loop()
    writes = [0]
    original = loop._write_to_self  # type: ignore[attr-defined]

    def counted() -> None:
        writes[0] += 1
        original()

    loop._write_to_self = counted  # type: ignore[attr-defined]
    assert wakeups.coalesce_wakeups(loop)
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop, writes
    loop.call_soon_threadsafe(loop.stop)
    thread.join(WAIT_S)
    loop.close()


def test_bursts_from_many_threads_all_run_with_fewer_writes(running_loop) -> None:
    loop, writes = running_loop
    threads, per_thread = 4, 2000
    done = threading.Event()
    ran = [0]

    def callback() -> None:
        ran[0] += 1
        if ran[0] == threads * per_thread:
            done.set()

    def burst() -> None:
        for _ in range(per_thread):
            loop.call_soon_threadsafe(callback)

    senders = [threading.Thread(target=burst) for _ in range(threads)]
    for t in senders:
        t.start()
    for t in senders:
        t.join()
    assert done.wait(WAIT_S), f"{ran[0]} of {threads * per_thread} callbacks ran"
    assert writes[0] < threads * per_thread // 2  # one byte per call without coalescing


def test_single_calls_on_an_idle_loop_are_never_lost(running_loop) -> None:
    """The loop sleeps in select() between calls: each call must wake it."""
    loop, _ = running_loop
    for i in range(300):
        done = threading.Event()
        loop.call_soon_threadsafe(done.set)
        assert done.wait(WAIT_S), f"call {i} was not run"


def test_calls_made_while_the_loop_reads_its_pipe_are_run(running_loop) -> None:
    """A thread queues a call just as the loop drains an earlier wake-up: still run."""
    loop, _ = running_loop
    for i in range(300):
        second = threading.Event()

        def queue_another(done: threading.Event = second) -> None:  # runs on the loop
            loop.call_soon_threadsafe(done.set)

        loop.call_soon_threadsafe(queue_another)
        assert second.wait(WAIT_S), f"round {i} left a call waiting"


def test_signal_handlers_still_run() -> None:
    """On Unix the self-pipe also carries signal numbers; their handlers still run. In a
    process of its own: signal handlers need the main thread, and a test worker's main
    thread may already run a loop."""
    script = textwrap.dedent(
        """
        import asyncio, os, signal
        from lnviz.app import wakeups

        loop = asyncio.new_event_loop()
        assert wakeups.coalesce_wakeups(loop)
        got = asyncio.Event()

        async def main():
            loop.add_signal_handler(signal.SIGUSR1, got.set)
            os.kill(os.getpid(), signal.SIGUSR1)
            await asyncio.wait_for(got.wait(), 10)

        loop.run_until_complete(main())
        print("handled")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == "handled", done.stderr


def test_without_a_server_nothing_is_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert wakeups.install() is False  # no Streamlit server runs in the test process
    loop = asyncio.new_event_loop()
    monkeypatch.setenv("LNVIZ_KEEP_WAKEUPS", "1")
    assert wakeups.coalesce_wakeups(loop) is False
    loop.close()
