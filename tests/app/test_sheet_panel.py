"""The exercise-sheet panel draws its four download buttons only when it is opened: a run
of a page with the panel closed sends the panel alone (one element, not nine)."""

from __future__ import annotations

import pytest

from tests.apptest_helpers import assert_clean, page

SHEET_LABELS = [
    "Markdown, for students",
    "HTML, for students",
    "Markdown, with answers",
    "HTML, with answers",
]


@pytest.mark.parametrize(("name", "panel"), [("epsilon", "sheets-epsilon"),
                                             ("references", "sheets-course")])  # fmt: skip
def test_the_sheet_buttons_are_drawn_when_the_panel_opens(name: str, panel: str) -> None:
    at = page(name)
    assert_clean(at)
    assert not [b for b in at.get("download_button") if b.label in SHEET_LABELS]
    at.session_state[panel] = True  # what a click on the panel does
    at.run()
    assert_clean(at)
    labels = [b.label for b in at.get("download_button")]
    assert [label for label in labels if label in SHEET_LABELS] == SHEET_LABELS
