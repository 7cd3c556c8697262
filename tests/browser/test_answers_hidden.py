"""Questions that do not give the answer away (issue 37), in the browser: on every course
page in the students' view at 1280 x 900, what is drawn outside the question box (text,
metrics, the charts' own SVG text) shows none of the open questions' numeric answers, and the
exercise-sheet menu offers no sheet with the answers (presentation mode, the lecturer's view,
does: the check finds it there)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.app.test_answers_hidden_on_page import STEPS, leaks

from .conftest import DESKTOP
from .helpers import Visit, interact

pytestmark = pytest.mark.browser

# Every drawn text node of the main pane outside the question box: prose, metrics, tables
# and the charts' SVG text (a folded part's text is not drawn, so it is not read here).
_DRAWN_TEXT_JS = """() => {
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


def _sheet_labels(visit: Visit) -> list[str]:
    """The labels of the downloads in the page's exercise-sheet menu, opened."""
    page = visit.page
    interact(page, lambda: page.get_by_role("button", name="Exercise sheet").first.click())
    buttons = page.locator("[data-testid=stPopoverBody] [data-testid=stDownloadButton] button")
    buttons.first.wait_for(timeout=15_000)
    return [b.inner_text() for b in buttons.all()]


@pytest.mark.parametrize("url_path", STEPS)
def test_a_students_screen_shows_no_open_answer_and_no_answer_sheet(
    open_page: Callable[..., Visit], url_path: str
) -> None:
    visit = open_page(url_path, viewport=DESKTOP)
    text = visit.page.evaluate(_DRAWN_TEXT_JS)
    assert "Predict, then check" not in text and len(text) > 500  # the walk reads the page
    found = leaks(url_path, text)
    assert not found, f"{url_path} draws the answer of {sorted(found)}"
    labels = _sheet_labels(visit)
    assert labels and not [b for b in labels if "answers" in b.lower()], labels


def test_the_lecturers_view_offers_the_answer_sheet(open_page: Callable[..., Visit]) -> None:
    """The sheet check finds a sheet with answers where there is one."""
    visit = open_page("epsilon", {"present": "true"}, viewport=DESKTOP)
    labels = _sheet_labels(visit)
    assert [b for b in labels if "answers" in b.lower()], labels
