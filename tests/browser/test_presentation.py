"""Presentation mode on a 1920×1080 projector, in a real browser: it outlives every kind of
navigation (the sidebar, an in-page link, the next link at a page's end, a home card), folds
the sidebar, makes what a hall reads large enough, has a way out that sticks too; slides step
by their buttons and by the arrow keys; the QR code holds the current link."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from lnviz.app.classroom import PRESENTER_ONLY, is_loopback, lan_address
from lnviz.app.slides import STAGE_JS
from lnviz.content import registry
from tests.qr_reading import assert_encodes

from . import test_chart_margins as margins
from .conftest import DESKTOP
from .helpers import Visit, arm_live, exception_report, interact, wait_for_rerun, wait_ready

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}

_STATE_JS = """() => ({
  sidebarFolded: document.querySelector('[data-testid=stSidebar]')
    ?.getAttribute('data-collapsed') === 'true',
  wayOut: !!document.querySelector('.st-key-leave-present button'),
  switchOn: !!document.querySelector('.st-key-present input')?.checked,
})"""


def _path(visit: Visit) -> str:
    return urlparse(visit.page.url).path.strip("/")


def _query(visit: Visit) -> dict[str, list[str]]:
    return parse_qs(urlparse(visit.page.url).query)


def _follow(visit: Visit, locator: object, to: str) -> None:
    """Click a link and wait until the page `to` has run."""
    page = visit.page
    locator.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    interact(page, locator.click)  # type: ignore[attr-defined]
    page.wait_for_function(
        "(to) => location.pathname.replace(/^\\/|\\/$/g, '') === to", arg=to, timeout=30_000
    )
    page.wait_for_timeout(300)  # the address bar and the stage follow the switch
    wait_ready(page)
    assert not exception_report(visit)


def _open_sidebar(visit: Visit) -> None:
    page = visit.page
    if page.locator("[data-testid=stSidebar]").get_attribute("data-collapsed") == "true":
        page.locator("[data-testid=stExpandSidebarButton]").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=stSidebar]')"
            ".getAttribute('data-collapsed') === 'false'"
        )


_PRESENTING = {"sidebarFolded": True, "wayOut": True, "switchOn": True}
_PRESENTING_JS = json.dumps(json.dumps(_PRESENTING, separators=(",", ":")))  # JSON.stringify's


def _assert_presenting(visit: Visit, route: str) -> None:
    """Presentation mode is on: in the link, the folded sidebar, the way out and the switch.

    The run has finished on the server (interact() counts it on the WebSocket), but a busy
    renderer may handle its last messages (the link's query among them) a moment later, so
    the state is awaited before it is asserted."""
    page = visit.page
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"""() => new URLSearchParams(location.search).get('present') === 'true'
                && JSON.stringify(({_STATE_JS})()) === {_PRESENTING_JS}""",
            timeout=10_000,
        )
    assert _query(visit).get("present") == ["true"], (route, page.url)
    state = page.evaluate(_STATE_JS)
    assert state == _PRESENTING, (route, state)


def _end_link(visit: Visit, word: str) -> object:
    """The previous/next link at the end of the page (st.page_link)."""
    return visit.page.locator("[data-testid=stPageLink] a", has_text=f"{word}:").last


def test_presentation_mode_outlives_every_route_and_leaving_sticks(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", {"present": "true"}, viewport=PROJECTOR)
    page = visit.page
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stSidebar]')"
        "?.getAttribute('data-collapsed') === 'true'"
    )
    _assert_presenting(visit, "opened by link")

    _follow(visit, _end_link(visit, "Next"), "invariance")
    _assert_presenting(visit, "next link")

    references = page.locator(
        "[data-testid=stMain] [data-testid=stPageLink] a", has_text="References"
    )
    _follow(visit, references.first, "references")
    _assert_presenting(visit, "in-page link")

    _open_sidebar(visit)  # folded, but still reachable by its toggle
    _follow(visit, page.locator(".st-key-lnviz-course-nav a", has_text="Home").first, "")
    _assert_presenting(visit, "sidebar link")

    card = page.locator("[data-testid=stMain] [data-testid=stPageLink] a", has_text="Open ")
    target = urlparse(card.first.get_attribute("href") or "").path.strip("/")
    _follow(visit, card.first, target)
    _assert_presenting(visit, "home card")

    interact(page, page.locator(".st-key-leave-present button").click)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stSidebar]')"
        "?.getAttribute('data-collapsed') === 'false'"
    )
    assert "present" not in _query(visit)
    assert page.evaluate(_STATE_JS) == {"sidebarFolded": False, "wayOut": False, "switchOn": False}
    _follow(visit, page.locator(".st-key-lnviz-course-nav a", has_text="Epsilon").first, "epsilon")
    _follow(visit, _end_link(visit, "Next"), "invariance")
    assert "present" not in _query(visit)
    assert page.evaluate(_STATE_JS)["wayOut"] is False  # leaving sticks too


_SIZES_JS = """() => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const visible = (el) => !!el.offsetParent;
  const main = document.querySelector('[data-testid=stMain]');
  const all = (sel) => [...main.querySelectorAll(sel)].filter(visible);
  // st.dataframe draws its cells on a canvas, in the font its grid theme names
  const grid = all('[data-testid=stDataFrame] *').map(
    (e) => getComputedStyle(e).getPropertyValue('--gdg-base-font-style')).find(Boolean);
  return {
    metrics: all('[data-testid=stMetricValue]').map(px),
    inputs: all('input[type=text], input[type=number], textarea').map(px),
    htmlCells: all('table td, table th').map(px),
    gridCell: grid ? parseFloat(grid.split(' ').pop()) : null,
    body: all('[data-testid=stMarkdownContainer] p').map(px),
  };
}"""


# gain and bias's table sits in a going-further part: opened, as a lecturer would
STAGES = "Going further: Every stage's numbers, and the moments side by side"


@pytest.mark.parametrize(
    ("url_path", "query", "fold"), [("gain-and-bias", {}, STAGES), ("numerics", {}, None)]
)
def test_what_a_hall_reads_is_large_enough(
    open_page: Callable[..., Visit], url_path: str, query: dict[str, str], fold: str | None
) -> None:
    visit = open_page(url_path, {"present": "true", **query}, viewport=PROJECTOR)
    page = visit.page
    if fold:
        page.get_by_text(fold, exact=True).first.click()
    page.wait_for_selector("[data-testid=stDataFrame] canvas, [data-testid=stTable] td")
    sizes = page.evaluate(_SIZES_JS)
    assert sizes["metrics"] or url_path == "numerics"
    assert all(s >= 36 for s in sizes["metrics"]), sizes
    assert sizes["inputs"] and all(s >= 20 for s in sizes["inputs"]), sizes
    assert sizes["gridCell"] is not None or sizes["htmlCells"], sizes  # a table is measured
    assert sizes["gridCell"] is None or sizes["gridCell"] >= 20, sizes
    assert all(s >= 20 for s in sizes["htmlCells"]), sizes
    assert min(sizes["body"]) >= 20, sizes
    way_out = page.locator(".st-key-leave-present button").bounding_box()
    assert way_out is not None and way_out["y"] + way_out["height"] <= PROJECTOR["height"]


def _shown_headings(visit: Visit) -> list[str]:
    return visit.page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMain] h2, [data-testid=stMain] h3')]
            .filter((h) => h.offsetParent && !h.closest('[data-testid=stPopoverBody]'))
            .map((h) => h.innerText.trim())"""
    )


