"""Downloads written when their button is clicked (not on every run), in a real browser: a
page's exercise sheet holds its questions, each with a link to its state on this server;
the worked examples' CSV holds every check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lnviz.content.exercises import for_page

from .helpers import Visit, exception_report, wait_for_rerun

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("label", "answers"), [("Markdown, for students", False),
                                                ("Markdown, with answers", True)])  # fmt: skip
def test_the_sheet_downloaded_holds_the_pages_questions(
    open_page: Callable[..., Visit], label: str, answers: bool
) -> None:
    visit = open_page("epsilon", {"present": "true"} if answers else None)  # the lecturer's
    page = visit.page
    page.locator("[data-testid=stPopover] button", has_text="Exercise sheet").first.click()
    button = page.locator("[data-testid=stPopoverBody] button", has_text=label)
    button.wait_for()
    with page.expect_download() as download:
        button.click()
    assert download.value.suggested_filename.startswith("lnviz-epsilon-exercises")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("# lnviz exercises: Epsilon")
    questions = for_page("epsilon")
    assert questions and all(q.prompt in text for q in questions)
    host = page.url.split("/epsilon")[0]
    assert text.count(f"Check it: {host}/epsilon?") == len(questions)
    if not answers:  # a student's panel offers no sheet with answers
        with_answers = page.locator("[data-testid=stPopoverBody] button", has_text="answers")
        assert with_answers.count() == 0
    assert ("Answer: " in text) is answers
    assert not exception_report(visit) and not visit.page_errors


def test_the_checks_csv_downloaded_holds_every_check(open_page: Callable[..., Visit]) -> None:
    from lnviz.content import claims

    visit = open_page("examples", {"section": "Epsilon"})  # the checks' expander open
    page = visit.page
    button = page.get_by_role("button", name="Download every check as CSV")
    button.scroll_into_view_if_needed()
    with page.expect_download() as download:
        button.click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",") == list(claims.CSV_COLUMNS)
    assert len(lines) - 1 == sum(len(c.checks) for c in claims.CATALOG)


def test_the_checks_are_drawn_when_their_panel_is_opened_and_stay_open(
    open_page: Callable[..., Visit],
) -> None:
    """Worked examples' checks are drawn only when their panel is open (a lazy expander);
    opening it runs the page once, and a preset that drops `section` keeps it open."""
    from lnviz.content import claims

    visit = open_page("examples")
    page = visit.page
    cards = page.locator("[class*=st-key-claim-]")
    assert cards.count() == 0  # folded: not drawn
    finished = visit.finished_runs
    page.get_by_text("Checks: every claim of the sources").click()
    wait_for_rerun(visit, finished, 30_000)
    assert cards.count() == len(claims.CATALOG)
    for preset, shown in ((1, 7), (0, len(claims.CATALOG))):  # only ε, then the whole lesson
        finished = visit.finished_runs
        page.locator(f".st-key-ex-presets-{preset} button").click()
        wait_for_rerun(visit, finished, 30_000)
        assert cards.count() == shown
    assert not exception_report(visit)
