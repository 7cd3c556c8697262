"""Server CPU per move of two builds of the app, side by side: the same moves, in turn.

    git worktree add /tmp/before <commit>        # the build to compare against
    python benchmarks/compare_builds.py /tmp/before .                   # every page
    python benchmarks/compare_builds.py /tmp/before . --pages batch-statistics --only mt

The machine's speed drifts from minute to minute (the same build measured 39 and 54 ms per
move two minutes apart), so a before/after pair is only meaningful when both builds run at
once: two servers, each started from its own directory (its own lnviz, pages and
.streamlit/config.toml: `python -m streamlit` puts the working directory first on the
import path), one visitor on each, the same page and the same sequence of moves (one seeded
random generator per side), the side that moves first alternating every round. Around each
move the server process's CPU time (user + system, /proc) is read. It prints, per page and
over all pages, each build's mean CPU milliseconds per move and their ratio (B/A below 1:
B costs less).

The moves wander the state space as the load benchmark's do (some compute new states, some
find them cached); with --only KEY every move is of that control (a warm, repeated move).
Each server prints the directory it runs from, so a comparison of a build with itself
(both started from one place) shows itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from control_costs import cpu_seconds
from harness import app_pages, page_name
from stclient import Visitor

from deploy.replicas import free_port, streamlit_command

WARM_UP_MOVES = 3
STARTUP_TIMEOUT_S = 60.0


@dataclass
class Build:
    directory: Path
    url: str
    pid: int


@contextmanager
def served(directory: Path) -> Iterator[Build]:
    """`streamlit run app.py` from `directory`, on a free loopback port, until the block ends."""
    port = free_port()
    proc = subprocess.Popen(
        streamlit_command(port),
        cwd=directory,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server of {directory} did not start") from None
                time.sleep(0.3)
        ran_from = Path(os.readlink(f"/proc/{proc.pid}/cwd"))
        print(f"# {directory}: pid {proc.pid}, runs from {ran_from}", flush=True)
        yield Build(directory, url, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


async def compare_page(
    a: Build, b: Build, page: str, moves: int, only: str | None
) -> tuple[float, float]:
    """Seconds of server CPU over `moves` moves of `page` on each build (after warm-up)."""
    async with Visitor.connect(a.url) as va, Visitor.connect(b.url) as vb:
        await va.open(page)
        await vb.open(page)
        sides = []
        for build, visitor in ((a, va), (b, vb)):
            controls = [
                c
                for c in visitor.controls.values()
                if c.kind != "checkbox" and (only is None or c.url_key == only)
            ]
            sides.append((build, visitor, controls, random.Random(7)))
        spent = [0.0, 0.0]
        for i in range(WARM_UP_MOVES + moves):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for side in order:
                build, visitor, controls, rng = sides[side]
                before = cpu_seconds(build.pid)
                if controls:
                    await visitor.move(controls[rng.randrange(len(controls))], rng)
                else:
                    await visitor.full_rerun()
                if i >= WARM_UP_MOVES:
                    spent[side] += cpu_seconds(build.pid) - before
        return spent[0], spent[1]


async def compare(a: Build, b: Build, pages: list[str], moves: int, only: str | None) -> None:
    total_a = total_b = 0.0
    print("| page | A ms/move | B ms/move | B/A |\n|---|---|---|---|")
    for page in pages:
        sa, sb = await compare_page(a, b, page, moves, only)
        total_a, total_b = total_a + sa, total_b + sb
        print(f"| {page_name(page)} | {1000 * sa / moves:.1f} | {1000 * sb / moves:.1f} | "
              f"{sb / sa:.2f} |", flush=True)  # fmt: skip
    n = moves * len(pages)
    print(f"| **all** | **{1000 * total_a / n:.1f}** | **{1000 * total_b / n:.1f}** | "
          f"**{total_b / total_a:.2f}** |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("a", type=Path, help="directory of build A (before)")
    ap.add_argument("b", type=Path, help="directory of build B (after)")
    ap.add_argument("--moves", type=int, default=30, help="moves per page and build")
    ap.add_argument("--pages", nargs="*", default=None, help="url_paths (default: every page)")
    ap.add_argument("--only", default=None, help="move only the control with this URL key")
    args = ap.parse_args()
    pages = app_pages() if args.pages is None else args.pages
    with served(args.a.resolve()) as a, served(args.b.resolve()) as b:
        asyncio.run(compare(a, b, pages, args.moves, args.only))


if __name__ == "__main__":
    main()
