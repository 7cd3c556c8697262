"""Script runs queue for one turn at a time, oldest first; a stuck run cannot stop the
others for more than the queue's wait; every page run goes through it (lnviz.app.run_queue)."""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable

import pytest
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from lnviz.app import run_queue
from lnviz.app.run_queue import RunQueue
from tests.apptest_helpers import ROOT, assert_clean

RUNS = 6
WORK_S = 0.05  # each run's "work": long enough that unqueued runs overlap


def most_at_once(run: Callable[[Callable[[], None]], None]) -> int:
    """Start RUNS threads that each do WORK_S of work through `run`; the largest number
    that were inside their work at the same moment."""
    inside, most = 0, 0
    lock = threading.Lock()
    gate = threading.Barrier(RUNS)

    def work() -> None:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(WORK_S)
        with lock:
            inside -= 1

    def thread() -> None:
        gate.wait()
        run(work)

    threads = [threading.Thread(target=thread) for _ in range(RUNS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return most


def test_without_the_queue_runs_overlap_and_with_it_they_do_not() -> None:
    assert most_at_once(lambda work: work()) > 1  # the measure sees an overlap
    assert most_at_once(RunQueue().run) == 1


def test_waiting_runs_start_in_the_order_they_arrived() -> None:
    queue = RunQueue()
    order: list[int] = []
    release = threading.Event()
    holder = threading.Thread(target=queue.run, args=(release.wait,))
    holder.start()
    time.sleep(0.05)
    assert queue.busy
    waiting = []
    for i in range(5):
        t = threading.Thread(target=queue.run, args=(lambda i=i: order.append(i),))
        t.start()
        waiting.append(t)
        time.sleep(0.02)  # arrive one after the other
    release.set()
    for t in [holder, *waiting]:
        t.join(10)
    assert order == [0, 1, 2, 3, 4]
    assert not queue.busy and queue.queue_jumps == 0


def test_a_run_that_never_ends_delays_the_next_by_the_wait_only() -> None:
    queue = RunQueue(wait_s=0.2)
    stuck = threading.Event()
    holder = threading.Thread(target=queue.run, args=(stuck.wait,), daemon=True)
    holder.start()
    time.sleep(0.05)
    start = time.perf_counter()
    assert queue.run(lambda: "ran") == "ran"
    assert 0.15 <= time.perf_counter() - start < 2.0
    assert queue.queue_jumps == 1 and queue.busy  # the stuck run still holds its turn
    stuck.set()
    holder.join(10)
    assert not queue.busy


def test_a_run_that_fails_gives_its_turn_back() -> None:
    queue = RunQueue(wait_s=0.2)

    def fail() -> None:
        raise RuntimeError("the page failed")

    with pytest.raises(RuntimeError):
        queue.run(fail)
    assert not queue.busy
    assert queue.run(lambda: 1) == 1 and queue.queue_jumps == 0


def test_the_hook_sits_where_streamlit_runs_every_script() -> None:
    """Streamlit 1.67 runs each page and fragment run with this one call; if an upgrade
    moves it, the queue would silently stop applying."""
    source = inspect.getsource(script_runner.ScriptRunner._run_script)
    assert "= exec_func_with_error_handling(code_to_exec, ctx)" in source


def test_every_page_run_of_the_app_goes_through_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the turn held by someone else, a run of the app waits the queue's wait: it
    went through the queue."""
    monkeypatch.delenv("LNVIZ_CONCURRENT_RUNS", raising=False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/why-normalize.py")
    at.run()  # the first run installs the hook (from the next run on)
    assert getattr(script_runner.exec_func_with_error_handling, "__wrapped__", None)
    queue = run_queue.QUEUE
    monkeypatch.setattr(queue, "wait_s", 0.3)
    jumps = queue.queue_jumps
    assert queue._turn.acquire(timeout=10)  # someone else's run holds the turn
    try:
        start = time.perf_counter()
        at.run()
        waited = time.perf_counter() - start
    finally:
        queue._turn.release()
    assert_clean(at)
    assert queue.queue_jumps > jumps and waited >= 0.25  # (an app run may rerun itself)
    jumps = queue.queue_jumps
    at.run()  # the turn is free again: no wait, no jump
    assert_clean(at)
    assert queue.queue_jumps == jumps


def test_the_queue_stays_off_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LNVIZ_CONCURRENT_RUNS", "1")
    assert run_queue.install() is False
