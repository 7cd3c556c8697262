"""What the latency and load benchmarks share: the pages, a server on loopback, its memory.

Servers run with the app's own `.streamlit/config.toml` (they start in the repository's
root) plus the options a benchmark passes, e.g. `{"runner.postScriptGC": "true"}` to measure
Streamlit's default beside the app's setting.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # deploy/ and lnviz/ from this checkout
from deploy import replicas  # noqa: E402
from deploy.replicas import Replica  # noqa: E402

FLOOR_SCRIPT = "benchmarks/floor_app.py"
FLOOR = "floor"  # the floor app's name in result tables


T = TypeVar("T")


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a thread of its own.

    `asyncio.run` refuses to start where an event loop is already running, and Playwright's
    sync API (the browser tests of the same pytest worker) keeps one running on the main
    thread for the whole session.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def app_pages() -> list[str]:
    """Every page's url_path, home ("") first: page files are named like their url_path."""
    return ["", *sorted(p.stem for p in (ROOT / "pages").glob("*.py") if p.stem != "home")]


def page_name(url_path: str) -> str:
    return url_path or "home"


Server = Replica  # a running `streamlit run` on 127.0.0.1: url, pid, proc, log_path


@contextlib.contextmanager
def serve(
    script: str = "app.py",
    options: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    log_path: Path | None = None,
) -> Iterator[Server]:
    """Start `streamlit run <script>` on a free loopback port (deploy/replicas.py's
    launcher, as for the browser tests and the replicas); stop it after the block."""
    with replicas.serve(
        script, log_path=log_path or Path(os.devnull), options=options, env=env
    ) as server:
        yield server


def rss_mb(pids: Sequence[int]) -> float:
    """Resident memory of these processes and their children, in MB (Linux /proc)."""
    total_kb = 0
    for pid in _with_children(pids):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
    return total_kb / 1024


def cpu_seconds(pids: Sequence[int]) -> float:
    """CPU time (user + system) these processes and their children have used, in seconds
    (Linux /proc; a process that has exited counts 0)."""
    ticks = 0
    for pid in _with_children(pids):
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _with_children(pids: Sequence[int]) -> list[int]:
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                children = (task / "children").read_text().split()
                todo += [int(c) for c in children]
    return found


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), linear interpolation; NaN for no values."""
    return float(np.percentile(values, q)) if len(values) else float("nan")
