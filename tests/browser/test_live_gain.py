"""The gain-and-bias page's live control, really dragged: the bars that the chosen coordinate
moves follow in the browser with nothing sent to the server, and the release writes the
value into that coordinate's text box (the link, the page's numbers and the alt text)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lnviz.content.text import number
from lnviz.lessons.gain_and_bias.live import drag_values

from . import test_live
from .helpers import metric_value, text_input_value
from .test_live import (
    CURVE_JS,
    Watched,
    assert_no_errors,
    drag,
    open_live,
    press_and_wait_for_rerun,
    query,
    release_and_wait,
)

pytestmark = pytest.mark.browser

watched = test_live.watched  # the fixture that opens a page with its WebSocket watched

KEY = "gb-live"
STAGES = ("stage-input", "stage-core", "stage-output")

TITLE_JS = """(key) => document.querySelector(`.st-key-${key} .js-plotly-plot`)
    ._fullLayout.title.text"""
ALT_JS = """(key) => document.querySelector(`.st-key-${key} [aria-label^="Bar chart"]`)
    ?.getAttribute('aria-label')"""


def bars(page: Any, key: str) -> str:
    return page.evaluate(CURVE_JS, [key, 0])


def snapshot(page: Any) -> dict[str, str]:
    return {key: bars(page, key) for key in STAGES}


def shown(control: Any) -> int:
    return int(control.get_attribute("data-shown") or -1)


def test_dragging_gamma_moves_the_output_only_and_the_release_rewrites_gamma(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(watched, "gain-and-bias", None, KEY, STAGES)
    control.locator("input").scroll_into_view_if_needed()
    grid = drag_values(1.0, -100, 100)  # γ₁ = 1 at the page's default
    assert control.get_attribute("data-index") == str(list(grid).index(1.0))
    before, title = snapshot(page), page.evaluate(TITLE_JS, "stage-output")
    alt = page.evaluate(ALT_JS, "stage-output")
    sent, runs = len(w.sent), w.visit.finished_runs

    drag(page, KEY, [0.75, 0.85, 0.95, 0.9], shot="gain_gamma")
    page.wait_for_timeout(300)  # anything the drag would send has been sent by now
    during = snapshot(page)
    assert during["stage-output"] != before["stage-output"]  # the output bars follow
    assert during["stage-input"] == before["stage-input"]  # γ does not touch z or the core
    assert during["stage-core"] == before["stage-core"]
    moved = page.evaluate(TITLE_JS, "stage-output")
    assert moved != title and moved.startswith("<b>")  # its mean and variance, bold as before
    assert int(control.get_attribute("data-frames") or 0) >= 3
    index = shown(control)
    assert grid[index] > 3.0
    assert len(w.sent) == sent and w.visit.finished_runs == runs  # nothing sent while dragging

    release_and_wait(w)
    assert int(control.get_attribute("data-sent") or -1) == index
    gamma = f"{number(grid[index], 6)}, 2, 1"
    assert text_input_value(page, "gamma") == gamma  # the text box
    assert query(page).get("gamma") == [gamma]  # the link
    assert control.get_attribute("data-index") == str(index)  # the control opens there again
    assert bars(page, "stage-output") == during["stage-output"]  # the server drew the same
    new_alt = page.evaluate(ALT_JS, "stage-output")
    assert new_alt != alt and f"Gains ({number(grid[index], 4)}, 2, 1)" in new_alt
    assert_no_errors(w)


def test_dragging_z_moves_every_stage_and_the_release_rewrites_z(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(
        watched, "gain-and-bias", {"drag": "z₁", "eps": "1/3"}, KEY, STAGES
    )
    control.locator("input").scroll_into_view_if_needed()
    before = snapshot(page)
    mean = metric_value(page, "output mean")
    sent = len(w.sent)
    drag(page, KEY, [0.45, 0.3, 0.15, 0.05, 0.1], shot="gain_z")
    page.wait_for_timeout(300)
    during = snapshot(page)
    assert all(during[key] != before[key] for key in STAGES)  # z moves all three stages
    assert len(w.sent) == sent
    index = shown(control)
    value = drag_values(1.0, -1000, 1000)[index]
    assert value < 0
    release_and_wait(w)
    z = f"{number(value, 6)}, 2, 3".replace("−", "-")
    assert text_input_value(page, "z") == z
    assert query(page).get("z") == [z]
    assert metric_value(page, "output mean") != mean
    assert snapshot(page) == during
    assert_no_errors(w)


def test_arrow_keys_move_the_control_and_set_beta_once_they_pause(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(watched, "gain-and-bias", {"drag": "β₂"}, KEY, STAGES)
    before = bars(page, "stage-output")
    asked = press_and_wait_for_rerun(w, control, "ArrowRight", 2)
    assert text_input_value(page, "beta") == "0, 1.2, 0"  # β₂ = 1, two steps of 0.1
    assert query(page).get("beta") == ["0, 1.2, 0"]
    assert w.visit.asked_runs == asked + 1  # two key presses, one rerun
    assert bars(page, "stage-output") != before
    assert metric_value(page, "output mean") == "0.4"  # mean of β moves by 0.2/3
