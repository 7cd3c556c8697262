"""Several visitors at once: each browser session keeps its own state.

Four browser contexts (separate cookies, separate Streamlit sessions) open different pages
and states, two of them the same page. All four act at the same moment, so their reruns
overlap on the server; afterwards each page, its address and its numbers show only what
that visitor did.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from . import helpers as h

pytestmark = pytest.mark.browser


def start(visit: h.Visit, action: Callable[[], object]) -> int:
    """Do something that reruns the script, without waiting; the runs finished before."""
    before = visit.finished_runs
    action()
    return before


def finish(visit: h.Visit, before: int) -> None:
    """Wait until the rerun started by `start` has finished and the page is idle again."""
    h.wait_for_rerun(visit, before, h.READY_TIMEOUT_MS * 2)  # four sessions share two cores


def wait_url(visit: h.Visit, key: str, value: str) -> None:
    """The address follows a rerun a moment later."""
    with contextlib.suppress(Exception):
        visit.page.wait_for_url(
            lambda url: h.linked_query(url).get(key) == value,
            timeout=10_000,
        )


def type_into(visit: h.Visit, key: str, text: str) -> Callable[[], None]:
    box = visit.page.locator(f".st-key-{key} input").first

    def act() -> None:
        box.fill(text)
        box.press("Enter")

    return act


@dataclass
class Visitor:
    name: str
    visit: h.Visit
    action: Callable[[], None] | None = None
    before: int = 0


def assert_clean(v: Visitor) -> None:
    report = h.exception_report(v.visit)
    assert not report, f"{v.name}: {report}"
    assert not v.visit.page_errors, f"{v.name}: {v.visit.page_errors}"
    refused = [a for a in h.alerts(v.visit.page) if "link" in a.lower()]
    assert not refused, f"{v.name} was shown another state's refusal: {refused}"


def test_four_simultaneous_sessions_each_keep_their_own_state(
    open_page: Callable[..., h.Visit],
) -> None:
    seed = Visitor("epsilon 4/3", open_page("epsilon", {"eps": "4/3", "z": "1,2,4"}))
    plain = Visitor("epsilon default", open_page("epsilon"))
    axes = Visitor("reduction axes", open_page("reduction-axes", {"b": "3", "scheme": "batch"}))
    words = Visitor("glossary", open_page("glossary", {"term": "epsilon"}))
    visitors = [seed, plain, axes, words]

    # each sees the state its own link asked for
    assert h.metric_value(seed.visit.page, "ε") == "4/3"
    assert h.metric_value(seed.visit.page, "mean μ") == "2.333333"
    assert h.metric_value(plain.visit.page, "ε") == "1/3"
    assert h.metric_value(plain.visit.page, "mean μ") == "2"
    assert h.text_input_value(axes.visit.page, "b") == "3"
    assert "You followed a link to this entry" in h.main_text(words.visit.page)

    # all four act at once, so their reruns overlap on the server
    seed.action = type_into(seed.visit, "z", "2, 4, 9")
    plain.action = h.press_on_slider(plain.visit.page, "eps", "ArrowLeft")
    axes.action = type_into(axes.visit, "seed", "7")
    words.action = type_into(words.visit, "q", "batch")
    for v in visitors:
        assert v.action is not None
        v.before = start(v.visit, v.action)
    for v in visitors:
        finish(v.visit, v.before)
    wait_url(seed.visit, "z", "2, 4, 9")
    wait_url(plain.visit, "eps", h.slider_value(plain.visit.page, "eps"))
    wait_url(axes.visit, "seed", "7")
    wait_url(words.visit, "q", "batch")

    for v in visitors:
        assert_clean(v)

    # the first epsilon session: its own new z, its own ε, untouched by the other one
    assert h.metric_value(seed.visit.page, "mean μ") == "5"
    assert h.metric_value(seed.visit.page, "ε") == "4/3"
    assert h.linked_query(seed.visit.page.url) == {"eps": "4/3", "z": "2, 4, 9"}

    # the second epsilon session: its own ε step, the default z
    eps_shown = h.metric_value(plain.visit.page, "ε")
    assert eps_shown not in ("1/3", "4/3"), eps_shown
    assert h.metric_value(plain.visit.page, "mean μ") == "2"
    assert h.text_input_value(plain.visit.page, "z") == "1, 2, 3"
    assert set(h.linked_query(plain.visit.page.url)) == {"eps"}

    # the reduction-axes session: its batch of three, batch scheme and new seed
    assert h.text_input_value(axes.visit.page, "b") == "3"
    assert h.text_input_value(axes.visit.page, "seed") == "7"
    assert h.linked_query(axes.visit.page.url) == {"b": "3", "scheme": "batch", "seed": "7"}

    # the glossary session: its linked entry and its search
    assert h.linked_query(words.visit.page.url) == {"term": "epsilon", "q": "batch"}
    assert "You followed a link to this entry" in h.main_text(words.visit.page)
    assert words.visit.page.locator(".st-key-q input").input_value() == "batch"  # type=search

    # a second round: one session moves again, the others stay as they were
    seed.before = start(seed.visit, h.press_on_slider(seed.visit.page, "eps", "ArrowRight"))
    finish(seed.visit, seed.before)  # (a live control's focus may ask a run for its frames)
    seed.visit.page.wait_for_url(lambda url: h.linked_query(url).get("eps") != "4/3")
    seed.visit.page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stMetric]')].some((m) =>"
        " m.innerText.startsWith('ε') && !m.innerText.includes('4/3'))"
    )
    assert h.metric_value(seed.visit.page, "ε") != "4/3"
    assert h.metric_value(plain.visit.page, "ε") == eps_shown
    assert h.text_input_value(axes.visit.page, "seed") == "7"
    assert h.linked_query(words.visit.page.url) == {"term": "epsilon", "q": "batch"}
