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


class _HookedLoop(asyncio.SelectorEventLoop):
    """A selector loop that calls `hook` (once) right after `_write_to_self` is replaced:
    the moment between the two assignments of a patch that puts that one first."""

    hook = None

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        hook = self.__dict__.get("hook")
        if name == "_write_to_self" and hook is not None:
            super().__setattr__("hook", None)
            hook()


@pytest.fixture
def hooked_loop() -> Iterator[_HookedLoop]:
    loop = _HookedLoop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(WAIT_S)
    if not thread.is_alive():  # a lost wake-up leaves it running: the test says so
        loop.close()


def _assert_wakes(loop: asyncio.AbstractEventLoop, times: int = 50) -> None:
    for i in range(times):
        done = threading.Event()
        loop.call_soon_threadsafe(done.set)
        assert done.wait(WAIT_S), f"call {i} after the patch was never run: a lost wake-up"


def test_a_wakeup_read_while_the_patch_goes_in_is_not_lost(hooked_loop: _HookedLoop) -> None:
    """The server patches its loop from a script thread while the loop runs. A wake-up
    written by the new writer and read before the new reader is in place would leave the
    writer believing a byte is pending forever (every later wake-up skipped: the hang of
    a page that never started its first run, seen twice in full suite runs)."""

    def wake_and_drain() -> None:  # between the writer's and the reader's replacement
        done = threading.Event()
        hooked_loop.call_soon_threadsafe(done.set)
        assert done.wait(WAIT_S)

    hooked_loop.hook = wake_and_drain
    assert wakeups.coalesce_wakeups(hooked_loop)
    _assert_wakes(hooked_loop)


def test_two_threads_patching_at_once_patch_once(hooked_loop: _HookedLoop) -> None:
    """Two sessions' first runs can call install() at the same time (no run queue yet):
    a second patch taken half-way through the first would wrap a mix of old and new."""
    second: list[bool] = []

    def patch_from_another_thread() -> None:
        other = threading.Thread(
            target=lambda: second.append(wakeups.coalesce_wakeups(hooked_loop))
        )
        other.start()
        other.join(1.0)  # it waits for the first patch to finish (or, unguarded, interleaves)

    hooked_loop.hook = patch_from_another_thread
    assert wakeups.coalesce_wakeups(hooked_loop)
    deadline = threading.Event()
    for _ in range(100):
        if second:
            break
        deadline.wait(0.05)
    assert second == [False], "the loop was patched twice"
    _assert_wakes(hooked_loop)
