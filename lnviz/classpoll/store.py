"""Where a class poll's rooms and answers live: one interface, two backends.

`SQLiteStore` serves one machine (any number of processes on one file, WAL);
`RedisStore` serves replicas on several machines. Every value is JSON, every room and
answer carries a time to live, and every backend error becomes `StoreUnavailable`.
`open_store()` picks the backend from the environment (LNVIZ_REDIS_URL, LNVIZ_POLL_DB).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from lnviz.classpoll._base import Store, StoreUnavailable
from lnviz.classpoll.redis_store import PREFIX, RedisStore
from lnviz.classpoll.sqlite_store import SQLiteStore

__all__ = ["PREFIX", "RedisStore", "SQLiteStore", "Store", "StoreUnavailable", "open_store"]


def open_store(env: Mapping[str, str] = os.environ) -> Store:
    """RedisStore if LNVIZ_REDIS_URL is set, else SQLiteStore at LNVIZ_POLL_DB (default: a
    file in the system's temporary directory, shared by the processes of this machine)."""
    url = env.get("LNVIZ_REDIS_URL", "").strip()
    if url:
        return RedisStore(url)
    path = env.get("LNVIZ_POLL_DB", "").strip()
    return SQLiteStore(path or Path(tempfile.gettempdir()) / "lnviz-poll.sqlite3")
