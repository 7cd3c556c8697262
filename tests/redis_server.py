"""A real redis-server for tests, on a free port of 127.0.0.1, without persistence: the
class poll's store tests and the replicas' poll test start one each (Debian's redis-server;
missing, the test skips locally and fails under CI=true)."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.replicas import free_port
from tests.conftest import require_tool

REDIS_SERVER = "/usr/bin/redis-server"


def start_redis(port: int, workdir: Path) -> subprocess.Popen[bytes]:
    cmd = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
           "--appendonly", "no", "--dir", str(workdir), "--daemonize", "no"]  # fmt: skip
    return subprocess.Popen(
        cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout_s: float = 10.0) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return True
            time.sleep(0.05)
        return False
    finally:
        client.close()


@contextlib.contextmanager
def running_redis(workdir: Path) -> Iterator[str]:
    """redis://127.0.0.1:<free port>/0 of a redis-server stopped on leaving the block."""
    require_tool(REDIS_SERVER)
    for _attempt in range(3):  # the free port can be taken before the server binds it
        port = free_port()
        proc = start_redis(port, workdir)
        url = f"redis://127.0.0.1:{port}/0"
        if wait_ready(url, proc):
            break
        proc.kill()
        proc.wait()
    else:
        pytest.fail("redis-server did not start")
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
