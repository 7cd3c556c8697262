"""A real redis-server for tests (deploy/replicas.py starts it): the class poll's store tests
and the replicas' poll test start one each; without Debian's redis-server the test skips
locally and fails under CI=true."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.replicas import REDIS_SERVER, redis_server, start_redis
from deploy.replicas import redis_ready as _ready
from tests.conftest import require_tool

__all__ = ["REDIS_SERVER", "running_redis", "start_redis", "wait_ready"]


def wait_ready(url: str, proc: object, timeout_s: float = 10.0) -> bool:
    """Whether the server at redis://127.0.0.1:<port>/0 answers before `timeout_s`."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    return _ready(port, proc, timeout_s)  # type: ignore[arg-type]


@contextlib.contextmanager
def running_redis(workdir: Path) -> Iterator[str]:
    """redis://127.0.0.1:<free port>/0 of a redis-server stopped on leaving the block."""
    require_tool(REDIS_SERVER)
    with contextlib.ExitStack() as stack:
        try:
            url, _proc = stack.enter_context(redis_server(workdir))
        except RuntimeError as err:
            pytest.fail(str(err))
        yield url
