"""Class poll load: a lecturer asks, 60 students answer on their phones within 10 s (issue 36).

    python benchmarks/poll_load.py                   # one server, the SQLite store
    python benchmarks/poll_load.py --replicas 2      # 2 replicas behind nginx, one Redis
    python benchmarks/poll_load.py --students 8 --window 4 --arrive 2   # a small class

Every visitor speaks Streamlit's protocol (benchmarks/stclient.py) on its own WebSocket:

- the lecturer opens /epsilon?present=true, clicks "Start a class poll", reads the room
  code from the page, waits for the class, clicks "Ask the class" under the first question
  and then reruns the projector's fragment every second (its run_every, as the browser's
  timer does), reading "… · N answered" each time;
- each student opens /epsilon?room=CODE (arrivals spread over `--arrive` s), reruns the
  class box's watcher fragment every 2 s like a phone, and once the question is in the box
  sends an answer ("8/9", "0.889" or "1/2") at a random moment of the `--window` seconds
  after the lecturer asked (at once if the question reached the phone later), by filling
  the box's "Your answer" and clicking "Send"; "Answer received" is the acknowledgement.

Without --replicas the app runs on one server with the SQLite store in a temporary
directory (LNVIZ_POLL_DB); with --replicas N, N replicas behind Debian's nginx
(deploy/replicas.py, which passes this process's environment on) share a redis-server
started here on a free port (LNVIZ_REDIS_URL). nginx gives each new WebSocket the next
replica, so the lecturer and the students are spread over the replicas.

It prints: answers sent, acknowledged, counted in the store (the room service's own
tally, read directly from the store) and on the projector; lost = sent − counted (budget
0); for the k-th acknowledged answer, the delay from its acknowledgement to the first
projector reading that shows at least k answers, p50 / p95 / max (budget p95 ≤ 2 s); the
submit round trip; how long the question took to reach the phones; the watcher's and the
projector's rerun times; errors; the CPU the servers (and Redis, nginx) and this client
used while the class answered (a client near one core would be the bottleneck).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import cpu_seconds, percentile, serve
from stclient import Run, Visitor, Widget

from lnviz.classpoll.rooms import Poll
from lnviz.classpoll.store import Store, open_store

PAGE = "epsilon"  # the lecturer asks its first question (a number: 2/3)
ANSWERS = ("8/9", "0.889", "1/2")  # two forms of the right value, one wrong
WATCH_EVERY_S = 2.0  # lnviz.app.classpoll: a phone's watcher fragment (run_every)
PROJECTOR_EVERY_S = 1.0  # lnviz.app.classpoll: the projector's fragment (run_every)
RUN_TIMEOUT_S = 30.0  # one request longer than this counts as an error
CODE = re.compile(r"Class ([0-9A-Z]{5}-[0-9A-Z]{5})")
COUNT = re.compile(r"Class poll · round (\d+) · [a-z ]+\*\* · (\d+) answered")
BUDGET_LOST = 0
BUDGET_P95_S = 2.0


@dataclass
class Answer:
    student: int
    text: str
    sent: float  # seconds since the lecturer's question was asked (the click returned)
    acked: float | None = None  # when "Answer received" was shown, same clock
    round_trip_s: float = 0.0


@dataclass
class Results:
    students: int
    window_s: float
    target: str
    answers: list[Answer] = field(default_factory=list)
    readings: list[tuple[float, int]] = field(default_factory=list)  # (s since asked, N)
    projector_s: list[float] = field(default_factory=list)  # projector rerun times
    watch_s: list[float] = field(default_factory=list)  # watcher rerun times (phones)
    open_s: list[float] = field(default_factory=list)  # the students' first page loads
    question_seen: list[float] = field(default_factory=list)  # s after asked, per phone
    errors: list[str] = field(default_factory=list)
    code: str = ""
    load_before: float = 0.0  # the machine's 1-minute load average when the class began
    answering_s: float = 0.0  # from the question to the end of the measurement
    client_cpu: float = 0.0  # this process's CPU time / wall time while answering
    cpu_s: dict[str, float] = field(default_factory=dict)  # per process kind, while answering
    counted: int | None = None  # the store's tally
    counted_forms: dict[str, int] = field(default_factory=dict)


@dataclass
class Shared:
    """What the visitors tell each other (as a class does in the room)."""

    students: int
    code: asyncio.Future[str]
    all_here: asyncio.Event = field(default_factory=asyncio.Event)
    asked: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    here: int = 0
    done: int = 0  # students who sent their answer (or failed)
    done_all: asyncio.Event = field(default_factory=asyncio.Event)
    ask_at: float = math.inf  # monotonic time the question was asked

    def arrived(self) -> None:
        self.here += 1
        if self.here >= self.students:
            self.all_here.set()

    def finished(self) -> None:
        self.done += 1
        if self.done >= self.students:
            self.done_all.set()

    def since_ask(self) -> float:
        return time.monotonic() - self.ask_at


async def _timed(coro: object) -> Run:
    return await asyncio.wait_for(coro, RUN_TIMEOUT_S)  # type: ignore[arg-type]


async def _sleep_until(when: float, stop: asyncio.Event) -> bool:
    """Sleep until the monotonic time `when`; False if `stop` was set first."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(0.0, when - time.monotonic()))
    return not stop.is_set()


