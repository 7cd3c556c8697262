"""Load benchmark: a classroom of simulated visitors on one server, over Streamlit's protocol.

    python benchmarks/load.py                        # 30 visitors, 1 move/s each, 60 s
    python benchmarks/load.py --gc default           # the same with Streamlit's postScriptGC
    python benchmarks/load.py --think 0 --visitors 8 # hammering: the server's throughput
    python benchmarks/load.py --soak                 # 10 minutes; memory growth
    python benchmarks/load.py --replicas 2           # 2 replicas behind nginx (deploy/)
    python benchmarks/load.py --cold                 # a fresh server, 30 first visits in 1 s
    python benchmarks/load.py --first                # every visitor moves its page's first control
    python benchmarks/load.py --url http://127.0.0.1:8080 --pid 123 --pid 456  # a running app

Each visitor (benchmarks/stclient.py) opens its own WebSocket on one page — visitor i on page
i mod 12, so all pages are visited at once — and moves one of the page's sliders by one step
every `think` seconds (± 50 %, so visitors do not move in lock step); with --first, always
the page's first slider, the control a class following a lecturer moves. A move inside an
st.fragment reruns only that fragment, as in a browser. It prints:

- throughput (reruns per second) and p50 / p95 / p99 of the rerun time a visitor waits for
  (request sent → script_finished received), over all pages and per page;
- errors: exceptions or error messages on a page, failed or timed-out runs;
- own state: at the end, every visitor reruns its whole page and compares what it shows with
  what a fresh visitor sees at the same URL (each visitor sees only its own state);
- the server's resident memory before, at its peak during, and after the run; with --soak,
  memory after the first minute and at the end (budget: growth within 20 %).

With --cold, nothing is warmed up: a freshly started server gets every visitor's first
visit within one second (`--arrive`), as when a lecturer shares the link with a class, and
the run reports those first page loads and every error (budget: none).

With --floor the same visitors load the floor app (benchmarks/floor_app.py, one slider, no
computation) on one server instead: Streamlit's own cost of the same class on this machine,
measured in the same way, to read the app's numbers against on a slower or faster day.

Without --url it starts the app itself on loopback (with .streamlit/config.toml, and with
`runner.postScriptGC` as --gc says); with --replicas N, N replicas behind Debian's nginx
(deploy/replicas.py), and memory is the replicas' sum. The client is one asyncio process;
its CPU share is printed, so a run where the client, not the server, was the bottleneck
shows itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import FLOOR_SCRIPT, app_pages, page_name, percentile, rss_mb, serve
from stclient import Run, Visitor

RUN_TIMEOUT_S = 30.0  # one rerun longer than this counts as an error
MEMORY_EVERY_S = 5.0
BUDGET_P95_MS = {"1 server": 300.0, "replicas": 100.0}  # issue 16: a class of 30, a move a second
BUDGET_SOAK_GROWTH = 0.20


@dataclass
class Sample:
    page: str
    at: float  # seconds since the start of the measurement
    ms: float
    fragment: bool


@dataclass
class Results:
    visitors: int
    think_s: float
    seconds: float
    gc: str
    target: str  # "1 server", "2 replicas behind nginx" or the URL given
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    own_state_checked: int = 0
    own_state_mismatches: list[str] = field(default_factory=list)
    memory: list[tuple[float, float]] = field(default_factory=list)  # (seconds, MB)
    client_cpu: float = 0.0  # client process CPU time / wall time


async def visitor(
    i: int,
    url: str,
    page: str,
    think: float,
    t0: float,
    stop: float,
    res: Results,
    first: bool = False,
) -> None:
    rng = random.Random(i)
    await asyncio.sleep(rng.uniform(0, min(think, 1.0) * 3))  # visitors arrive over a few s
    try:
        async with Visitor.connect(url) as v:
            _record(res, page, t0, await _timed(v.open(page)))
            next_move = time.monotonic() + rng.uniform(0.5, 1.5) * think
            while next_move < stop:
                await asyncio.sleep(max(0.0, next_move - time.monotonic()))
                _record(res, page, t0, await _timed(v.move_slider(rng, first=first)))
                next_move = max(next_move + rng.uniform(0.5, 1.5) * think, time.monotonic())
            await _check_own_state(v, url, page, res)
    except Exception as err:
        res.errors.append(f"{page_name(page)} visitor {i}: {type(err).__name__}: {err}")


async def _timed(coro: object) -> Run:
    return await asyncio.wait_for(coro, RUN_TIMEOUT_S)  # type: ignore[arg-type]


def _record(res: Results, page: str, t0: float, run: Run) -> None:
    at = time.monotonic() - t0
    res.samples.append(Sample(page, at, run.seconds * 1000, run.fragment))
    res.errors += [f"{page_name(page)}: {e}" for e in run.errors]


async def _check_own_state(v: Visitor, url: str, page: str, res: Results) -> None:
    """The visitor's page equals a fresh visitor's at the same URL."""
    await _timed(v.full_rerun())
    async with Visitor.connect(url) as fresh:
        await _timed(fresh.open(page, v.query_string))
        res.own_state_checked += 1
        if fresh.digest() != v.digest():
            res.own_state_mismatches.append(f"{page_name(page)}?{v.query_string}")


async def sample_memory(pids: list[int], t0: float, stop: float, res: Results) -> None:
    while time.monotonic() < stop + 2:
        res.memory.append((time.monotonic() - t0, rss_mb(pids)))
        await asyncio.sleep(MEMORY_EVERY_S)


async def run_load(url: str, pids: list[int], args: argparse.Namespace) -> Results:
    pages = args.pages or app_pages()
    target = (
        "the floor app, 1 server"
        if args.floor
        else args.url
        if args.url
        else f"{args.replicas} replicas behind nginx"
        if args.replicas
        else "1 server"
    )
    res = Results(args.visitors, args.think, args.seconds, args.gc, target)
    t0 = time.monotonic()
    stop = t0 + args.seconds
    cpu0 = time.process_time()
    tasks = [
        visitor(i, url, pages[i % len(pages)], args.think, t0, stop, res, args.first)
        for i in range(args.visitors)
    ]
    if pids:
        tasks.append(sample_memory(pids, t0, stop, res))
    await asyncio.gather(*tasks)
    res.client_cpu = (time.process_time() - cpu0) / (time.monotonic() - t0)
    return res


async def cold_arrivals(
    url: str, pages: list[str], visitors: int, within_s: float = 1.0
) -> tuple[list[float], list[str]]:
    """`visitors` first visits, page i mod len(pages), all started within `within_s`
    seconds of each other on a server nobody has visited: (load times in ms, errors)."""
    rng = random.Random(0)
    times: list[float] = []
    errors: list[str] = []

    async def arrive(i: int) -> None:
        page = pages[i % len(pages)]
        await asyncio.sleep(rng.uniform(0, within_s))
        try:
            async with Visitor.connect(url) as v:
                run = await _timed(v.open(page))
                times.append(run.seconds * 1000)
                errors.extend(f"{page_name(page)} visitor {i}: {e}" for e in run.errors)
        except Exception as err:
            errors.append(f"{page_name(page)} visitor {i}: {type(err).__name__}: {err}")

    await asyncio.gather(*(arrive(i) for i in range(visitors)))
    return times, errors


def report_cold(times: list[float], errors: list[str], visitors: int) -> int:
    """Print the first visits of a cold start; 1 if any failed."""
    print(f"cold start: {visitors} first visits within 1 s, {len(times)} loaded")
    if times:
        print(
            f"  load p50 {percentile(times, 50):.0f} ms, p95 {percentile(times, 95):.0f} ms, "
            f"max {max(times):.0f} ms"
        )
    print(f"  errors: {len(errors)}")
    for line in errors[:20]:
        print("  !", line)
    return 1 if errors or len(times) < visitors else 0


async def warm_up(url: str, pages: list[str]) -> None:
    """One visit per page first, as after a deploy: imports and caches are not measured."""
    for page in pages:
        async with Visitor.connect(url) as v:
            await _timed(v.open(page))


# ---------------------------------------------------------------------------- report


def summarize(res: Results) -> dict[str, object]:
    moves = [s for s in res.samples if s.at > 0]
    ms = [s.ms for s in moves]
    by_page: dict[str, list[float]] = defaultdict(list)
    for s in moves:
        by_page[page_name(s.page)].append(s.ms)
    mem = [m for _, m in res.memory]
    after_first_minute = [m for t, m in res.memory if t >= 60]
    summary: dict[str, object] = {
        "replicas": res.target,
        "visitors": res.visitors,
        "think_s": res.think_s,
        "seconds": res.seconds,
        "postScriptGC": res.gc,
        "reruns": len(ms),
        "throughput_per_s": round(len(ms) / res.seconds, 1),
        "p50_ms": round(percentile(ms, 50), 1),
        "p95_ms": round(percentile(ms, 95), 1),
        "p99_ms": round(percentile(ms, 99), 1),
        "errors": len(res.errors),
        "own_state": f"{res.own_state_checked - len(res.own_state_mismatches)}"
        f" of {res.own_state_checked} match",
        "client_cpu": round(res.client_cpu, 2),
        "per_page": {
            p: {
                "n": len(v),
                "p50_ms": round(percentile(v, 50), 1),
                "p95_ms": round(percentile(v, 95), 1),
            }
            for p, v in sorted(by_page.items())
        },
    }
    if mem:
        summary["memory_mb"] = {
            "before": round(mem[0], 1),
            "peak": round(max(mem), 1),
            "after": round(mem[-1], 1),
        }
        if after_first_minute:
            first, last = after_first_minute[0], mem[-1]
            summary["memory_mb"]["after_first_minute"] = round(first, 1)  # type: ignore[index]
            summary["memory_mb"]["growth_after_first_minute"] = round(last / first - 1, 3)  # type: ignore[index]
    return summary


def print_report(summary: dict[str, object], res: Results) -> None:
    print(
        f"\n# load: {summary['replicas']}, {summary['visitors']} visitors, "
        f"a move every {summary['think_s']} s "
        f"(± 50 %), {summary['seconds']} s, postScriptGC {summary['postScriptGC']}"
    )
    print(
        f"machine: {platform.machine()}, {platform.python_version()}, client CPU share "
        f"{summary['client_cpu']}"
    )
    print(
        f"reruns {summary['reruns']}  throughput {summary['throughput_per_s']}/s  "
        f"p50 {summary['p50_ms']} ms  p95 {summary['p95_ms']} ms  p99 {summary['p99_ms']} ms"
    )
    print(f"errors {summary['errors']}  own state: {summary['own_state']}")
    if "memory_mb" in summary:
        print(f"memory (MB): {summary['memory_mb']}")
    print("\n| page | reruns | p50 ms | p95 ms |\n|---|---|---|---|")
    for page, row in summary["per_page"].items():  # type: ignore[union-attr]
        print(f"| {page} | {row['n']} | {row['p50_ms']} | {row['p95_ms']} |")
    for line in (res.errors + [f"own state differs: {m}" for m in res.own_state_mismatches])[:20]:
        print("  !", line)


@contextlib.contextmanager
def target(args: argparse.Namespace) -> Iterator[tuple[str, list[int]]]:
    if args.url:
        yield args.url, args.pid
        return
    if args.replicas:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from deploy.replicas import balanced_app

        if args.gc == "default":
            raise SystemExit("--gc default applies to a server started here, not --replicas")
        with balanced_app(args.replicas, upstream_header=False) as balancer:
            yield balancer.url, [r.pid for r in balancer.replicas]
        return
    options = {"runner.postScriptGC": "true" if args.gc == "default" else "false"}
    with serve(FLOOR_SCRIPT if args.floor else "app.py", options) as server:
        yield server.url, [server.pid]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--visitors", type=int, default=30)
    ap.add_argument("--think", type=float, default=1.0, help="seconds between moves (0: hammer)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--soak", action="store_true", help="run 600 s and report memory growth")
    ap.add_argument(
        "--gc",
        choices=("off", "default"),
        default="off",
        help="runner.postScriptGC for the server started here: off (the app's"
        " setting) or default (Streamlit's, on)",
    )
    ap.add_argument("--url", help="load a running app instead of starting one")
    ap.add_argument("--replicas", type=int, default=0, help="start N replicas behind nginx")
    ap.add_argument("--pid", type=int, action="append", default=[], help="server pid(s) for memory")
    ap.add_argument("--pages", nargs="*", help="url paths to visit (default: every page)")
    ap.add_argument("--floor", action="store_true", help="load the floor app instead (one page)")
    ap.add_argument("--json", type=Path, help="also write the summary here")
    ap.add_argument("--check", action="store_true", help="exit 1 if a budget is missed")
    ap.add_argument("--cold", action="store_true", help="first visits on a fresh server only")
    ap.add_argument("--first", action="store_true", help="every move on the page's first slider")
    ap.add_argument("--arrive", type=float, default=1.0, help="--cold: arrivals within seconds")
    args = ap.parse_args(argv)
    if args.floor:
        if args.url or args.replicas:
            raise SystemExit("--floor starts the floor app on one server; drop --url/--replicas")
        args.pages = [""]  # its only page
    if args.cold:
        if args.url:
            raise SystemExit("--cold starts its own fresh server; drop --url")
        with target(args) as (url, _pids):
            pages = args.pages or app_pages()
            times, errors = asyncio.run(cold_arrivals(url, pages, args.visitors, args.arrive))
        failed = report_cold(times, errors, args.visitors)
        return failed if args.check else 0
    if args.soak:
        args.seconds = max(args.seconds, 600.0)
    with target(args) as (url, pids):
        asyncio.run(warm_up(url, args.pages or app_pages()))
        res = asyncio.run(run_load(url, pids, args))
    summary = summarize(res)
    print_report(summary, res)
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "memory": res.memory}, indent=1))
    missed = []
    budget = BUDGET_P95_MS["replicas" if args.replicas >= 2 else "1 server"]
    if args.think >= 1.0 and summary["p95_ms"] > budget:  # type: ignore[operator]
        missed.append(f"p95 {summary['p95_ms']} ms > {budget} ms")
    if res.errors or res.own_state_mismatches:
        missed.append("errors or foreign state")
    growth = summary.get("memory_mb", {}).get("growth_after_first_minute")  # type: ignore[union-attr]
    if args.soak and growth is not None and growth > BUDGET_SOAK_GROWTH:
        missed.append(f"memory grew {growth:.0%} after the first minute")
    for m in missed:
        print("MISSED:", m)
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
