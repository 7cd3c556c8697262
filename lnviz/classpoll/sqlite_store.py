"""The SQLite store: one file shared by the processes of one machine (WAL)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from lnviz.classpoll._base import StoreUnavailable, dump, room_version, ttl_seconds

BUSY_TIMEOUT_MS = 2000  # SQLite waits this long for another process's write lock
# Processes opening a new file at once race to switch it to WAL; where waiting could
# deadlock, SQLite answers "locked" at once without its busy timeout (sqlite3_busy_handler's
# documentation), so a connection's setup is retried for this long.
SETUP_RETRY_S = 5.0
PURGE_EVERY_S = 60.0  # expired rows are deleted at most this often (per store object)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL, expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, slot TEXT NOT NULL, voter TEXT NOT NULL, data TEXT NOT NULL,
    expires REAL NOT NULL, PRIMARY KEY (code, slot, voter)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hits (
    key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_expires ON rooms (expires);
CREATE INDEX IF NOT EXISTS answers_expires ON answers (expires);
CREATE INDEX IF NOT EXISTS hits_expires ON hits (expires);
"""


def _busy(err: sqlite3.OperationalError) -> bool:
    """SQLite said "busy" (Python's own OperationalErrors carry no SQLite code)."""
    return (getattr(err, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_BUSY


class SQLiteStore:
    """One SQLite file for one machine's processes: WAL, busy timeout, a connection per process."""

    def __init__(self, path: str | os.PathLike[str], *, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._inherited: list[sqlite3.Connection] = []  # a parent's, never closed here
        self._purged = -math.inf

    @contextlib.contextmanager
    def _db(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """The connection under the lock, reopened after a fork; `write`: in BEGIN IMMEDIATE."""
        with self._lock:
            try:
                conn = self._connect()
                if not write:
                    yield conn
                    return
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                reason = " ".join(str(err).split())[:80] or type(err).__name__
                message = f"The poll store (SQLite) is unavailable: {reason}."
                raise StoreUnavailable(message) from err

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            if self._pid == os.getpid():
                return self._conn
            self._inherited.append(self._conn)  # SQLite: no connection crosses a fork
            self._conn = None
        deadline = time.monotonic() + SETUP_RETRY_S
        while True:
            try:
                conn = self._open()
                break
            except sqlite3.OperationalError as err:
                if not _busy(err) or time.monotonic() > deadline:
                    raise
                time.sleep(random.uniform(0.005, 0.05))  # apart from the others that lost
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _open(self) -> sqlite3.Connection:
        """A new connection, set up: busy timeout, WAL, the tables (closed if that fails)."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")  # polls are short-lived data
            conn.executescript(_SCHEMA)
        except BaseException:
            conn.close()
            raise
        return conn

    def _maybe_purge(self, conn: sqlite3.Connection, now: float) -> None:
        """Delete expired rows, at most once a minute (indexed on `expires`: cheap)."""
        if now - self._purged < PURGE_EVERY_S:
            return
        self._purged = now
        for table in ("rooms", "answers", "hits"):
            conn.execute(f"DELETE FROM {table} WHERE expires <= ?", (now,))

    def create_room(self, code: str, room: dict, ttl_s: int) -> bool:
        """Store a new room; False if a live room has this code."""
        now = self._clock()
        with self._db(write=True) as conn:
            row = conn.execute("SELECT expires FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is not None and row[0] > now:
                return False
            conn.execute("DELETE FROM rooms WHERE code = ?", (code,))
            conn.execute("DELETE FROM answers WHERE code = ?", (code,))  # an expired room's
            conn.execute(
                "INSERT INTO rooms (code, version, data, expires) VALUES (?, ?, ?, ?)",
                (code, room_version(room), dump(room), now + ttl_seconds(ttl_s)),
            )
            self._maybe_purge(conn, now)
        return True

    def load_room(self, code: str) -> dict | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT data FROM rooms WHERE code = ? AND expires > ?", (code, self._clock())
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def save_room(self, code: str, room: dict, expect_version: int, ttl_s: int) -> bool:
        """Compare-and-set: written only if the stored room's version is `expect_version`."""
        now = self._clock()
        expires = now + ttl_seconds(ttl_s)
        with self._db() as conn:
            cur = conn.execute(
                "UPDATE rooms SET version = ?, data = ?, expires = ? "
                "WHERE code = ? AND version = ? AND expires > ?",
                (room_version(room), dump(room), expires, code, expect_version, now),
            )
            return cur.rowcount == 1

    def delete_room(self, code: str) -> None:
        with self._db(write=True) as conn:
            conn.execute("DELETE FROM rooms WHERE code = ?", (code,))
            conn.execute("DELETE FROM answers WHERE code = ?", (code,))

    def put_answer(self, code: str, slot: str, voter: str, answer: dict, ttl_s: int) -> None:
        """Store or replace one voter's answer in a slot (nothing if the room is gone)."""
        now = self._clock()
        with self._db() as conn:
            conn.execute(
                "INSERT INTO answers (code, slot, voter, data, expires) "
                "SELECT ?, ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM rooms WHERE code = ? AND expires > ?) "
                "ON CONFLICT (code, slot, voter) DO UPDATE "
                "SET data = excluded.data, expires = excluded.expires",
                (code, slot, voter, dump(answer), now + ttl_seconds(ttl_s), code, now),
            )

    def answers(self, code: str, slot: str) -> dict[str, dict]:
        with self._db() as conn:
            rows = conn.execute(
                "SELECT voter, data FROM answers WHERE code = ? AND slot = ? AND expires > ?",
                (code, slot, self._clock()),
            ).fetchall()
        return {voter: json.loads(data) for voter, data in rows}

    def answer_of(self, code: str, slot: str, voter: str) -> dict | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT data FROM answers WHERE code = ? AND slot = ? AND voter = ? "
                "AND expires > ?",
                (code, slot, voter, self._clock()),
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def delete_answers(self, code: str, slot: str) -> None:
        with self._db() as conn:
            conn.execute("DELETE FROM answers WHERE code = ? AND slot = ?", (code, slot))

    def hit(self, bucket: str, window_s: int) -> int:
        """Count one hit in the current fixed window of `window_s` seconds; the count so far."""
        now = self._clock()
        window = int(now // window_s)
        with self._db() as conn:
            (count,) = conn.execute(
                "INSERT INTO hits (key, count, expires) VALUES (?, 1, ?) "
                "ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING count",
                (f"{bucket}@{window_s}:{window}", (window + 1) * window_s),
            ).fetchone()
            self._maybe_purge(conn, now)
        return int(count)

    def ping(self) -> None:
        """Raise StoreUnavailable unless the file can be opened and written."""
        with self._db(write=True):
            pass

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
