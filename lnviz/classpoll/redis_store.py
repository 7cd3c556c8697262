"""The Redis store: one server shared by every replica, a TTL on every key."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

from lnviz.classpoll._base import StoreUnavailable, dump, room_version, ttl_seconds

PREFIX = "lnviz:poll:"  # every key of the poll starts with this
TIMEOUT_S = 1.0  # socket and connect timeouts: an unreachable store fails fast
WATCH_ATTEMPTS = 50  # a room's deletion retried while answers keep arriving

# KEYS: the room, its slot set (an expired room's, dropped). ARGV: data, version, ttl.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'version', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the room. ARGV: data, expected version, new version, ttl. 1 if written.
_SAVE = """
local v = redis.call('HGET', KEYS[1], 'version')
if not v or tonumber(v) ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'version', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
# KEYS: room, the slot's answers, the room's slot set. ARGV: voter, data, slot, ttl.
_PUT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[4])
return 1
"""


class RedisStore:
    """One Redis for every replica: room and answer hashes, slot sets, counters, all with TTL."""

    def __init__(self, url: str, *, timeout_s: float = TIMEOUT_S):
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._watch: type[BaseException] = redis.WatchError  # a watched key changed: retry
        self._client: Any = None
        self._bad_url = ""
        try:
            self._client = redis.Redis.from_url(
                url,
                socket_timeout=timeout_s,
                socket_connect_timeout=timeout_s,
                # one immediate retry of a dropped connection (a restarted server), none
                # after a timeout: an unreachable store answers within about timeout_s
                retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
                health_check_interval=30,
                decode_responses=True,
            )
        except (ValueError, TypeError):
            self._bad_url = "LNVIZ_REDIS_URL is not a Redis URL such as redis://host:6379/0"
        else:
            self._create = self._client.register_script(_CREATE)
            self._save = self._client.register_script(_SAVE)
            self._put = self._client.register_script(_PUT)

    @contextlib.contextmanager
    def _redis(self) -> Iterator[Any]:
        if self._bad_url:
            raise StoreUnavailable(f"The poll store (Redis) is unavailable: {self._bad_url}.")
        try:
            yield self._client
        except self._errors as err:
            kind = "timed out" if "Timeout" in type(err).__name__ else type(err).__name__
            if str(err).startswith("OOM"):
                kind = "it is full"
            raise StoreUnavailable(f"The poll store (Redis) cannot be reached: {kind}.") from err

    @staticmethod
    def _room(code: str) -> str:
        return f"{PREFIX}room:{code}"

    @staticmethod
    def _slots(code: str) -> str:
        return f"{PREFIX}slots:{code}"

    @staticmethod
    def _answers(code: str, slot: str) -> str:
        return f"{PREFIX}answers:{code}:{slot}"

    def create_room(self, code: str, room: dict, ttl_s: int) -> bool:
        """Store a new room (a Lua script: one round trip); False if a live room has this code."""
        keys = [self._room(code), self._slots(code)]
        args = [dump(room), room_version(room), ttl_seconds(ttl_s)]
        with self._redis():
            return bool(self._create(keys=keys, args=args))

    def load_room(self, code: str) -> dict | None:
        with self._redis() as r:
            data = r.hget(self._room(code), "data")
        return None if data is None else json.loads(data)

    def save_room(self, code: str, room: dict, expect_version: int, ttl_s: int) -> bool:
        """Compare-and-set (a Lua script): written only if the stored version matches."""
        args = [dump(room), int(expect_version), room_version(room), ttl_seconds(ttl_s)]
        with self._redis():
            return bool(self._save(keys=[self._room(code)], args=args))

    def delete_room(self, code: str) -> None:
        """The room, every slot's answers and the slot list, in one transaction."""
        slots_key = self._slots(code)
        with self._redis() as r:
            for _attempt in range(WATCH_ATTEMPTS):
                with r.pipeline() as pipe:
                    try:
                        pipe.watch(slots_key)
                        slots = pipe.smembers(slots_key)
                        pipe.multi()
                        pipe.delete(self._room(code), slots_key)
                        for slot in slots:
                            pipe.delete(self._answers(code, slot))
                        pipe.execute()
                        return
                    except self._watch:
                        continue
        raise StoreUnavailable("The poll store (Redis) is too busy to close the room: retry.")

    def put_answer(self, code: str, slot: str, voter: str, answer: dict, ttl_s: int) -> None:
        """Store or replace one voter's answer in a slot (nothing if the room is gone)."""
        keys = [self._room(code), self._answers(code, slot), self._slots(code)]
        with self._redis():
            self._put(keys=keys, args=[voter, dump(answer), slot, ttl_seconds(ttl_s)])

    def answers(self, code: str, slot: str) -> dict[str, dict]:
        with self._redis() as r:
            found = r.hgetall(self._answers(code, slot))
        return {voter: json.loads(data) for voter, data in found.items()}

    def answer_of(self, code: str, slot: str, voter: str) -> dict | None:
        with self._redis() as r:
            data = r.hget(self._answers(code, slot), voter)
        return None if data is None else json.loads(data)

    def delete_answers(self, code: str, slot: str) -> None:
        with self._redis() as r, r.pipeline() as pipe:
            pipe.delete(self._answers(code, slot))
            pipe.srem(self._slots(code), slot)
            pipe.execute()

    def hit(self, bucket: str, window_s: int) -> int:
        """Count one hit in the current fixed window of `window_s` seconds; the count so far."""
        window = int(time.time() // window_s)
        key = f"{PREFIX}hits:{bucket}@{window_s}:{window}"
        with self._redis() as r, r.pipeline() as pipe:  # MULTI/EXEC: atomic
            pipe.incr(key)
            pipe.expire(key, int(window_s) + 1)
            count, _ = pipe.execute()
        return int(count)

    def ping(self) -> None:
        with self._redis() as r:
            r.ping()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
