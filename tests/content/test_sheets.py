"""Exercise sheets hold every question of the course with a full, valid link."""

from __future__ import annotations

import html
import re

import pytest

from lnviz.content import exercises, registry, sheets

BASE = "https://class.example.org:8443"


@pytest.mark.parametrize("answers", [False, True])
def test_course_sheet_holds_every_question_with_its_full_link(answers: bool) -> None:
    sections = exercises.course()
    assert sections, "the course has questions"
    md = sheets.markdown_sheet(sections, BASE, answers=answers)
    page = sheets.html_sheet(sections, BASE, answers=answers)
    for title, questions in sections:
        assert f"## {title}" in md and html.escape(title) in page
        for q in questions:
            assert q.prompt in md
            assert f"{BASE}/{q.link.href}" in md
            assert html.escape(f"{BASE}/{q.link.href}") in page
            assert (f"Answer: {q.solution}" in md) == answers
    links = re.findall(rf"{re.escape(BASE)}/([a-z-]+)", md)
    assert set(links) <= {p.url_path for p in registry.PAGES}


def test_html_sheet_is_inert_and_prints() -> None:
    page = sheets.html_sheet(exercises.course(), BASE, answers=False)
    assert "<script" not in page and "@media print" in page
    assert page.count("<li>") >= sum(len(q) for _, q in exercises.course())


def test_origin_keeps_scheme_host_and_port_only() -> None:
    assert sheets.origin("http://127.0.0.1:8501/epsilon?eps=1") == "http://127.0.0.1:8501"
    assert sheets.origin("") == "http://localhost:8501"
