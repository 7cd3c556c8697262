"""Fixtures: a real redis-server of this test process, and a store of each backend.

Every store test runs against both backends (`store` is parametrized); the Redis one
talks to a `redis-server` started here on a free port (no persistence), stopped at the end.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lnviz.classpoll.questions import LABELS, PollError
from lnviz.classpoll.rooms import Poll
from lnviz.classpoll.store import RedisStore, SQLiteStore, Store
from tests.redis_server import running_redis


class FakeClock:
    """A clock the test moves by hand (SQLite expiry and the room service's times); it
    starts at the real time, so that processes on the real clock agree with it."""

    def __init__(self, now: float | None = None) -> None:
        self.now = time.time() if now is None else now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """redis://127.0.0.1:<free port>/0 of a redis-server that lives as long as this worker."""
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[object]:
    """A raw client of the test server, its database emptied first."""
    import redis

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Store]]:
    """Stores of the test's backend on one database (SQLite: one file in tmp_path; Redis:
    the test server, emptied). `make_store(clock=...)` sets SQLite's expiry clock."""
    made: list[SQLiteStore | RedisStore] = []
    url = ""
    if backend == "redis":
        url = request.getfixturevalue("redis_url")
        request.getfixturevalue("redis_client")  # empties the database

    def make(clock: Callable[[], float] | None = None) -> Store:
        store: SQLiteStore | RedisStore
        if backend == "redis":
            store = RedisStore(url)
        else:
            store = SQLiteStore(tmp_path / "poll.sqlite3", **({"clock": clock} if clock else {}))
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


@pytest.fixture
def store(make_store: Callable[..., Store]) -> Store:
    return make_store()


@pytest.fixture
def make_poll(make_store: Callable[..., Store], clock: FakeClock) -> Callable[..., Poll]:
    """Polls on the test's backend, sharing one database and the fake clock (the store's
    expiry clock too, for SQLite)."""

    def make(**options: object) -> Poll:
        return Poll(make_store(clock=clock), clock=clock, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture
def poll(make_poll: Callable[..., Poll]) -> Poll:
    return make_poll(ttl_s=3600)


def refused(call: Callable[[], object], field: str) -> PollError:
    """`call` raises PollError for `field`, its message led by the field's name."""
    with pytest.raises(PollError) as caught:
        call()
    err = caught.value
    assert err.field == field, (err.field, err.message)
    assert err.message.startswith(LABELS[field] + ": "), err.message
    assert str(err) == err.message and len(err.message) < 200
    return err


def away_from_window_edge(window_s: int) -> None:
    """Wait out the last second of a wall-clock rate window (Redis counts by it)."""
    left = window_s - time.time() % window_s
    if left < 1.5:
        time.sleep(left + 0.05)


def run_at_once(n: int, work: Callable[[int], None]) -> list[BaseException]:
    """Run work(0..n-1) in n threads released together; the errors they raised."""
    barrier = threading.Barrier(n)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(30)
            work(i)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    return errors
