"""The class poll on two replicas behind nginx with Redis (deploy/replicas.py): a lecturer and
students pinned to different replicas see one room, and a replica that dies loses none of
the answers its students gave.

Needs Debian's nginx and redis-server: skipped locally without them, failed under CI=true.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from deploy.replicas import Balancer, balanced_app, route
from tests.conftest import require_tool
from tests.redis_server import running_redis

from .helpers import EXCEPTION
from .test_balancer import Visitor, new_visitor, visit, warm
from .test_class_poll import WAIT_MS

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


@pytest.fixture
def balancer_with_redis(browser: Browser, tmp_path: Path) -> Iterator[tuple[Balancer, str]]:
    require_tool(shutil.which("nginx") or "/usr/sbin/nginx")
    with running_redis(tmp_path) as url:
        try:
            with balanced_app(2, redis_url=url) as bal:
                warm(browser, bal)
                yield bal, url
        except RuntimeError as err:
            pytest.fail(f"the balanced app did not start: {err}", pytrace=False)


def replica_of(visitor: Visitor) -> int:
    """The replica nginx pinned the visitor to (its route cookie)."""
    cookie = visitor.cookie()
    assert cookie is not None and re.fullmatch(r"r\d", cookie), cookie
    return int(cookie[1:])


def answer(student: Visitor, text: str) -> None:
    box = student.page.locator(".st-key-lnviz-class-box")
    box.get_by_text("What is the variance of its core").wait_for(timeout=WAIT_MS)
    box.get_by_role("textbox", name="Your answer").fill(text)
    box.get_by_role("button", name="Send").click()
    box.get_by_text(f"Answer received: {text}").wait_for(timeout=WAIT_MS)


def test_one_room_across_replicas_and_no_answer_lost_when_one_dies(
    browser: Browser, balancer_with_redis: tuple[Balancer, str]
) -> None:
    import redis

    bal, url = balancer_with_redis
    lecturer = new_visitor(browser, bal)
    visit(lecturer, "epsilon", "present=true")
    page = lecturer.page
    page.get_by_role("button", name="Start a class poll").click()
    code = page.get_by_text(re.compile(r"Class [0-9A-Z]{5}-[0-9A-Z]{5}")).first
    code.wait_for()
    room = re.search(r"[0-9A-Z]{5}-[0-9A-Z]{5}", code.inner_text()).group(0)
    page.get_by_role("button", name="Ask the class").click()

    students: list[Visitor] = []
    while {replica_of(s) for s in students} != {0, 1} and len(students) < 6:
        student = new_visitor(browser, bal)  # newcomers take the replicas in turn
        visit(student, "epsilon", f"room={room}")
        students.append(student)
    assert {replica_of(s) for s in students} == {0, 1}
    for n, student in enumerate(students):
        answer(student, f"{n + 1}/3")
    page.get_by_text(re.compile(rf"· {len(students)} answered")).first.wait_for(timeout=WAIT_MS)
    client = redis.Redis.from_url(url, decode_responses=True)
    held = [k for k in client.scan_iter("lnviz:poll:*") if room.replace("-", "") in k]
    client.close()
    assert held, "the room is in Redis, not in a replica's own store"

    # the replica of a student away from the lecturer's dies; the answer stays in Redis
    (away,) = [s for s in students if replica_of(s) != replica_of(lecturer)][:1]
    bal.kill_replica(replica_of(away))
    away.page.reload(wait_until="domcontentloaded")
    box = away.page.locator(".st-key-lnviz-class-box")
    box.get_by_text("Answer received").wait_for(timeout=30_000)
    assert away.cookie() == route(replica_of(lecturer)), "re-pinned to the live replica"
    page.get_by_text(re.compile(rf"· {len(students)} answered")).first.wait_for(timeout=WAIT_MS)
    for visitor in (lecturer, away):
        assert not visitor.page.locator(EXCEPTION).all_inner_texts()
        assert not visitor.page_errors
