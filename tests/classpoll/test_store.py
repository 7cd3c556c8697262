"""Both stores keep one contract: rooms by compare-and-set, answers per slot, TTLs, rate
windows, and StoreUnavailable (fast) when the backend cannot be reached."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lnviz.classpoll import sqlite_store
from lnviz.classpoll.store import (
    PREFIX,
    RedisStore,
    SQLiteStore,
    Store,
    StoreUnavailable,
    open_store,
)
from tests.classpoll.conftest import FakeClock, run_at_once

HOUR = 3600


def room(version: int = 1, **extra: Any) -> dict[str, Any]:
    return {"version": version, "page": "epsilon", **extra}


def wait_until_expired(backend: str, clock: FakeClock, seconds: float) -> None:
    """SQLite: move the fake clock; Redis: wait on the server's own clock."""
    if backend == "sqlite":
        clock.advance(seconds)
    else:
        time.sleep(seconds + 0.3)


def test_both_backends_satisfy_the_protocol(store: Store) -> None:
    assert isinstance(store, Store)


def test_a_room_is_created_once_and_loaded_as_stored(store: Store) -> None:
    assert store.load_room("AAAAA00000") is None
    assert store.create_room("AAAAA00000", room(params=[["eps", "0.5"]]), HOUR) is True
    assert store.create_room("AAAAA00000", room(page="other"), HOUR) is False
    assert store.load_room("AAAAA00000") == room(params=[["eps", "0.5"]])
    assert store.load_room("BBBBB00000") is None


def test_save_is_a_compare_and_set_on_the_version(store: Store) -> None:
    store.create_room("C0DE000000", room(1), HOUR)
    assert store.save_room("C0DE000000", room(2, page="a"), 1, HOUR) is True
    assert store.save_room("C0DE000000", room(2, page="b"), 1, HOUR) is False  # stale
    assert store.load_room("C0DE000000") == room(2, page="a")
    assert store.save_room("C0DE000000", room(3, page="c"), 2, HOUR) is True
    assert store.load_room("C0DE000000") == room(3, page="c")
    assert store.save_room("UNKN0WN000", room(2), 1, HOUR) is False
    assert store.load_room("UNKN0WN000") is None, "a failed save creates nothing"


def test_concurrent_compare_and_set_loses_no_update(make_store: Callable[..., Store]) -> None:
    """20 threads (each with its own store object) add one to a counter by load + CAS."""
    make_store().create_room("CA5000000", room(1, n=0), HOUR)

    def add_one(_i: int) -> None:
        s = make_store()
        while True:
            current = s.load_room("CA5000000")
            assert current is not None
            new = {**current, "version": current["version"] + 1, "n": current["n"] + 1}
            if s.save_room("CA5000000", new, current["version"], HOUR):
                return

    assert run_at_once(20, add_one) == []
    final = make_store().load_room("CA5000000")
    assert final is not None and final["n"] == 20 and final["version"] == 21


def test_answers_per_slot_replace_by_voter(store: Store) -> None:
    store.create_room("R00M000000", room(), HOUR)
    store.put_answer("R00M000000", "q:1", "a" * 32, {"text": "1/3"}, HOUR)
    store.put_answer("R00M000000", "q:1", "b" * 32, {"text": "0.5"}, HOUR)
    store.put_answer("R00M000000", "q:1", "a" * 32, {"text": "2"}, HOUR)  # replaces
    store.put_answer("R00M000000", "q:2", "a" * 32, {"text": "3"}, HOUR)
    assert store.answers("R00M000000", "q:1") == {
        "a" * 32: {"text": "2"},
        "b" * 32: {"text": "0.5"},
    }
    assert store.answer_of("R00M000000", "q:2", "a" * 32) == {"text": "3"}
    assert store.answer_of("R00M000000", "q:2", "b" * 32) is None
    assert store.answers("R00M000000", "q:3") == {}
    store.delete_answers("R00M000000", "q:1")
    assert store.answers("R00M000000", "q:1") == {}
    assert store.answers("R00M000000", "q:2") == {"a" * 32: {"text": "3"}}