def _slide(visit: Visit) -> str | None:
    return (_query(visit).get("slide") or [None])[0]


def _step(visit: Visit, action: Callable[[], object], expected: str) -> None:
    interact(visit.page, action)
    visit.page.wait_for_function(
        "(k) => new URLSearchParams(location.search).get('slide') === k"
        " && document.body.dataset.lnvizSlide === k",
        arg=expected,
    )
    wait_ready(visit.page)


def _slide_label(page: Any, start: str, timeout: float = 10_000) -> str:
    """The slide's label once the stage's script has written it in full ("Section 2 of 6:
    title"). The server draws "Section 2"; the script rewrites it after each of the page's
    redraws, so a read right after the run can still catch the server's text."""
    with contextlib.suppress(PlaywrightTimeout):  # the assertion below names what it says
        page.wait_for_function(
            "(start) => (document.querySelector('.st-key-slide-label p')?.textContent ?? '')"
            ".startsWith(start)",
            arg=start,
            timeout=timeout,
        )
    label = page.locator(".st-key-slide-label").inner_text()
    assert label.startswith(start), label
    return label


def test_slides_step_one_section_per_screen_by_buttons_and_arrow_keys(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", {"present": "true"}, viewport=PROJECTOR)
    page = visit.page
    sections = _shown_headings(visit)  # the whole page: every section's heading, in order
    assert len(sections) >= 2  # (the advanced parts fold into "Going further" boxes)
    _step(visit, page.locator(".st-key-slide-start button").first.click, "1")
    assert _shown_headings(visit) == []  # the opening: title, lead, controls
    assert page.locator(".st-key-z").is_visible()  # the box of the page's controls
    _step(visit, lambda: page.keyboard.press("ArrowRight"), "2")
    assert _shown_headings(visit) == sections[:1]
    assert page.locator(".st-key-eps-live").is_visible()  # ε, with the charts it drives
    label = _slide_label(page, f"Section 2 of {len(sections) + 1}")
    assert sections[0] in label
    charts_shown = (
        "() => [...document.querySelectorAll('.js-plotly-plot')].filter((c) => c.offsetParent)"
        ".length"
    )
    shown = [page.evaluate(charts_shown)]
    _step(visit, lambda: page.keyboard.press("PageDown"), "3")
    assert _shown_headings(visit) == sections[1:2]
    shown.append(page.evaluate(charts_shown))
    assert 1 <= max(shown) < page.locator(".js-plotly-plot").count()  # no slide shows all
    _step(visit, lambda: page.keyboard.press("ArrowLeft"), "2")
    _step(visit, page.locator(".st-key-slide-next button").first.click, "3")
    assert _shown_headings(visit) == sections[1:2]
    _step(visit, page.locator(".st-key-slide-previous button").first.click, "2")
    assert _shown_headings(visit) == sections[:1]
    assert not exception_report(visit)

    # the last section: "next" is off, and the arrow key stays there
    last = str(len(sections) + 1)
    _step(visit, lambda: page.goto(page.url.replace("slide=2", f"slide={last}")), last)
    assert _shown_headings(visit) == sections[-1:]
    assert page.locator(".st-key-slide-next button").first.is_disabled()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(800)
    assert _slide(visit) == last

    # an arrow key typed into a control moves the control, not the slide
    _step(visit, lambda: page.goto(page.url.replace(f"slide={last}", "slide=1")), "1")
    box = page.locator(".st-key-z input")
    box.click()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(800)
    assert _slide(visit) == "1"


def _open_join_panel(page: Any) -> tuple[Any, str]:
    """Click 'Scan to open this view' and wait for its QR code; the image and the link
    written under it."""
    interact(
        page,
        page.locator("[data-testid=stPopover] button", has_text="Scan to open this view").click,
    )
    image = page.locator("[data-testid=stPopoverBody] img")
    image.wait_for()
    shown = page.locator("[data-testid=stPopoverBody] h3").inner_text()
    return image, shown.replace("\u2060", "").strip()  # a word joiner keeps it from autolinking


def _students_query(url: str) -> dict[str, list[str]]:
    """A link's query without the projector's keys (presentation mode, slide)."""
    return {k: v for k, v in parse_qs(urlparse(url).query).items() if k not in PRESENTER_ONLY}


def _on_the_server(link: str, page_url: str) -> str:
    """The students' link with the test server's origin (it listens on 127.0.0.1 only)."""
    served, target = urlparse(page_url), urlparse(link)
    return target._replace(scheme=served.scheme, netloc=served.netloc).geturl()


def test_the_qr_code_opens_the_students_view_on_a_network_address(
    open_page: Callable[..., Visit],
) -> None:
    """The projector shows slide 2 in presentation mode; the QR code holds the same page and
    controls without either, on this machine's network address (a phone cannot open
    127.0.0.1), and a phone that opens it sees the page as a student."""
    visit = open_page(
        "epsilon", {"present": "true", "slide": "2", "eps": "4/3"}, viewport=PROJECTOR
    )
    page = visit.page
    image, link = _open_join_panel(page)
    target = urlparse(link)
    assert target.path == urlparse(page.url).path == "/epsilon"
    assert _students_query(link) == _students_query(page.url) == {"eps": ["4/3"]}
    assert "present" not in target.query and "slide" not in target.query
    lan = lan_address.__wrapped__()  # what the server finds, found the same way here
    if lan is not None:
        assert target.hostname == lan and not is_loopback(target.hostname or "")
    else:  # no network here: the panel says so instead of handing out a dead link
        notice = page.locator("[data-testid=stPopoverBody]", has_text="only on this computer")
        assert notice.count() == 1
    assert image.get_attribute("alt") == f"QR code of the link {link}"
    assert image.evaluate("(e) => parseFloat(getComputedStyle(e).width)") >= 400
    heading = page.locator("[data-testid=stPopoverBody] h3")
    assert heading.evaluate("(h) => parseFloat(getComputedStyle(h).fontSize)") >= 28  # large type

    assert_encodes(page.request.get(image.get_attribute("src") or "").body(), link)

    phone = open_page("epsilon", viewport={"width": 390, "height": 844}).page
    phone.goto(_on_the_server(link, page.url))
    wait_ready(phone)
    assert phone.locator("button", has_text="Leave presentation mode").count() == 0
    assert phone.locator("button", has_text="Scan to open this view").count() == 0
    assert parse_qs(urlparse(phone.url).query).get("eps") == ["4/3"]
    assert "present" not in phone.url and "slide" not in phone.url


def test_the_qr_code_opened_after_a_live_move_holds_the_moved_value(
    open_page: Callable[..., Visit],
) -> None:
    """A live control's release reruns the page but not the bar; the panel, built when it is
    opened, still holds the moved value."""
    visit = open_page("epsilon", {"present": "true", "eps": "4/3"}, viewport=PROJECTOR)
    page = visit.page
    arm_live(page, "eps-live")  # its frames: the focus below then asks for nothing
    rail = page.locator(".st-key-eps-live .live input")
    rail.scroll_into_view_if_needed()
    finished = visit.finished_runs
    rail.focus()
    page.keyboard.press("ArrowRight")
    wait_for_rerun(visit, finished, 20_000)
    eps = parse_qs(urlparse(page.url).query)["eps"]
    assert eps != ["4/3"]
    page.locator("[data-testid=stMain]").evaluate("(m) => m.scrollTo(0, 0)")
    image, link = _open_join_panel(page)
    assert parse_qs(urlparse(link).query)["eps"] == eps
    assert _students_query(link) == _students_query(page.url)
    assert_encodes(page.request.get(image.get_attribute("src") or "").body(), link)


def test_an_embedded_view_links_to_the_same_state_in_the_full_app(
    open_page: Callable[..., Visit],
) -> None:
    visit = open_page("epsilon", {"embed": "true", "eps": "4/3", "z": "1,2,4"})
    link = visit.page.locator("[data-testid=stMain] a", has_text="Open this view in the full app")
    href = link.get_attribute("href") or ""
    target = urlparse(href)
    assert target.path == "/epsilon"
    assert parse_qs(target.query) == {"eps": ["4/3"], "z": ["1,2,4"]}  # no embed=true
    assert link.get_attribute("target") == "_blank"


_SLIDE_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const top = (el) => !el.closest('[data-testid=stExpander], [data-testid=stPopoverBody]');
  const headings = [...main.querySelectorAll('[data-testid=stHeading]')]
    .filter((h) => top(h) && h.querySelector('h2, h3'));
  const first = headings[0];
  const keyOf = (s) => (String(s.closest('[class*="st-key-"]')?.className || '')
    .match(/st-key-(\\S+)/) || [])[1];
  const live = (s) => !!document.querySelector(`.st-key-${keyOf(s)}-live`);  // drawn there
  const before = [...main.querySelectorAll('[data-testid=stSlider]')].filter((s) => first
    && !live(s) && (s.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING));
  return {
    shown: headings.filter((h) => h.offsetParent).map((h) => h.innerText.trim()),
    all: headings.map((h) => h.innerText.trim()),
    before: before.length,
    beforeShown: before.filter((s) => s.offsetParent).length,
    sections: Number(document.body.dataset.lnvizSections),
  };
}"""


@pytest.mark.parametrize("url_path", [p.url_path for p in registry.COURSE])
def test_every_course_page_opens_with_what_precedes_its_first_section(
    open_page: Callable[..., Visit], url_path: str
) -> None:
    """Slide 1 is the page's opening (its controls too, also where they and the sections
    run as one fragment); slide 2 its first section, under the box of the page's controls
    (issue 37: a control and the charts it drives on one slide); one slide per heading.
    Then, by its "Whole page" button, the whole page at 1280 px: its charts need no second
    layout pass in presentation mode either (test_chart_margins), on the same load."""
    visit = open_page(url_path, {"present": "true", "slide": "1"}, viewport=PROJECTOR)
    page = visit.page
    page.wait_for_function("() => document.body.dataset.lnvizSlide === '1'")
    opening = page.evaluate(_SLIDE_JS)
    assert opening["all"], "a course page has sections"
    assert opening["shown"] == []
    assert opening["beforeShown"] == opening["before"]
    assert opening["sections"] == len(opening["all"]) + 1
    _step(visit, lambda: page.keyboard.press("ArrowRight"), "2")
    first = page.evaluate(_SLIDE_JS)
    assert first["shown"] == opening["all"][:1]
    controls = page.locator('[class*="st-key-lnviz-page-controls"]')
    if controls.count():  # every slider of the opening is in that box, shown on every slide
        assert controls.first.is_visible() and controls.first.locator("input:visible").count()
        assert first["beforeShown"] == first["before"]  # (ε's: drawn by its live control)
        if opening["sections"] > 2:  # (invariance: one section, its two halves side by side)
            _step(visit, lambda: page.keyboard.press("ArrowRight"), "3")
            assert controls.first.is_visible()
    else:  # the page's controls open its first section (transformer, weighted centering)
        assert first["beforeShown"] == 0
    assert not exception_report(visit)
    if url_path in margins.PAGES:  # then the whole page at 1280 px (test_chart_margins)
        page.set_viewport_size(DESKTOP)
        interact(page, lambda: page.locator(".st-key-slide-end button").click())
        page.wait_for_function("() => document.body.dataset.lnvizSlide === '0'")
        margins.assert_no_second_layout_pass(page, url_path)


STAGE_PAGE = """<body><div class="stMainBlockContainer"><div class="stVerticalBlock">
<div class="stElementContainer"><div class="stHeading"><h2>First</h2></div></div>
<div class="stElementContainer"><p>one</p></div>
<div class="stElementContainer"><div class="stHeading"><h2>Second</h2></div></div>
<div class="stElementContainer"><p>two</p></div>
</div></div></body>"""

# The stage drawn at slide 2; a redraw of the page asks its observer for a frame; before
# that frame comes, the stage is drawn again at the whole page (a "Whole page" press).
STAGE_RACE_JS = """async (js) => {
  const url = URL.createObjectURL(new Blob([js], { type: "text/javascript" }));
  const stage = (await import(url)).default;
  stage({ data: { slide: 2, fold: "" }, parentElement: document.body });
  document.querySelector(".stVerticalBlock").append(document.createElement("div"));
  await Promise.resolve();  // the observer has asked for its frame
  stage({ data: { slide: 0, fold: "" }, parentElement: document.body });
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return { slide: document.body.dataset.lnvizSlide,
           hidden: document.querySelectorAll("[data-lnviz-hidden]").length };
}"""


def test_a_slides_late_frame_does_not_hide_the_whole_page_again(browser: Any) -> None:
    """A frame the observer of an earlier slide asked for, arriving after the stage was
    drawn at the whole page, leaves the whole page shown (it once showed the old slide
    again, and nothing drew the page after it: a "Whole page" press that did not take)."""
    page = browser.new_page()
    try:
        page.set_content(STAGE_PAGE)
        seen = page.evaluate(STAGE_RACE_JS, STAGE_JS)
    finally:
        page.close()
    assert seen == {"slide": "0", "hidden": 0}, seen