def _timer(v: Visitor, every_s: float) -> str:
    """The fragment whose run_every is `every_s` (the server's auto-rerun messages)."""
    found = [f for f, s in v.auto_reruns.items() if math.isclose(s, every_s)]
    if not found:
        raise LookupError(f"no fragment runs every {every_s} s: {v.auto_reruns}")
    return found[0]


# ---------------------------------------------------------------------------- the lecturer


async def lecturer(url: str, shared: Shared, res: Results, wait_s: float) -> None:
    try:
        async with Visitor.connect(url) as v:
            _errors(res, "lecturer", await _timed(v.open(PAGE, "present=true")))
            start = v.widget("button", label="Start a class poll")
            _errors(res, "lecturer", await _timed(v.click(start)))
            found = CODE.search(v.text())
            if found is None:
                raise RuntimeError("no room code on the lecturer's page after Start")
            res.code = found.group(1)
            shared.code.set_result(res.code)
            try:
                await asyncio.wait_for(shared.all_here.wait(), wait_s)
            except TimeoutError:
                res.errors.append(f"only {shared.here} of {shared.students} students arrived")
            await asyncio.sleep(1.0)  # the last phones' first watcher runs settle
            ask = v.widget("button", label="Ask the class")
            _errors(res, "lecturer", await _timed(v.click(ask)))
            shared.ask_at = time.monotonic()
            shared.asked.set()
            projector = _timer(v, PROJECTOR_EVERY_S)
            _read(v, projector, shared, res)
            tick = shared.ask_at + PROJECTOR_EVERY_S
            while await _sleep_until(tick, shared.stop):
                run = await _timed(v.rerun_fragment(projector))
                _errors(res, "projector", run)
                res.projector_s.append(run.seconds)
                _read(v, projector, shared, res)
                tick = max(tick + PROJECTOR_EVERY_S, time.monotonic())  # a late run: at once
    except Exception as err:
        res.errors.append(f"lecturer: {type(err).__name__}: {err}")
        if not shared.code.done():
            shared.code.set_exception(err)
        shared.asked.set()
        shared.stop.set()


def _read(v: Visitor, projector: str, shared: Shared, res: Results) -> None:
    found = COUNT.search(v.text(projector))
    if found is None:
        res.errors.append(f"projector shows no count: {v.text(projector)[:200]!r}")
        return
    res.readings.append((shared.since_ask(), int(found.group(2))))


def _errors(res: Results, who: str, run: Run) -> None:
    res.errors += [f"{who}: {e}" for e in run.errors]


# ---------------------------------------------------------------------------- a student


def _answer_box(v: Visitor) -> Widget | None:
    """The class box's answer (text input, or radio for a choice question), if drawn."""
    for kind in ("text_input", "radio"):
        with contextlib.suppress(LookupError):
            return v.widget(kind, label="Your answer", key="class-answer-")
    return None


