"""What both stores share: the interface, its one error, and how values are written."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable


class StoreUnavailable(Exception):
    """The store cannot be reached (message safe to show)."""


@runtime_checkable
class Store(Protocol):
    """Rooms (compare-and-set by version), answers per room and slot, rate counters."""

    def create_room(self, code: str, room: dict, ttl_s: int) -> bool: ...
    def load_room(self, code: str) -> dict | None: ...
    def save_room(self, code: str, room: dict, expect_version: int, ttl_s: int) -> bool: ...
    def delete_room(self, code: str) -> None: ...
    def put_answer(self, code: str, slot: str, voter: str, answer: dict, ttl_s: int) -> None: ...
    def answers(self, code: str, slot: str) -> dict[str, dict]: ...
    def answer_of(self, code: str, slot: str, voter: str) -> dict | None: ...
    def delete_answers(self, code: str, slot: str) -> None: ...
    def hit(self, bucket: str, window_s: int) -> int: ...
    def ping(self) -> None: ...


def ttl_seconds(ttl_s: float) -> int:
    """A time to live in whole seconds, at least one (Redis EXPIRE takes integers)."""
    return max(1, math.ceil(ttl_s))


def room_version(room: Mapping[str, Any]) -> int:
    """The room's integer version, the number compare-and-set compares."""
    version = room.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("a room needs an integer 'version'")
    return version


def dump(value: Mapping[str, Any]) -> str:
    """Compact JSON; NaN and infinities refused (ValueError), as JSON has none."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)
