"""The exercise-sheet panel draws its download buttons only when it is opened: a run of a
page with the panel closed sends the panel alone. Sheets with answers are the lecturer's:
offered in presentation mode only, never one click away from a student (issue 37)."""

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
@pytest.mark.parametrize("lecturer", [False, True])
def test_the_sheet_buttons_are_drawn_when_the_panel_opens(
    name: str, panel: str, lecturer: bool
) -> None:
    at = page(name, {"present": "true"} if lecturer else None)
    assert_clean(at)
    assert not [b for b in at.get("download_button") if b.label in SHEET_LABELS]
    at.session_state[panel] = True  # what a click on the panel does
    at.run()
    assert_clean(at)
    labels = [b.label for b in at.get("download_button") if b.label in SHEET_LABELS]
    assert labels == (SHEET_LABELS if lecturer else SHEET_LABELS[:2])
    told = any("in presentation mode" in str(c.value) for c in at.caption)
    assert told is not lecturer