async def student(
    i: int, url: str, shared: Shared, res: Results, arrive_s: float, window_s: float, seed: int
) -> None:
    rng = random.Random(seed * 1_000_003 + i)
    sent = here = False
    try:
        code = await shared.code
        await asyncio.sleep(rng.uniform(0, arrive_s))
        async with Visitor.connect(url) as v:
            run = await _timed(v.open(PAGE, urlencode({"room": code})))
            _errors(res, f"student {i}", run)
            res.open_s.append(run.seconds)
            if "Class " + code not in v.text():
                raise RuntimeError(f"no class box: {v.text()[:200]!r}")
            shared.arrived()
            here = True
            next_watch = time.monotonic() + WATCH_EVERY_S  # the phone's timer starts now
            planned = math.inf
            while True:
                box = None if sent else _answer_box(v)
                if box is not None and planned == math.inf:
                    res.question_seen.append(shared.since_ask())
                    planned = shared.ask_at + rng.uniform(0, window_s)
                due = planned if box is not None else math.inf
                if not await _sleep_until(min(next_watch, due), shared.stop):
                    break
                if box is not None and time.monotonic() >= due:
                    sent = True
                    await _send(i, v, box, rng, shared, res)
                    shared.finished()
                    continue
                run = await _timed(v.rerun_fragment(_timer(v, WATCH_EVERY_S)))
                _errors(res, f"student {i}", run)
                res.watch_s.append(run.seconds)
                next_watch = max(next_watch + WATCH_EVERY_S, time.monotonic())
    except Exception as err:
        res.errors.append(f"student {i}: {type(err).__name__}: {err}")
    finally:
        if not sent:
            shared.finished()
        if not here:
            shared.arrived()  # a student who could not come does not hold up the class


async def _send(
    i: int, v: Visitor, box: Widget, rng: random.Random, shared: Shared, res: Results
) -> None:
    text = rng.choice(box.options if box.kind == "radio" else ANSWERS)
    send = next(w for w in v.widgets.values() if w.submits_form and w.form_id == box.form_id)
    v.fill(box, text)
    answer = Answer(i, text, shared.since_ask())
    res.answers.append(answer)
    run = await _timed(v.click(send))
    _errors(res, f"student {i}", run)
    answer.round_trip_s = run.seconds
    if "Answer received" in v.text(send.fragment_id):
        answer.acked = shared.since_ask()
    else:
        res.errors.append(f"student {i}: no acknowledgement: {v.text(send.fragment_id)[-200:]!r}")


# ---------------------------------------------------------------------------- the class


async def run_poll(
    url: str,
    students: int = 60,
    window_s: float = 10.0,
    arrive_s: float = 5.0,
    settle_s: float = 5.0,
    seed: int = 0,
    pids: dict[str, list[int]] | None = None,
    target: str = "",
) -> Results:
    """One class: the lecturer, `students` phones; ends `settle_s` after the last answer
    (sooner once the projector shows every acknowledged answer)."""
    res = Results(students, window_s, target or url, load_before=os.getloadavg()[0])
    shared = Shared(students, asyncio.get_running_loop().create_future())
    tasks = [asyncio.create_task(lecturer(url, shared, res, arrive_s + 60))]
    tasks += [
        asyncio.create_task(student(i, url, shared, res, arrive_s, window_s, seed))
        for i in range(students)
    ]
    await shared.asked.wait()
    cpu0 = {k: cpu_seconds(p) for k, p in (pids or {}).items()}
    own0, t0 = time.process_time(), time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(shared.done_all.wait(), window_s + 60)
    deadline = time.monotonic() + settle_s
    acked = sum(a.acked is not None for a in res.answers)
    while time.monotonic() < deadline and not shared.stop.is_set():
        if res.readings and res.readings[-1][1] >= acked and res.readings[-1][0] > _last_ack(res):
            break
        await asyncio.sleep(0.1)
    res.answering_s = time.monotonic() - t0
    res.client_cpu = (time.process_time() - own0) / res.answering_s
    res.cpu_s = {k: cpu_seconds(p) - cpu0[k] for k, p in (pids or {}).items()}
    shared.stop.set()
    await asyncio.gather(*tasks)
    return res


def _last_ack(res: Results) -> float:
    return max((a.acked for a in res.answers if a.acked is not None), default=0.0)


def count_in_store(res: Results, store: Store) -> None:
    """The room service's tally of the question's first round, read from the store.

    `Poll.tally` checks the lecturer key, which lives in the lecturer's server session
    only; this calls the counting it does after that check, on the room's current question.
    """
    poll = Poll(store)
    view = poll.view(res.code)
    if view is None or view.question is None:
        res.errors.append(f"room {res.code} has no question in the store")
        return
    tally = poll._tally(view.code, view.question, view.round)
    res.counted = tally.total
    if view.question.kind == "choice":
        res.counted_forms = {
            c: n for c, n in zip(view.question.choices, tally.choice_counts, strict=True) if n
        }
    else:
        res.counted_forms = {t: n for g in tally.number_groups for t, n in g.forms}


# ---------------------------------------------------------------------------- report


