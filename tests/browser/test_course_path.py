"""A student walks the course in a real browser: from the home page's "Start the course"
through every step with the "Next" links only."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlparse

import pytest

from lnviz.content import registry

from .helpers import Visit, exception_report, interact, wait_ready

pytestmark = pytest.mark.browser


def _path(url: str) -> str:
    return urlparse(url).path.strip("/")


def _click_link(visit: Visit, text: str) -> None:
    link = visit.page.locator("[data-testid=stMain] a", has_text=text).first
    link.scroll_into_view_if_needed()
    interact(visit.page, link.click)
    visit.page.wait_for_timeout(200)  # the address bar follows the client-side switch
    wait_ready(visit.page)


def test_a_student_walks_the_whole_course_with_next_links_only(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("")
    _click_link(visit, "Start the course")
    visited = [_path(visit.page.url)]
    for _ in range(len(registry.COURSE)):
        report = exception_report(visit)
        assert not report, (visited[-1], report)
        k = len(visited)
        step = visit.page.get_by_text(f"step {k} of {len(registry.COURSE)}")
        assert step.count() >= 1, f"{visited[-1]} does not say it is step {k}"
        nxt = visit.page.locator("[data-testid=stMain] a", has_text="Next:")
        if nxt.count() == 0:
            break
        _click_link(visit, "Next:")
        visited.append(_path(visit.page.url))
    assert visited == [p.url_path for p in registry.COURSE]
    assert not visit.page_errors