def test_deleting_a_room_deletes_every_answer(store: Store) -> None:
    for code in ("DE1000000", "KEEP000000"):
        store.create_room(code, room(), HOUR)
        for slot in ("x:1", "x:2", "y:1"):
            store.put_answer(code, slot, "c" * 32, {"text": slot}, HOUR)
    store.delete_room("DE1000000")
    assert store.load_room("DE1000000") is None
    for slot in ("x:1", "x:2", "y:1"):
        assert store.answers("DE1000000", slot) == {}
        assert store.answers("KEEP000000", slot) == {"c" * 32: {"text": slot}}
    store.put_answer("DE1000000", "x:1", "d" * 32, {"text": "late"}, HOUR)
    assert store.answers("DE1000000", "x:1") == {}, "no orphan answers for a closed room"
    assert store.create_room("DE1000000", room(), HOUR) is True
    assert store.answers("DE1000000", "x:1") == {}


def test_rooms_and_answers_expire(
    backend: str, make_store: Callable[..., Store], clock: FakeClock
) -> None:
    store = make_store(clock=clock)
    store.create_room("EXP0000000", room(), 1)
    store.create_room("LONG000000", room(), HOUR)
    store.put_answer("EXP0000000", "s:1", "e" * 32, {"text": "1"}, 1)
    store.put_answer("LONG000000", "s:1", "e" * 32, {"text": "1"}, HOUR)
    assert store.answer_of("EXP0000000", "s:1", "e" * 32) == {"text": "1"}
    wait_until_expired(backend, clock, 1.2)
    assert store.load_room("EXP0000000") is None
    assert store.answers("EXP0000000", "s:1") == {}
    assert store.answer_of("EXP0000000", "s:1", "e" * 32) is None
    assert store.save_room("EXP0000000", room(2), 1, HOUR) is False, "no saving a dead room"
    assert store.load_room("LONG000000") == room()
    assert store.answers("LONG000000", "s:1") == {"e" * 32: {"text": "1"}}
    assert store.create_room("EXP0000000", room(), HOUR) is True, "an expired code is free"


def test_save_renews_the_ttl(
    backend: str, make_store: Callable[..., Store], clock: FakeClock
) -> None:
    store = make_store(clock=clock)
    store.create_room("REN0000000", room(1), 1)
    assert store.save_room("REN0000000", room(2), 1, HOUR)
    wait_until_expired(backend, clock, 1.2)
    assert store.load_room("REN0000000") == room(2)


def test_hits_count_within_a_fixed_window(
    backend: str, make_store: Callable[..., Store], clock: FakeClock
) -> None:
    store = make_store(clock=clock)
    if backend == "redis":  # start right after a window boundary of the wall clock
        time.sleep(1 - time.time() % 1 + 0.02)
    assert [store.hit("voter:x", 1) for _ in range(3)] == [1, 2, 3]
    assert store.hit("voter:y", 1) == 1, "buckets are independent"
    assert store.hit("voter:x", 60) == 1, "each window length counts apart"
    wait_until_expired(backend, clock, 1.0)
    assert store.hit("voter:x", 1) == 1, "a new window starts at one"


def test_hits_are_atomic_under_threads(make_store: Callable[..., Store]) -> None:
    seen: list[int] = []
    assert run_at_once(40, lambda _i: seen.append(make_store().hit("room:busy", 3600))) == []
    assert sorted(seen) == list(range(1, 41))


def test_values_are_json(store: Store) -> None:
    store.create_room("J50N000000", room(nested={"a": [1, 2.5, None, "é"]}), HOUR)
    assert store.load_room("J50N000000") == room(nested={"a": [1, 2.5, None, "é"]})
    with pytest.raises(ValueError):
        store.create_room("NAN0000000", room(x=float("nan")), HOUR)
    with pytest.raises(ValueError, match="version"):
        store.create_room("NOVER00000", {"page": "x"}, HOUR)


def test_ping_passes_on_a_live_store(store: Store) -> None:
    store.ping()


# --------------------------------------------------------------------------- per backend


