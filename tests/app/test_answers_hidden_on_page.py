"""No open question's answer stands on its page (issue 37): at every course page's defaults,
before anything is checked, no numeric question's expected value, written the way the page
writes numbers, appears in the page's text, tables, metrics, code or chart titles, labels
and annotations outside the question box (folded parts count: they are one click away)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from lnviz.content import exercises, registry
from lnviz.content.questions import Question
from lnviz.content.text import eps_label, exact, number, short
from tests.apptest_helpers import assert_clean, page

QUIZ_KEY = "lnviz-quiz"  # the question box's container key (lnviz.app.quiz)
STEPS = [p.url_path for p in registry.COURSE if exercises.for_page(p.url_path)]
# (page, question key): why the page may show that answer. None: where a page worked out
# the very state its question asked about, the question now asks about a new case beside
# it (z doubled, another ε, T or B doubled...) and links to the state that shows it.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def forms(answer: float) -> set[str]:
    """The answer as the page writes numbers (3 characters or more: a "0" or "1" stands on
    every page by other right), with an ASCII minus."""
    written = {number(answer), short(answer), f"{answer:.6g}", eps_label(answer),
               exact(answer) or ""}  # fmt: skip
    return {f.replace("\u2212", "-") for f in written if len(f) >= 3}


def chart_text(spec: dict[str, Any]) -> Iterator[str]:
    """What a chart writes without a hover: titles, axis titles, legend names, annotations,
    text drawn on the marks."""
    layout = spec.get("layout", {})
    for value in layout.values():
        if isinstance(value, dict) and isinstance(value.get("title"), dict):
            yield str(value["title"].get("text", ""))
    yield str(layout.get("title", {}).get("text", ""))
    yield from (str(a.get("text", "")) for a in layout.get("annotations", []))
    for trace in spec.get("data", []):
        yield str(trace.get("name", ""))
        if "text" in str(trace.get("mode", "")) or "texttemplate" in trace:
            text = trace.get("text", "")
            yield " ".join(map(str, text)) if isinstance(text, list) else str(text)


def visible(node: Any) -> Iterator[str]:
    """Every text of the element tree below `node`, the question box left out."""
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else children) or ():
        proto = getattr(child, "proto", None)
        if type(child).__name__ == "Block" and QUIZ_KEY in str(getattr(proto, "id", "")):
            continue
        kind = getattr(child, "type", "")
        if kind == "plotly_chart":
            yield from chart_text(json.loads(proto.spec))
        elif kind == "metric":
            yield f"{child.label} {child.value} {child.delta or ''}"
        elif kind == "dataframe":
            yield child.value.to_string()
        elif kind in ("markdown", "caption", "latex", "code", "text", "info", "success",
                      "warning", "error", "header", "subheader", "title"):  # fmt: skip
            yield str(child.value)
        yield from visible(child)


def shows(text: str, form: str) -> bool:
    """`form` stands in `text` as a whole number (0.5 is not in 10.5 or 0.55)."""
    return re.search(rf"(?<![\d.]){re.escape(form)}(?![\d])", text) is not None


def numeric(url_path: str) -> list[Question]:
    return [q for q in exercises.for_page(url_path) if q.answer is not None]


def leaks(url_path: str, text: str) -> set[tuple[str, str]]:
    """(question key, written answer) of each open numeric question of the page whose answer
    stands in `text` (a minus sign read as "-")."""
    text = text.replace("\u2212", "-")
    return {
        (q.key, form)
        for q in numeric(url_path)
        if (url_path, q.key) not in EXCEPTIONS
        for form in forms(q.answer)
        if shows(text, form)
    }


@pytest.mark.parametrize("url_path", STEPS)
def test_no_open_answer_stands_on_the_page(url_path: str) -> None:
    at = page(url_path)
    assert_clean(at)
    found = leaks(url_path, "\n".join(visible(at.main)))
    assert not found, f"{url_path} shows the answer of {sorted(found)}"


def test_the_check_finds_the_old_giveaways_and_leaves_the_box_out() -> None:
    """The walk reads the table beside the weighted-centering chart, where the old question
    (aᵀx = 2.5 at the page's own x) stood answered, and skips the question box itself."""
    text = "\n".join(visible(page("weighted-centering").main))
    assert shows(text, "2.5") and "Predict, then check" not in text
    assert not shows("x = 12.5, 0.55", "2.5")