def visibility_delays(res: Results) -> list[float]:
    """For the k-th acknowledged answer: seconds from its acknowledgement to the first
    projector reading showing at least k answers (0 if one already did; inf if none)."""
    acks = sorted(a.acked for a in res.answers if a.acked is not None)
    delays = []
    for k, acked in enumerate(acks, start=1):
        seen = next((t for t, n in res.readings if n >= k), math.inf)
        delays.append(max(0.0, seen - acked))
    return delays


def summarize(res: Results) -> dict[str, object]:
    sent = len(res.answers)
    acked = [a for a in res.answers if a.acked is not None]
    delays = visibility_delays(res)
    trips = [a.round_trip_s for a in res.answers]
    shown = res.readings[-1][1] if res.readings else None
    sent_forms = dict(Counter(a.text for a in res.answers))

    def ms(values: list[float], q: float) -> float:
        return round(percentile(values, q) * 1000, 1)

    return {
        "target": res.target,
        "students": res.students,
        "window_s": res.window_s,
        "sent": sent,
        "sent_within_window": sum(a.sent <= res.window_s for a in res.answers),
        "last_sent_s": round(max((a.sent for a in res.answers), default=math.nan), 2),
        "acknowledged": len(acked),
        "counted_in_store": res.counted,
        "projector_last": shown,
        "lost": None if res.counted is None else sent - res.counted,
        "forms_match": sent_forms == res.counted_forms,
        "forms_sent": sent_forms,
        "forms_counted": res.counted_forms,
        "visible_p50_s": round(percentile(delays, 50), 2),
        "visible_p95_s": round(percentile(delays, 95), 2),
        "visible_max_s": round(max(delays, default=math.nan), 2),
        "submit_p50_ms": ms(trips, 50),
        "submit_p95_ms": ms(trips, 95),
        "submit_max_ms": round(max(trips, default=math.nan) * 1000, 1),
        "question_on_phones_p50_s": round(percentile(res.question_seen, 50), 2),
        "question_on_phones_max_s": round(max(res.question_seen, default=math.nan), 2),
        "watch_runs": len(res.watch_s),
        "watch_p50_ms": ms(res.watch_s, 50),
        "watch_p95_ms": ms(res.watch_s, 95),
        "projector_runs": len(res.projector_s),
        "projector_p50_ms": ms(res.projector_s, 50),
        "projector_p95_ms": ms(res.projector_s, 95),
        "first_load_p50_ms": ms(res.open_s, 50),
        "first_load_p95_ms": ms(res.open_s, 95),
        "answering_s": round(res.answering_s, 1),
        "load_before": round(res.load_before, 2),
        "cpu_share": {k: round(v / res.answering_s, 2) for k, v in res.cpu_s.items()}
        if res.answering_s
        else {},
        "client_cpu": round(res.client_cpu, 2),
        "errors": len(res.errors),
    }


def missed(summary: dict[str, object]) -> list[str]:
    out = []
    if summary["lost"] != BUDGET_LOST:
        out.append(f"lost {summary['lost']} answers (budget {BUDGET_LOST})")
    if summary["acknowledged"] != summary["sent"] or summary["projector_last"] != summary["sent"]:
        out.append("an answer sent was not acknowledged or not shown on the projector")
    if not summary["forms_match"]:
        out.append("the store's tally differs from the answers sent")
    if not summary["visible_p95_s"] <= BUDGET_P95_S:  # type: ignore[operator]
        out.append(f"projector p95 {summary['visible_p95_s']} s > {BUDGET_P95_S} s")
    if summary["errors"]:
        out.append(f"{summary['errors']} errors")
    return out