def test_redis_keys_are_prefixed_and_all_expire(redis_url: str, redis_client: Any) -> None:
    store = RedisStore(redis_url)
    store.create_room("KEY0000000", room(1), HOUR)
    store.save_room("KEY0000000", room(2), 1, HOUR)
    store.put_answer("KEY0000000", "q:1", "f" * 32, {"text": "1"}, HOUR)
    store.hit("voter:" + "f" * 32, 60)
    keys = redis_client.keys("*")
    assert len(keys) == 4, keys
    for key in keys:
        assert key.startswith(PREFIX), key
        assert 0 < redis_client.ttl(key) <= HOUR, key
    store.delete_room("KEY0000000")
    assert [k for k in redis_client.keys("*") if ":hits:" not in k] == []


def test_sqlite_purges_expired_rows(tmp_path: Path, clock: FakeClock) -> None:
    store = SQLiteStore(tmp_path / "p.sqlite3", clock=clock)
    store.create_room("OLD0000000", room(), 10)
    store.put_answer("OLD0000000", "q:1", "a" * 32, {"text": "1"}, 10)
    store.hit("b", 10)
    tables = ("rooms", "answers", "hits")

    def counts() -> list[int]:
        with sqlite3.connect(tmp_path / "p.sqlite3") as raw:
            return [raw.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables]

    clock.advance(20)
    store.create_room("NEW0000000", room(), HOUR)
    assert counts() == [2, 1, 1], "at most once a minute (the first write purged)"
    clock.advance(sqlite_store.PURGE_EVERY_S)
    store.create_room("NEW1000000", room(), HOUR)  # a write purges
    assert counts() == [2, 0, 0]
    store.create_room("OLD1000000", room(), 10)
    store.hit("b", 10)
    clock.advance(sqlite_store.PURGE_EVERY_S)
    assert store.hit("c", 10) == 1  # so does a hit
    assert counts() == [2, 0, 1]


def test_sqlite_file_is_in_wal_mode_and_shared_by_store_objects(tmp_path: Path) -> None:
    a, b = SQLiteStore(tmp_path / "w.sqlite3"), SQLiteStore(tmp_path / "w.sqlite3")
    a.create_room("SHARE00000", room(), HOUR)
    assert b.load_room("SHARE00000") == room()
    with sqlite3.connect(tmp_path / "w.sqlite3") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# --------------------------------------------------------------------------- unavailable


def closed_port() -> int:
    from deploy.replicas import free_port

    return free_port()  # nothing listens on it once the probe socket is closed


def every_call(store: Store) -> list[Callable[[], object]]:
    return [
        lambda: store.create_room("X000000000", room(), 60),
        lambda: store.load_room("X000000000"),
        lambda: store.save_room("X000000000", room(2), 1, 60),
        lambda: store.delete_room("X000000000"),
        lambda: store.put_answer("X000000000", "q:1", "a" * 32, {}, 60),
        lambda: store.answers("X000000000", "q:1"),
        lambda: store.answer_of("X000000000", "q:1", "a" * 32),
        lambda: store.delete_answers("X000000000", "q:1"),
        lambda: store.hit("b", 60),
        store.ping,
    ]


