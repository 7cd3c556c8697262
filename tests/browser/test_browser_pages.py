"""The app in a real browser: every page loads and draws, controls work, links restore state.

Pages are described by the PAGES table below; adding a page's slider or deep-link cases
is one row. Screenshots land in artifacts/screenshots/ (git-ignored) for a person to look at.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.app.test_answers_hidden_on_page import STEPS

from . import test_accessibility as a11y
from . import test_answers_hidden as answers
from . import test_chart_margins as margins
from . import test_control_and_effect as control_and_effect
from .helpers import (
    Visit,
    alerts,
    all_chart_data,
    assert_embeds_cleanly,
    chart_count,
    describe,
    exception_report,
    horizontal_overflow,
    interact,
    linked_query,
    main_text,
    metric_value,
    screenshot,
    slider_input,
    slider_value,
    text_input_value,
    wait_any_chart_changed,
    wait_charts,
    wait_ready,
    wait_theme,
)

if TYPE_CHECKING:  # pragma: no cover
    from .conftest import BrowserPool

pytestmark = pytest.mark.browser

STUB_TEXT = "Coming soon"  # what a page that is not built yet says
XSS = "<script>alert(1)</script>"
APP_TITLE = "lnviz"  # set_page_config in app.py names every tab "lnviz · …"


@dataclass(frozen=True)
class PageCase:
    """One page of the app and what the browser tests check on it."""

    url_path: str  # st.Page url_path; "" is the home page
    deep_link_query: Mapping[str, str] | None = None  # a state to restore from the URL
    expected_text: str | None = None  # shown after the deep link (or on a plain load)
    slider_key: str | None = None  # a slider moved with the keyboard; it must redraw a chart
    heading: str | None = None  # the page's title (st.title) contains this
    min_charts: int = 1  # Plotly charts the page draws by default (explorer pages: >= 1)
    metrics: Mapping[str, str] = field(default_factory=dict)  # label -> value after the link
    slider_in: str | None = None  # the label of the closed expander that holds the slider

    @property
    def id(self) -> str:
        return self.url_path or "home"

    @property
    def hostile(self) -> dict[str, str]:
        """Bad values for every linked control: NaN for the slider, markup for the rest."""
        return {k: ("nan" if k == self.slider_key else XSS) for k in self.deep_link_query or {}}


# One row per page. Every row is loaded, checked for exceptions, title and charts,
# measured for sideways scrolling and photographed. A slider_key adds the keyboard test; a
# deep_link_query (with expected_text / metrics) adds the deep-link test and, on the pages
# of HOSTILE_PAGES, the hostile-link test derived from it. Pages still saying "Coming soon"
# may draw no chart yet.
PAGES = [
    PageCase("", heading="lnviz", min_charts=1),
    PageCase("why-normalize", slider_key="gain", heading="Why normalize"),
    PageCase("reduction-axes", slider_key="eps", slider_in="ε and edited entries"),
    PageCase(
        "epsilon",
        deep_link_query={"eps": "4/3", "z": "1,2,4"},
        expected_text="2.333333",
        slider_key="eps",
        heading="ε: the small constant",
        min_charts=6,
        metrics={"mean μ": "2.333333", "ε": "4/3"},
    ),
    PageCase("gain-and-bias", slider_key="eps"),
    PageCase("invariance", slider_key="c"),
    PageCase("weighted-centering", slider_key="w"),
    PageCase(
        "frameworks",
        deep_link_query={"scheme": "layer", "loc": "1000", "sd": "1"},
        expected_text="pools each mean and variance over F",  # (the code is folded)
        slider_key="sd",
        heading="Framework parity",
        min_charts=3,
        metrics={"max |Flax linen − PyTorch|": "0.488"},
    ),
    PageCase(
        "batch-statistics",
        deep_link_query={"b": "2", "steps": "300", "at": "300", "mk": "0.9"},
        expected_text="300 mini-batches of B = 2 examples",
        slider_key="mt",
        heading="Batch statistics",
        min_charts=7,
        metrics={"PyTorch: largest gap after it": "no shift"},
    ),
    PageCase(
        "numerics",
        deep_link_query={"off": "1e4", "data": "grid", "prec": "float32"},
        expected_text="16 values",
        slider_key="off",
        heading="Numerics lab",
        min_charts=4,
        metrics={"one-pass variance": "−8"},
    ),
    PageCase(
        "sequences",
        deep_link_query={"b": "2", "t": "10", "leak": "false", "wrt": "market returns", "at": "6"},
        expected_text="Sequence pooling: 45 future dependencies",
        slider_key="at",
        slider_in="Going further: Change the future, watch the past",
        heading="Sequences and causality",
        min_charts=10,
    ),
    PageCase(
        "glossary",
        deep_link_query={"term": "epsilon"},
        expected_text="You followed a link to this entry",
        heading="Glossary",
        min_charts=0,
    ),
    PageCase(
        "examples",
        deep_link_query={"section": "Epsilon"},
        expected_text="ε changes the core",
        heading="Worked examples",
        min_charts=0,
        metrics={"checks that agree": "63 of 63"},
    ),
    PageCase(
        "transformer",
        deep_link_query={"depth": "24", "placement": "post"},
        slider_key="tau",
        slider_in="Going further: Attention: bounded logits and keys that can win",
        heading="transformer",
        min_charts=5,
    ),
    PageCase("references", heading="References", min_charts=0),
]


def test_the_table_covers_every_registered_page() -> None:
    from lnviz.content import registry

    assert {c.url_path for c in PAGES} == {p.url_path for p in registry.PAGES}


def cases(predicate: Callable[[PageCase], object] = lambda c: True) -> list[object]:
    return [pytest.param(c, id=c.id) for c in PAGES if predicate(c)]


def assert_clean(visit: Visit) -> None:
    """No exception element, no dialog, no uncaught script error."""
    report = exception_report(visit)
    assert not report, report
    assert not visit.dialogs, f"unexpected dialogs on {visit.page.url}: {visit.dialogs}"
    assert not visit.page_errors, f"uncaught page errors on {visit.page.url}: {visit.page_errors}"


# --------------------------------------------------------------------------- every page


@pytest.mark.parametrize("case", cases())
def test_page_renders_cleanly_and_its_slider_redraws_and_links(
    open_page: Callable[..., Visit], browser_pool: BrowserPool, case: PageCase
) -> None:
    """Loads with no exception, its title and charts; fits 1280 px; its charts need no
    second layout pass (test_chart_margins); passes the accessibility audit
    (test_accessibility); a course page draws none of its questions' answers outside the
    question box (test_answers_hidden); is photographed, light and dark. Then, on a
    page with a slider_key, that slider moved with the keyboard redraws a chart and the
    link follows it; on a page with a short controls box, the box stays above the charts it
    drives while the page scrolls (test_control_and_effect); last, a course page's
    exercise-sheet menu offers no answers.

    One page load serves all the checks (page loads dominate the suite's time). The
    screenshots are taken before the assertions, so a failing page is photographed too:
    artifacts/screenshots/<page>-{light,dark}.png (the viewport) and, with
    LNVIZ_FULL_SCREENSHOTS=1, ...-full.png (the whole page). Dark is the browser's
    prefers-color-scheme, which the app follows. The phone's picture is taken by
    test_phone_layout, on a page loaded at 390 px.
    """
    visit = open_page(case.url_path)
    page = visit.page
    drawn = wait_charts(page, case.min_charts, unless_text=STUB_TEXT)
    if case.url_path in margins.PAGES:  # the planned margins hold, on this same load
        margins.assert_no_second_layout_pass(page, case.url_path)
    title = page.title()
    headings = page.locator("[data-testid=stMain] h1").all_inner_texts()
    text = main_text(page)
    overflow = horizontal_overflow(page)
    course_step = case.url_path in STEPS
    problems = a11y.audit(page, "1280 px light")
    problems += answers.answer_problems(visit, case.url_path) if course_step else []

    saved = screenshot(page, f"{case.id}-light")

    assert_clean(visit)
    assert APP_TITLE in title, f"tab title {title!r}: the router did not run"
    assert headings and headings[0].strip(), f"no page title (h1) on {page.url}"
    if case.heading:
        assert case.heading in headings[0], headings
    if case.expected_text and not case.deep_link_query:
        assert case.expected_text in text
    stub = STUB_TEXT in text  # only a page that says "Coming soon" may draw no chart yet
    if case.min_charts and not stub:
        assert drawn >= case.min_charts, (
            f"{page.url} drew {drawn} Plotly charts, expected at least {case.min_charts}"
        )
    assert not overflow, (
        f"{page.url} scrolls sideways at 1280 px (scrollWidth, clientWidth): {overflow}"
    )
    assert problems == [], "\n".join(problems)
    if case.slider_key:
        try:
            assert_slider_redraws_and_links(visit, case.slider_key, case.slider_in)
        except KeyPressStalled as stalled:
            # Debian's Chromium 156.0.8078.114 drawing WebGL in software sometimes stalls
            # on the 3-D page (reduction axes) with both cores busy: a key press that never
            # returned, in about 1 run in 5 of this test alone beside two busy loops
            # (2026-12-04). The stall is in the browser's GPU process, which its contexts
            # share: a fresh context's 3-D chart never finished drawing either. A bounded
            # press turns it into this exception; the check is made once more in a fresh
            # browser, and the stall is reported as a warning, not hidden.
            warnings.warn(f"{stalled}; checked again in a fresh browser", stacklevel=1)
            browser_pool.replace()
            visit = open_page(case.url_path)
            page = visit.page
            wait_charts(page, case.min_charts, unless_text=STUB_TEXT)
            assert_slider_redraws_and_links(visit, case.slider_key, case.slider_in)
    sticky = case.url_path in control_and_effect.STICKY_PAGES  # a short box of controls
    if sticky:  # it stays above the charts while the page scrolls (then back to the top)
        control_and_effect.assert_the_controls_stay_above_their_charts(visit)
    # The dark picture last (a switch to dark and back made the stall above more likely).
    page.emulate_media(color_scheme="dark")
    wait_theme(page, dark=True)
    saved += screenshot(page, f"{case.id}-dark")
    for path in saved:
        assert path.stat().st_size > 5_000, f"{path} looks empty"
    if sticky:
        control_and_effect.assert_the_box_is_the_apps_colour(page)
    if course_step:
        assert answers.sheet_problems(visit) == []


KEY_PRESS_TIMEOUT_MS = 20_000  # a key press takes well under a second, even on a busy machine


class KeyPressStalled(AssertionError):
    """The browser did not take a key press within KEY_PRESS_TIMEOUT_MS."""


def bounded_press(thumb: Any, keyname: str) -> None:
    """Focus `thumb` and press `keyname`, within KEY_PRESS_TIMEOUT_MS (Playwright's
    page.keyboard.press has no timeout: a stalled renderer held it until the test's)."""
    try:
        thumb.press(keyname, timeout=KEY_PRESS_TIMEOUT_MS)
    except PlaywrightTimeout as err:
        raise KeyPressStalled(
            f"{keyname} on a slider was not taken within {KEY_PRESS_TIMEOUT_MS} ms"
        ) from err


def assert_slider_redraws_and_links(visit: Visit, key: str, folded_in: str | None) -> None:
    """The slider `key`, moved one step with the keyboard, redraws a chart, the link
    follows it, and nothing breaks. `folded_in`: the label of the closed expander that
    holds it (a phone-friendly page folds secondary controls)."""
    page = visit.page
    assert chart_count(page) >= 1, f"no chart on {page.url} to watch"
    if folded_in:
        page.get_by_text(folded_in, exact=True).first.click()
    before_value = slider_value(page, key)
    before_data = all_chart_data(page)

    thumb = slider_input(page, key)
    interact(page, lambda: bounded_press(thumb, "ArrowRight"))
    if slider_value(page, key) == before_value:  # already at its maximum
        interact(page, lambda: bounded_press(thumb, "ArrowLeft"))
    after_value = slider_value(page, key)
    assert after_value != before_value, f"the {key} slider did not move ({before_value})"

    changed = wait_any_chart_changed(page, before_data)
    assert changed, f"no chart changed after moving {key} from {before_value} to {after_value}"

    def linked(url: str) -> str | None:
        return linked_query(url).get(key)

    with contextlib.suppress(Exception):  # the URL follows the rerun; give it a moment
        page.wait_for_url(lambda url: linked(url) == after_value, timeout=10_000)
    assert linked(page.url) == after_value, (
        f"URL {page.url} has {key}={linked(page.url)!r}, the slider shows {after_value!r}"
    )
    assert_clean(visit)


@pytest.mark.parametrize("case", cases(lambda c: c.deep_link_query))
def test_deep_link_restores_state(open_page: Callable[..., Visit], case: PageCase) -> None:
    """As another site embeds a state of the page (?embed=true): the page alone, its
    charts drawn, no error (test_classroom's embed test, on this load), the state restored."""
    assert case.deep_link_query
    query = dict(case.deep_link_query)
    visit = open_page(case.url_path, {**query, "embed": "true"})
    page = visit.page
    assert_embeds_cleanly(visit, case.min_charts)
    assert_clean(visit)
    link_messages = [a for a in alerts(page) if "link" in a.lower() or "default" in a.lower()]
    assert not link_messages, f"a valid link was rejected: {link_messages}"
    if case.slider_key and case.slider_key in query:
        assert slider_value(page, case.slider_key) == query[case.slider_key]
    for key, value in query.items():
        if key == case.slider_key:
            continue
        shown = text_input_value(page, key)
        if shown is not None:
            assert shown == value, f"the {key} box shows {shown!r}, the link said {value!r}"
    if case.expected_text:
        assert case.expected_text in main_text(page)
    for label, value in case.metrics.items():
        assert metric_value(page, label) == value, f"metric {label!r}"


# Every page's every URL key meets hostile values, markup among them, in
# tests/app/test_hostile_urls.py (its state spec's keys, through app.py): the browser checks
# the same path end to end on one page, the one whose link sets the most kinds of control
# (slider, box, toggle, choice), rather than loading each page again for it.
HOSTILE_PAGES = ("sequences",)


@pytest.mark.parametrize("case", cases(lambda c: c.url_path in HOSTILE_PAGES and c.hostile))
def test_hostile_deep_link_shows_a_message_not_an_error(
    open_page: Callable[..., Visit], case: PageCase
) -> None:
    visit = open_page(case.url_path, case.hostile)
    page = visit.page
    wait_charts(page, case.min_charts, unless_text=STUB_TEXT)
    assert_clean(visit)  # no exception, no alert() dialog
    messages = alerts(page)
    assert messages, f"{page.url} accepted {describe(case.hostile)} without a message"
    injected = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stMain] script')].length"
    )
    assert injected == 0, "markup from the URL became a <script> element"


# --------------------------------------------------------------------------- the router


def test_first_visit_by_deep_link_runs_the_router(
    open_page: Callable[..., Visit], start_server: Callable[[str], object]
) -> None:
    """A fresh server's first visitor arrives by deep link: the router still runs.

    Until app.py's st.navigation has run once, Streamlit treats pages/ as a legacy
    multipage app and runs the page file alone; lnviz.app.navigation.ensure_router hands over.
    """
    with start_server("fresh") as fresh:  # type: ignore[attr-defined]
        visit = open_page("epsilon", {"eps": "4/3"}, app=fresh)
        page = visit.page
        # the hand-over is one immediate rerun: give it a moment before reading the page
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"document.title.includes({APP_TITLE!r})", timeout=10_000)
        wait_ready(page)
        report = exception_report(visit)
        title = page.title()
        nav = page.locator(".st-key-lnviz-course-nav a").all_inner_texts()
        page.context.close()  # before its server goes away
    assert not report, report
    assert APP_TITLE in title, f"tab title {title!r}: app.py did not run"
    assert any("Reduction axes" in n for n in nav), f"file-name navigation: {nav}"
