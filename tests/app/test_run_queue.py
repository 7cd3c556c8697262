"""Script runs queue for one turn at a time, oldest first; a run stopped for its visitor's
rerun keeps the turn for that rerun, once; a stuck run cannot stop the others for more than
the queue's wait; every page run goes through it (lnviz.app.run_queue)."""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace

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


CUT_SHORT = (None, True, "the rerun's data", False, None)  # what Streamlit returns then
FINISHED = (None, True, None, False, None)


def arrive_while(queue: RunQueue, busy: threading.Event, order: list[str], name: str) -> None:
    """Another visitor's run arrives once `busy` is set and waits in line."""
    busy.wait(10)
    queue.run(lambda: order.append(name))


def test_a_run_stopped_for_its_rerun_keeps_the_turn_for_it_once() -> None:
    """A visitor moved again while its run waited: Streamlit stops that run at once and
    starts the rerun in the same thread. The rerun goes before the runs that arrived in
    the meantime; a second stop in a row does not keep the turn again."""
    queue = RunQueue()
    order: list[str] = []
    busy = threading.Event()

    def visitor() -> None:
        def first() -> tuple:
            order.append("first")
            busy.set()  # another run arrives while this one has the turn
            time.sleep(0.1)
            return CUT_SHORT

        queue.run(first, cut_short=run_queue.stopped_for_rerun)
        queue.run(lambda: order.append("rerun") or CUT_SHORT, cut_short=run_queue.stopped_for_rerun)
        queue.run(lambda: order.append("third") or FINISHED, cut_short=run_queue.stopped_for_rerun)

    other = threading.Thread(target=arrive_while, args=(queue, busy, order, "other"))
    other.start()
    visitor()
    other.join(10)
    assert order == ["first", "rerun", "other", "third"]
    assert not queue.busy and queue.queue_jumps == 0


def test_without_a_stop_for_a_rerun_the_next_in_line_goes_first() -> None:
    queue = RunQueue()
    order: list[str] = []
    busy = threading.Event()

    def first() -> tuple:
        order.append("first")
        busy.set()
        time.sleep(0.1)
        return FINISHED

    other = threading.Thread(target=arrive_while, args=(queue, busy, order, "other"))
    other.start()
    queue.run(first, cut_short=run_queue.stopped_for_rerun)
    queue.run(lambda: order.append("next") or FINISHED, cut_short=run_queue.stopped_for_rerun)
    other.join(10)
    assert order == ["first", "other", "next"]


def test_a_kept_turn_nobody_takes_passes_on_after_keep_s() -> None:
    queue = RunQueue(wait_s=5.0, keep_s=0.2)
    busy = threading.Event()
    order: list[str] = []

    def first() -> tuple:
        busy.set()
        time.sleep(0.05)
        return CUT_SHORT  # and its thread never comes back for the rerun

    other = threading.Thread(target=arrive_while, args=(queue, busy, order, "other"))
    other.start()
    start = time.perf_counter()
    queue.run(first, cut_short=run_queue.stopped_for_rerun)
    other.join(10)
    assert order == ["other"] and 0.15 <= time.perf_counter() - start < 2.0
    assert queue.queue_jumps == 0 and not queue.busy


def test_a_visitors_new_run_takes_the_place_of_its_waiting_run() -> None:
    """Streamlit stops a session's waiting run and starts its new request in a new thread
    (runner.fastReruns). The new run waits where the old one waited, ahead of the runs
    that arrived after the old one; the old run goes through without a turn (it stops at
    its first element)."""
    queue = RunQueue()
    order: list[str] = []
    release = threading.Event()

    def start(name: str, visitor: str, work: Callable[[], None] | None = None) -> threading.Thread:
        t = threading.Thread(
            target=queue.run, args=(work or (lambda: order.append(name)),),
            kwargs={"visitor": visitor},
        )  # fmt: skip
        t.start()
        time.sleep(0.05)  # arrive one after the other
        return t

    holder = start("holder", "h", release.wait)
    threads = [start("a-old", "a"), start("b", "b"), start("a-new", "a")]
    assert order == ["a-old"]  # replaced: it went through at once, without the turn
    release.set()
    for t in [holder, *threads]:
        t.join(10)
    assert order == ["a-old", "a-new", "b"]
    assert queue.replaced == 1 and queue.queue_jumps == 0 and not queue.busy


def test_many_visitors_replacing_and_keeping_never_share_the_turn() -> None:
    """Eight visitors, each starting a run every 2 ms in a new thread (a new run replaces
    its waiting one, which then goes through without a turn) and some runs cut short (the
    turn is kept for a rerun that never comes, and lapses): never two runs with the turn
    inside at once, and every run ends."""
    queue = RunQueue(wait_s=30.0, keep_s=0.02)  # no run waits 30 s, even on a busy machine
    inside, most, done = 0, 0, 0
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work(cut: bool) -> tuple:
        nonlocal inside, most
        if not queue.holds_turn():  # a replaced run: Streamlit stops it at once
            return FINISHED
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.001)
        with lock:
            inside -= 1
        return CUT_SHORT if cut else FINISHED

    def one_run(v: int, n: int) -> None:
        nonlocal done
        try:
            queue.run(
                lambda: work(n % 4 == 0), visitor=f"v{v}", cut_short=run_queue.stopped_for_rerun
            )
            with lock:
                done += 1
        except BaseException as exc:  # reported below
            errors.append(exc)

    def visitor(v: int) -> None:  # a new run every 2 ms, whether the last one ended or not
        runs = [threading.Thread(target=one_run, args=(v, n)) for n in range(15)]
        for t in runs:
            t.start()
            time.sleep(0.002)
        for t in runs:
            t.join(30)

    threads = [threading.Thread(target=visitor, args=(v,)) for v in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and done == 8 * 15
    assert most == 1 and queue.replaced > 0 and queue.queue_jumps == 0 and not queue.busy


def test_stopped_for_rerun_reads_streamlits_result() -> None:
    """Streamlit 1.67's exec_func_with_error_handling returns the RerunData of the rerun
    that stopped a run as the third item of its result, None otherwise."""
    from streamlit.runtime.scriptrunner import exec_code
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

    ctx = SimpleNamespace(cursors={}, on_script_error=None)

    def rerun() -> None:
        raise RerunException(RerunData(query_string="x=1"))

    assert run_queue.stopped_for_rerun(exec_code.exec_func_with_error_handling(rerun, ctx))
    done = exec_code.exec_func_with_error_handling(lambda: 7, ctx)
    assert done[0] == 7 and not run_queue.stopped_for_rerun(done)


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
    with queue.held():  # someone else's run holds the turn
        start = time.perf_counter()
        at.run()
        waited = time.perf_counter() - start
    assert_clean(at)
    assert queue.queue_jumps > jumps and waited >= 0.25  # (an app run may rerun itself)
    jumps = queue.queue_jumps
    at.run()  # the turn is free again: no wait, no jump
    assert_clean(at)
    assert queue.queue_jumps == jumps


def test_the_queue_stays_off_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LNVIZ_CONCURRENT_RUNS", "1")
    assert run_queue.install() is False