@pytest.mark.parametrize("which", ["redis closed port", "redis bad url", "sqlite no dir"])
def test_an_unreachable_store_raises_store_unavailable_fast(which: str, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    store: Store = {
        "redis closed port": lambda: RedisStore(f"redis://127.0.0.1:{closed_port()}/0"),
        "redis bad url": lambda: RedisStore("http://not-redis"),
        "sqlite no dir": lambda: SQLiteStore(tmp_path / "a-file" / "poll.sqlite3"),
    }[which]()
    for call in every_call(store):
        start = time.monotonic()
        with pytest.raises(StoreUnavailable, match=r"^The poll store \((Redis|SQLite)\)") as err:
            call()
        assert time.monotonic() - start < 2.0
        assert "127.0.0.1" not in str(err.value) and str(tmp_path) not in str(err.value)


def test_a_blackholed_redis_times_out_within_two_seconds() -> None:
    """A server that accepts and never answers: the 1 s socket timeout, no retry."""
    import socket

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        store = RedisStore(f"redis://127.0.0.1:{listener.getsockname()[1]}/0")
        start = time.monotonic()
        with pytest.raises(StoreUnavailable, match="timed out"):
            store.ping()
        assert time.monotonic() - start < 2.0


def test_a_locked_sqlite_file_is_reported_not_raised_raw(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    SQLiteStore(path).ping()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            SQLiteStore(path).hit("b", 60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


class _LosesTheRaceToWal:
    """A connection whose switch to WAL answers "locked" at once, as SQLite does for one of
    two processes racing to switch a new file; everything else goes to the real one."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if "journal_mode" in sql:
            err = sqlite3.OperationalError("database is locked")
            err.sqlite_errorcode = sqlite3.SQLITE_BUSY
            raise err
        return self.conn.execute(sql, *args)

    def close(self) -> None:
        self.conn.close()


@pytest.mark.parametrize("busy_opens", [2, 10_000], ids=["two races lost", "every race lost"])
def test_a_new_files_race_to_wal_is_retried_then_reported(
    busy_opens: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two lost races: the third open works; losing for SETUP_RETRY_S: StoreUnavailable."""
    real_connect, opened = sqlite3.connect, []

    def connect(*args: Any, **kwargs: Any) -> Any:
        conn = real_connect(*args, **kwargs)
        opened.append(conn)
        return _LosesTheRaceToWal(conn) if len(opened) <= busy_opens else conn

    monkeypatch.setattr(sqlite_store.sqlite3, "connect", connect)
    monkeypatch.setattr(sqlite_store, "SETUP_RETRY_S", 0.3)
    store = SQLiteStore(tmp_path / "race.sqlite3")
    if busy_opens == 2:
        assert store.hit("b", 60) == 1 and len(opened) == 3
    else:
        with pytest.raises(StoreUnavailable, match="locked"):
            store.hit("b", 60)
        assert 3 < len(opened) < 200  # retried, a few ms apart, until the deadline


def test_open_store_picks_the_backend_from_the_environment(tmp_path: Path) -> None:
    redis_store = open_store({"LNVIZ_REDIS_URL": "redis://lnviz-redis:6379/0"})
    assert isinstance(redis_store, RedisStore)
    sqlite_store = open_store({"LNVIZ_POLL_DB": str(tmp_path / "x.sqlite3")})
    assert isinstance(sqlite_store, SQLiteStore) and sqlite_store.path == tmp_path / "x.sqlite3"
    default = open_store({"LNVIZ_REDIS_URL": " "})
    assert isinstance(default, SQLiteStore) and default.path.name == "lnviz-poll.sqlite3"


def _answer_in_child(store: SQLiteStore, queue: Any) -> None:
    store.put_answer("F0RK000000", "q:1", "b" * 32, {"text": "child"}, HOUR)
    queue.put((store.answers("F0RK000000", "q:1"), len(store._inherited)))


def test_a_forked_process_opens_its_own_connection(tmp_path: Path) -> None:
    """A store object used before a fork keeps working in the child and in the parent."""
    import multiprocessing

    store = SQLiteStore(tmp_path / "fork.sqlite3")
    store.create_room("F0RK000000", room(), HOUR)
    store.put_answer("F0RK000000", "q:1", "a" * 32, {"text": "parent"}, HOUR)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_answer_in_child, args=(store, queue))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    seen, inherited = queue.get(timeout=5)
    assert len(seen) == 2
    assert inherited == 1, "the child set the parent's connection aside and opened its own"
    assert store.answers("F0RK000000", "q:1") == {
        "a" * 32: {"text": "parent"},
        "b" * 32: {"text": "child"},
    }


def test_redis_going_away_and_coming_back(tmp_path: Path) -> None:
    """A stopped server: StoreUnavailable within two seconds; restarted on its port: the
    same store object works again (its dropped connection is retried once)."""
    import subprocess

    from deploy.replicas import free_port
    from tests.conftest import require_tool
    from tests.redis_server import REDIS_SERVER, start_redis, wait_ready

    require_tool(REDIS_SERVER)
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = start_redis(port, tmp_path)
    try:
        assert wait_ready(url, server)
        store = RedisStore(url)
        store.create_room("BACK000000", room(), HOUR)
        server.kill()
        server.wait(10)
        start = time.monotonic()
        with pytest.raises(StoreUnavailable, match="cannot be reached"):
            store.load_room("BACK000000")
        assert time.monotonic() - start < 2.0
        server = start_redis(port, tmp_path)
        assert wait_ready(url, server)
        assert store.load_room("BACK000000") is None, "no persistence: the room is gone"
        assert store.create_room("BACK000000", room(), HOUR) is True
    finally:
        server.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