def print_report(s: dict[str, object], res: Results) -> None:
    print(f"\n# class poll: {s['target']}, {s['students']} students, a {s['window_s']} s window")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {s['load_before']} before the class; "
        f"client CPU share {s['client_cpu']}; "
        f"CPU shares while answering ({s['answering_s']} s): {s['cpu_share']}"
    )
    print(
        f"answers sent {s['sent']} ({s['sent_within_window']} within the window, the last "
        f"{s['last_sent_s']} s after the question), acknowledged {s['acknowledged']}, counted "
        f"in the store {s['counted_in_store']}, on the projector {s['projector_last']}: "
        f"lost {s['lost']}; forms {'match' if s['forms_match'] else 'DIFFER'} "
        f"{s['forms_counted']}"
    )
    print(
        f"on the projector after the acknowledgement: p50 {s['visible_p50_s']} s, "
        f"p95 {s['visible_p95_s']} s, max {s['visible_max_s']} s"
    )
    print(
        f"submit round trip: p50 {s['submit_p50_ms']} ms, p95 {s['submit_p95_ms']} ms, "
        f"max {s['submit_max_ms']} ms; question on the phones after p50 "
        f"{s['question_on_phones_p50_s']} s, max {s['question_on_phones_max_s']} s"
    )
    print(
        f"watcher reruns {s['watch_runs']}: p50 {s['watch_p50_ms']} ms, p95 "
        f"{s['watch_p95_ms']} ms; projector reruns {s['projector_runs']}: p50 "
        f"{s['projector_p50_ms']} ms, p95 {s['projector_p95_ms']} ms; first page loads "
        f"p50 {s['first_load_p50_ms']} ms, p95 {s['first_load_p95_ms']} ms"
    )
    print(f"errors {s['errors']}")
    for line in res.errors[:20]:
        print("  !", line)


# ---------------------------------------------------------------------------- servers


@contextlib.contextmanager
def redis_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server on a free loopback port, nothing persisted: (its URL, the process)."""
    from deploy.replicas import REDIS_SERVER
    from deploy.replicas import redis_server as started

    if not os.access(REDIS_SERVER, os.X_OK):
        raise SystemExit(f"{REDIS_SERVER} is needed for --replicas (apt-get install redis-server)")
    workdir = Path(tempfile.mkdtemp(prefix="lnviz-redis-"))
    try:
        with started(workdir) as (url, proc):
            yield url, proc
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    """These environment variables for the block (the replicas inherit this process's)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def target(replicas: int) -> Iterator[tuple[str, dict[str, list[int]], Store, str]]:
    """The app: (its URL, pids by kind, a store on the app's, the target's name)."""
    if not replicas:
        with tempfile.TemporaryDirectory(prefix="lnviz-poll-") as tmp:
            env = {"LNVIZ_POLL_DB": str(Path(tmp) / "poll.sqlite3"), "LNVIZ_REDIS_URL": ""}
            with serve("app.py", env=env) as server:
                store = open_store(env)
                try:
                    yield server.url, {"server": [server.pid]}, store, "1 server, SQLite"
                finally:
                    store.close()
        return
    from deploy.replicas import balanced_app

    with (
        redis_server() as (url, proc),
        _environ(LNVIZ_REDIS_URL=url),
        balanced_app(replicas, upstream_header=False) as bal,
    ):
        store = open_store({"LNVIZ_REDIS_URL": url})
        pids = {
            "replicas": [r.pid for r in bal.replicas],
            "redis": [proc.pid],
            "nginx": [bal.nginx.pid],
        }
        try:
            yield bal.url, pids, store, f"{replicas} replicas behind nginx, Redis"
        finally:
            store.close()


async def warm_up(url: str, visits: int) -> None:
    """The page once per replica, as a student and as a lecturer, before the class: a
    server's first run (imports, caches) is not the class's."""
    for _ in range(visits):
        for query in ("", "present=true"):
            async with Visitor.connect(url) as v:
                await _timed(v.open(PAGE, query))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--window", type=float, default=10.0, help="seconds to answer in")
    ap.add_argument("--arrive", type=float, default=5.0, help="students arrive within seconds")
    ap.add_argument("--settle", type=float, default=5.0, help="wait after the last answer")
    ap.add_argument("--replicas", type=int, default=0, help="N replicas behind nginx, Redis")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the summary here")
    ap.add_argument("--check", action="store_true", help="exit 1 if a budget is missed")
    args = ap.parse_args(argv)
    with target(args.replicas) as (url, pids, store, name):
        asyncio.run(warm_up(url, max(1, args.replicas)))
        res = asyncio.run(
            run_poll(
                url, args.students, args.window, args.arrive, args.settle, args.seed, pids, name
            )
        )
        count_in_store(res, store)
    summary = summarize(res)
    print_report(summary, res)
    if args.json:
        raw = {
            "answers": [asdict(a) for a in res.answers],
            "readings": res.readings,
            "question_seen": res.question_seen,
            "errors": res.errors,
        }
        args.json.write_text(json.dumps({"summary": summary, **raw}, indent=1))
    for line in missed(summary):
        print("MISSED:", line)
    return 1 if (args.check and missed(summary)) else 0


if __name__ == "__main__":
    sys.exit(main())
