"""What the latency and load benchmarks share: the pages, a server on loopback, its memory.

Servers run with the app's own `.streamlit/config.toml` (they start in the repository's
root) plus the options a benchmark passes, e.g. `{"runner.postScriptGC": "true"}` to measure
Streamlit's default beside the app's setting.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FLOOR_SCRIPT = "benchmarks/floor_app.py"
FLOOR = "floor"  # the floor app's name in result tables


def app_pages() -> list[str]:
    """Every page's url_path, home ("") first: page files are named like their url_path."""
    return ["", *sorted(p.stem for p in (ROOT / "pages").glob("*.py") if p.stem != "home")]


def page_name(url_path: str) -> str:
    return url_path or "home"


@dataclass
class Server:
    """A `streamlit run` on 127.0.0.1 (its own process group)."""

    url: str
    proc: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.proc.pid


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(
    script: str = "app.py",
    options: Mapping[str, str] | None = None,
    log_path: Path | None = None,
    timeout_s: float = 60.0,
) -> Iterator[Server]:
    """Start `streamlit run <script>` on a free loopback port; stop its process group after."""
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", script]
    settings = {
        "server.headless": "true",
        "server.fileWatcherType": "none",
        "browser.gatherUsageStats": "false",
        "server.address": "127.0.0.1",
        "server.port": str(port),
        **(options or {}),
    }
    for key, value in settings.items():
        cmd += [f"--{key}", value]
    log = open(log_path or os.devnull, "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = Server(url=f"http://127.0.0.1:{port}", proc=proc)
    try:
        _wait_healthy(server, timeout_s)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def _wait_healthy(server: Server, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {server.proc.returncode}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=2) as r,
        ):
            if r.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{server.url} not healthy after {timeout_s} s")


def rss_mb(pids: Sequence[int]) -> float:
    """Resident memory of these processes and their children, in MB (Linux /proc)."""
    total_kb = 0
    for pid in _with_children(pids):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
    return total_kb / 1024


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
