"""Where a class poll's rooms and answers live: SQLite on one machine, Redis for replicas."""

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
    """RedisStore if LNVIZ_REDIS_URL is set, else SQLiteStore at LNVIZ_POLL_DB or a temp file."""
    url = env.get("LNVIZ_REDIS_URL", "").strip()
    if url:
        return RedisStore(url)
    path = env.get("LNVIZ_POLL_DB", "").strip()
    return SQLiteStore(path or Path(tempfile.gettempdir()) / "lnviz-poll.sqlite3")
