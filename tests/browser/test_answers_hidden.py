"""Questions that do not give the answer away (issue 37), in the browser: on every course
page in the students' view at 1280 x 900, what is drawn outside the question box (text,
metrics, the charts' own SVG text) shows none of the open questions' numeric answers, and the
exercise-sheet menu offers no sheet with the answers (presentation mode, the lecturer's view,
does: the check finds it there). The checks run on test_browser_pages' load of each page."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.app.test_answers_hidden_on_page import forms, leaks, numeric

from .conftest import DESKTOP
from .helpers import Visit, interact

pytestmark = pytest.mark.browser

# Every drawn text node of the main pane outside the question box: prose, metrics, tables
# and the charts' SVG text (a folded part's text is not drawn, so it is not read here).
DRAWN_TEXT_JS = """() => {
  const main = document.querySelector('section.stMain') || document.body;
  const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('.st-key-lnviz-quiz') || !el.checkVisibility()) continue;
    out.push(n.textContent);
  }
  return out.join('\\n');
}"""


def sheet_labels(visit: Visit) -> list[str]:
    """The labels of the downloads in the page's exercise-sheet menu, opened."""
    page = visit.page
    interact(page, lambda: page.get_by_role("button", name="Exercise sheet").first.click())
    buttons = page.locator("[data-testid=stPopoverBody] [data-testid=stDownloadButton] button")
    buttons.first.wait_for(timeout=15_000)
    return [b.inner_text() for b in buttons.all()]


def answer_problems(visit: Visit, url_path: str) -> list[str]:
    """On a course page as a student loads it: the answers the page draws outside the
    question box (run on test_browser_pages' load of each page, before anything moves)."""
    text = visit.page.evaluate(DRAWN_TEXT_JS)
    if "Predict, then check" in text or len(text) <= 500:  # the walk must read the page
        return [f"{url_path}: the text walk read {len(text)} characters"]
    found = leaks(url_path, text)
    return [f"{url_path} draws the answer of {sorted(found)}"] if found else []


def sheet_problems(visit: Visit) -> list[str]:
    """The student's exercise-sheet menu: it offers sheets, none with the answers."""
    labels = sheet_labels(visit)
    if labels and not [b for b in labels if "answers" in b.lower()]:
        return []
    return [f"exercise sheets offered: {labels}"]


def test_the_checks_find_a_drawn_answer_and_a_sheet_with_answers(
    open_page: Callable[..., Visit],
) -> None:
    """The checks themselves, on the lecturer's view (which offers the answers' sheet) with
    the first question's answer written into the page outside the question box."""
    question = numeric("epsilon")[0]
    written = sorted(forms(question.answer))[0]
    visit = open_page("epsilon", {"present": "true"}, viewport=DESKTOP)
    visit.page.evaluate(
        "(t) => { const p = document.createElement('p'); p.textContent = `answer: ${t}`;"
        " (document.querySelector('section.stMain') || document.body).append(p); }",
        written,
    )
    found = answer_problems(visit, "epsilon")
    assert len(found) == 1 and repr((question.key, written)) in found[0], found
    assert sheet_problems(visit) != []  # the lecturer's menu offers the answers
