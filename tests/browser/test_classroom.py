"""Classroom features in a real browser: embedding, presentation mode, the share box."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from . import helpers
from .helpers import (
    Visit,
    chart_count,
    exception_report,
    interact,
    slider_input,
    wait_charts,
    wait_theme,
)
from .test_browser_pages import PAGES

pytestmark = pytest.mark.browser


def test_embedded_page_shows_the_page_alone(open_page: Callable[..., Visit]) -> None:
    visit = open_page("epsilon", {"embed": "true", "eps": "4/3"})
    page = visit.page
    (case,) = [c for c in PAGES if c.url_path == "epsilon"]
    wait_charts(page, case.min_charts)
    assert not exception_report(visit)
    assert "streamlit-embedded" in (
        page.locator("[data-testid=stApp]").get_attribute("class") or ""
    )
    assert page.locator("[data-testid=stSidebar]").count() == 0  # no navigation, no share box
    assert chart_count(page) >= case.min_charts  # the page's charts, as outside a frame
    assert page.locator(".st-key-eps [data-testid=stSliderThumbValue]").inner_text() == "4/3"


# A page with a deep link in the render table is embedded at that link by
# test_browser_pages' deep-link test (a page load costs several CPU-seconds here).
@pytest.mark.parametrize(
    "case", [c for c in PAGES if not c.deep_link_query], ids=lambda c: c.url_path or "home"
)
def test_every_page_embeds_cleanly(open_page: Callable[..., Visit], case: object) -> None:
    visit = open_page(case.url_path, {"embed": "true"})  # type: ignore[attr-defined]
    helpers.assert_embeds_cleanly(visit, case.min_charts)  # type: ignore[attr-defined]


def test_presentation_mode_enlarges_charts_and_folds_prose(open_page: Callable[..., Visit]) -> None:
    normal = open_page("epsilon")
    wait_charts(normal.page, 6)
    height = normal.page.locator(".js-plotly-plot").first.bounding_box()["height"]
    visit = open_page("epsilon", {"present": "true"})
    page = visit.page
    wait_charts(page, 6)
    assert not exception_report(visit)
    assert page.locator(".js-plotly-plot").first.bounding_box()["height"] > 1.3 * height
    assert page.get_by_text("About this page").count() == 1
    assert page.locator(".st-key-present input[type=checkbox]").is_checked()


def test_share_box_follows_every_control(open_page: Callable[..., Visit]) -> None:
    visit = open_page("epsilon", {"eps": "4/3", "a": "1"})  # a opens its going-further part
    page = visit.page
    box = page.frame_locator("[data-testid=stSidebar] iframe").first.locator("#u")
    box.wait_for()
    assert unquote(box.input_value()).endswith("/epsilon?eps=4/3&a=1")
    interact(page, lambda: (slider_input(page, "a").focus(), page.keyboard.press("ArrowLeft")))
    with contextlib.suppress(AssertionError):  # the box polls the address every 0.6 s
        expect(box).to_have_value(re.compile("a=0.5"), timeout=10_000)
    link = box.input_value()
    assert "a=0.5" in link and "eps=4" in link  # the fragment's control is in the link too
    for dark in (False, True):  # its text in the sidebar's colour, after a live switch too
        if dark:
            page.emulate_media(color_scheme="dark")
            wait_theme(page, dark=True)
        sidebar = page.locator("[data-testid=stSidebar]").evaluate(_COLOUR_JS)
        expect(box).to_have_css("color", sidebar["color"], timeout=5_000)
        assert box.evaluate(_COLOUR_JS)["background"] == "rgba(0, 0, 0, 0)"  # the sidebar's


_COLOUR_JS = (
    "(e) => ({ color: getComputedStyle(e).color, background: getComputedStyle(e).backgroundColor })"
)


def test_a_students_share_box_leaves_out_the_voter_id(open_page: Callable[..., Visit]) -> None:
    """A class poll student's link holds an anonymous id (a reload keeps the answer); the
    link the share box offers keeps the class and leaves that id with this phone."""
    voter = "0123456789abcdef" * 2
    visit = open_page("epsilon", {"room": "ABCDE-FGHJK", "voter": voter})
    assert voter in visit.page.url
    box = visit.page.frame_locator("[data-testid=stSidebar] iframe").first.locator("#u")
    box.wait_for()
    visit.page.wait_for_timeout(800)
    link = unquote(box.input_value())
    assert "room=ABCDE-FGHJK" in link and "voter" not in link
