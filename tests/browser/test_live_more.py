"""More live controls, really dragged: invariance's common shift c and batch statistics' shift
step. During the drag the charts follow in the browser and nothing is sent to the server;
the release makes the value the page's state (the link and the page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .helpers import exception_report
from .test_live import (  # noqa: F401  (watched is a fixture)
    CURVE_JS,
    Watched,
    assert_no_errors,
    drag,
    live,
    open_live,
    press_and_wait_for_rerun,
    query,
    release_and_wait,
    wait_live,
    watched,
)

pytestmark = pytest.mark.browser

SHIFT_OPTIONS = (-1000.0, -100.0, -10.0, -1.0, -0.5, 0.0, 0.5, 1.0, 10.0, 100.0, 1000.0)

# A chart's title as shown, without the <b> that Streamlit's chart theme wraps it in.
TITLE_JS = """(key) => document.querySelector(`.st-key-${key} .js-plotly-plot`)
    .layout.title.text.replace(/<[^>]+>/g, '')"""

# The shift rule's x on a chart (null without one).
RULE_JS = """(key) => {
  const shapes = document.querySelector(`.st-key-${key} .js-plotly-plot`).layout.shapes || [];
  return shapes.length ? shapes[0].x0 : null;
}"""


def to_top(page: Any, key: str) -> None:
    """Scroll so that the live control sits near the top, the charts it drives below it."""
    page.locator(f".st-key-{key}").evaluate(  # (in the page's DOM, not the component's)
        """(el) => {
          let box = el.parentElement;  // the app's scrolling container
          while (box && !(box.scrollHeight > box.clientHeight
                          && getComputedStyle(box).overflowY !== 'visible')) {
            box = box.parentElement;
          }
          (box || document.scrollingElement).scrollBy(0, el.getBoundingClientRect().top - 90);
        }"""
    )
    page.wait_for_timeout(300)


def labels(page: Any, key: str) -> int:
    return int(live(page, key).get_attribute("data-shown") or -1)


def test_dragging_c_keeps_the_bars_moves_the_rounding_and_the_release_sets_c(
    watched: Callable[..., Watched],  # noqa: F811  (the fixture of test_live)
) -> None:
    # (0.1, 0.2, 0.7): z + c is not exact in binary, so the title's rounding error moves
    w, page, control = open_live(
        watched, "invariance", {"z": "0.1, 0.2, 0.7", "c": "-1000"}, "c-live", ("shift",)
    )
    assert control.get_attribute("data-index") == "0"  # opens at the page's c
    to_top(page, "c-live")
    bars0, title0 = page.evaluate(CURVE_JS, ["shift", 1]), page.evaluate(TITLE_JS, "shift")
    assert title0.endswith("largest change 2.23e−14")
    sent, runs = len(w.sent), w.visit.finished_runs

    drag(page, "c-live", [0.1, 0.3, 0.5, 0.65, 0.8, 0.7], shot="c")
    page.wait_for_timeout(300)  # anything the drag would send has been sent by now
    shown = labels(page, "c-live")
    assert shown == 7  # 0.7 of the way along 11 values: c = 1
    assert int(control.get_attribute("data-frames") or 0) >= 3  # several states shown
    assert page.evaluate(TITLE_JS, "shift") != title0  # the chart follows the drag ...
    assert page.evaluate(TITLE_JS, "shift").endswith("largest change 2.22e−16")
    assert page.evaluate(  # bold, as the server draws it
        """() => document.querySelector('.st-key-shift .gtitle').innerHTML.includes('bold')"""
    )
    assert page.evaluate(CURVE_JS, ["shift", 1]) == bars0  # ... and its bars stay put
    assert len(w.sent) == sent  # not one WebSocket message during the drag
    assert w.visit.finished_runs == runs

    release_and_wait(w)
    assert control.get_attribute("data-sent") == str(shown)
    assert query(page).get("c") == ["1"]  # the link
    page.wait_for_function(  # the fragment's slider shows it (its delta may come last)
        """() => document.querySelector(
            '.st-key-c [data-testid=stSliderThumbValue]')?.innerText === '1'""",
        timeout=30_000,
    )
    assert control.get_attribute("data-index") == str(shown)
    assert "z + c = (1.1, 1.2, 1.7)" in page.locator("[data-testid=stMain]").inner_text()
    assert page.evaluate(TITLE_JS, "shift").endswith("largest change 2.22e−16")
    assert_no_errors(w)


def test_dragging_the_shift_step_moves_the_stream_charts_and_the_release_sets_it(
    watched: Callable[..., Watched],  # noqa: F811  (the fixture of test_live)
) -> None:
    w, page, control = open_live(
        watched, "batch-statistics", None, "at-live", ("run-mean", "run-var", "gap")
    )
    assert control.get_attribute("data-index") == "20"  # step 100 of 0, 5, ..., 200
    to_top(page, "at-live")
    mean0, var0 = page.evaluate(CURVE_JS, ["run-mean", 1]), page.evaluate(CURVE_JS, ["run-var", 2])
    assert page.evaluate(RULE_JS, "run-mean") == 99.5
    sent, runs = len(w.sent), w.visit.finished_runs

    drag(page, "at-live", [0.4, 0.3, 0.2, 0.15, 0.25, 0.3], shot="step")
    page.wait_for_timeout(300)
    shown = labels(page, "at-live")
    assert shown == 12  # 0.3 of the way along 41 values: step 60
    assert int(control.get_attribute("data-frames") or 0) >= 3
    assert page.evaluate(CURVE_JS, ["run-mean", 1]) != mean0  # the true mean jumps earlier
    assert page.evaluate(CURVE_JS, ["run-var", 2]) != var0  # PyTorch's running variance
    assert page.evaluate(RULE_JS, "run-mean") == 59.5  # the dotted rule follows
    assert page.evaluate(RULE_JS, "run-var") == 59.5
    assert len(w.sent) == sent and w.visit.finished_runs == runs  # nothing sent while dragging

    release_and_wait(w)
    assert control.get_attribute("data-sent") == str(shown)
    assert query(page).get("at") == ["60"]  # the link
    page.wait_for_function(
        "() => document.querySelector('.st-key-at input')?.value === '60'", timeout=30_000
    )
    assert control.get_attribute("data-index") == str(shown)
    assert page.evaluate(RULE_JS, "gap") == 59.5  # the chart below the fold too
    assert_no_errors(w)


def test_arrow_keys_move_the_shift_step_and_set_the_page_once_they_pause(
    watched: Callable[..., Watched],  # noqa: F811  (the fixture of test_live)
) -> None:
    w, page, control = open_live(
        watched, "batch-statistics", {"at": "50"}, "at-live", ("run-mean",)
    )
    assert control.get_attribute("data-index") == "10"
    asked = press_and_wait_for_rerun(w, control, "ArrowLeft", 2, timeout=30_000)
    assert query(page).get("at") == ["40"]
    assert w.visit.asked_runs == asked + 1  # two key presses, one rerun
    assert page.evaluate(RULE_JS, "run-mean") == 39.5
    assert not exception_report(w.visit)


def test_arrow_keys_move_c(
    watched: Callable[..., Watched],  # noqa: F811  (the fixture of test_live)
) -> None:
    w, page, control = open_live(watched, "invariance", {"c": "1"}, "c-live", ("shift",))
    assert SHIFT_OPTIONS[int(control.get_attribute("data-index") or 0)] == 1.0
    press_and_wait_for_rerun(w, control, "ArrowRight", 1, timeout=30_000)
    assert query(page).get("c") == ["10"]
    assert not exception_report(w.visit)
