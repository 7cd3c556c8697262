"""A class answers together, in real browsers: one lecturer in presentation mode and three
students on phones, joined by the QR panel's link; answers, counts, a second round, the
reveal, the next question, a reload, and a tampered link."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator

from lnviz.content import registry
from lnviz.lessons.epsilon import questions as epsilon_questions

from .conftest import PHONE
from .helpers import Visit, exception_report
from .test_accessibility import no_severe_violation

pytestmark = pytest.mark.browser

WAIT_MS = 8_000  # a phone looks at the room every 2 s, the projector every second


def _students_link(lecturer: Visit) -> tuple[str, dict[str, str]]:
    """The path and query of the link the QR panel shows (its host may be this machine's
    network address, which the test server does not listen on)."""
    page = lecturer.page
    page.get_by_role("button", name="Scan to open this view").click()
    heading = page.locator("[data-testid=stPopoverBody] h3").first
    heading.wait_for()
    parts = urlsplit(heading.inner_text().replace("\u2060", "").strip())  # plain()'s joiners
    page.keyboard.press("Escape")
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    return parts.path.lstrip("/"), query


def _class_box(visit: Visit) -> Locator:
    return visit.page.locator(".st-key-lnviz-class-box")


def _answer(student: Visit, text: str) -> None:
    box = _class_box(student)
    box.get_by_role("textbox", name="Your answer").fill(text)
    box.get_by_role("button", name="Send").click()
    box.get_by_text("Answer received").wait_for(timeout=WAIT_MS)


def _projector_says(lecturer: Visit, pattern: str) -> None:
    lecturer.page.get_by_text(re.compile(pattern)).first.wait_for(timeout=WAIT_MS)


def test_a_class_votes_twice_sees_the_reveal_and_follows_to_the_next_question(
    open_page: Callable[..., Visit],
) -> None:
    first, second = epsilon_questions.questions()[:2]
    lecturer = open_page("epsilon", {"present": "true"})
    page = lecturer.page
    page.get_by_role("button", name="Start a class poll").click()
    page.get_by_text(re.compile(r"Class [0-9A-Z]{5}-[0-9A-Z]{5}")).first.wait_for()
    path, query = _students_link(lecturer)
    assert path == "epsilon" and "present" not in query and "voter" not in query
    assert re.fullmatch(r"[0-9A-Z]{5}-[0-9A-Z]{5}", query["room"])

    schemes = ("dark", "light", "light")
    students = [open_page(path, query, viewport=PHONE, color_scheme=c) for c in schemes]
    for student in students:
        _class_box(student).get_by_text("Waiting for the lecturer's question").wait_for()
        assert len(parse_qs(urlsplit(student.page.url).query)["voter"][0]) == 32
        # a student's own questions wait: the class box asks them
        student.page.get_by_text("In class, questions come from the lecturer").wait_for()

    page.get_by_role("button", name="Ask the class").click()
    for student in students:
        _class_box(student).get_by_text("What is the variance of its core").wait_for(
            timeout=WAIT_MS
        )
    _answer(students[0], "1/2")
    _answer(students[1], "0.5")
    _answer(students[2], str(first.answer))
    _projector_says(lecturer, r"round 1 · voting\*?\*? · 3 answered")
    no_severe_violation(page)  # axe-core: the projector's counts and chart, the phone's box
    no_severe_violation(students[0].page)
    for student in students:  # nobody sees the room's answers before the reveal
        assert "How the class answered" not in _class_box(student).inner_text()
        assert "Answer: " not in _class_box(student).inner_text()

    page.get_by_role("button", name="Vote again").click()
    for student in students[:2]:
        _class_box(student).get_by_text("Second vote").wait_for(timeout=WAIT_MS)
        _answer(student, str(first.answer))
    _projector_says(lecturer, r"round 2 · voting\*?\*? · 2 answered")

    students[0].page.reload()  # a reload keeps the student in the class, with the answer
    _class_box(students[0]).get_by_text(f"Answer received: {first.answer}").wait_for(
        timeout=WAIT_MS
    )

    page.get_by_role("button", name="Reveal the answer").click()
    _projector_says(lecturer, r"answer revealed")
    for student in students:
        _class_box(student).get_by_text(f"Answer: {first.solution}").wait_for(timeout=WAIT_MS)
        _class_box(student).locator(".js-plotly-plot").wait_for(timeout=WAIT_MS)
    no_severe_violation(page)
    no_severe_violation(students[0].page)

    page.get_by_role("button", name="Next question").click()
    for student in students:
        _class_box(student).get_by_text("how steep is this curve").wait_for(timeout=WAIT_MS)
    assert second.key == "slope"

    # the last question of the page leads to the next page, and the phones follow
    page.get_by_role("button", name="Next question").click()
    _class_box(students[0]).get_by_text("does it level off").wait_for(timeout=WAIT_MS)
    _, after = registry.neighbours("epsilon")
    page.get_by_role("link", name=f"Next page: {after.title}").click()
    for student in students:
        student.page.wait_for_url(re.compile(f"/{after.url_path}\\?"), timeout=WAIT_MS)
        _class_box(student).get_by_text("Waiting for the lecturer's question").wait_for()
        assert "room=" in student.page.url and "voter=" in student.page.url
    for visit in (lecturer, *students):
        assert not exception_report(visit)
        assert not visit.page_errors


def test_a_tampered_room_link_is_refused_and_shows_no_other_room(
    open_page: Callable[..., Visit],
) -> None:
    bad = open_page("epsilon", {"room": "<script>1</script>"}, viewport=PHONE)
    assert "room" in bad.page.locator("[data-testid=stAlert]").first.inner_text().lower()
    unknown = open_page("epsilon", {"room": "ABCDE-FGHJK", "voter": "x" * 40})
    box = _class_box(unknown)
    box.get_by_text("is not running").wait_for()
    assert "How the class answered" not in box.inner_text()
    voter = parse_qs(urlsplit(unknown.page.url).query)["voter"][0]
    assert re.fullmatch(r"[0-9a-f]{32}", voter)  # a hostile id is replaced
