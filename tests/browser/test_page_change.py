"""No state leaks between pages in a real browser: a page reached from the sidebar opens at
its own defaults (ε set on one page does not carry to the next) and at its top (issue 37)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlparse

import pytest

from .helpers import Visit, interact, wait_ready

pytestmark = pytest.mark.browser

MAIN = "[data-testid=stMain]"


def _eps_shown(visit: Visit) -> str:
    """The value written on the first ε slider of the page."""
    slider = visit.page.locator("[data-testid=stSlider]", has_text="ε (added to the variance)")
    return slider.first.locator("[data-testid=stSliderThumbValue]").inner_text().strip()


def _to(visit: Visit, title: str) -> None:
    link = visit.page.locator(".st-key-lnviz-course-nav a", has_text=title).first
    interact(visit.page, link.click)
    visit.page.wait_for_function(
        "(t) => [...document.querySelectorAll('h1')].some((h) => h.innerText.includes(t))",
        arg=title.split()[0],
        timeout=30_000,
    )
    wait_ready(visit.page)


def test_a_sidebar_move_opens_the_next_page_at_its_defaults_and_its_top(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", {"eps": "0.01"})
    page = visit.page
    assert _eps_shown(visit) == "0.01"
    for title, path, own in (
        ("Gain and bias", "gain-and-bias", "0"),
        ("Invariances", "invariance", "1/3"),
        ("Why normalize?", "why-normalize", None),  # no ε: its top is checked
    ):
        page.locator(MAIN).evaluate("(m) => m.scrollTo(0, 2400)")
        assert page.locator(MAIN).evaluate("(m) => m.scrollTop") > 1000
        _to(visit, title)
        assert urlparse(page.url).path == f"/{path}"
        assert "eps" not in parse_qs(urlparse(page.url).query), page.url
        assert own is None or _eps_shown(visit) == own, path
        page.wait_for_timeout(500)  # late layout shifts would move the top away
        assert page.locator(MAIN).evaluate("(m) => m.scrollTop") == 0, path
    assert page.locator(".st-key-lnviz-page-top").bounding_box() is None  # takes no space
