"""The weighted-centering page's live controls, really dragged: w on its rail, and the
point x on the plane chart itself. While dragging, the plane follows in the browser with
nothing sent to the server; the release makes the value the page's state (link and page)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .helpers import SCREENSHOTS, arm_live, exception_report, wait_for_rerun
from .test_live import Watched, drag, live, query, release_and_wait, wait_live, watched

pytestmark = pytest.mark.browser
__all__ = ["watched"]  # the fixture, shared with test_live.py

SHOTS = SCREENSHOTS / "live"  # mid-drag screenshots, kept out of git (artifacts/)

# The plane's moving traces: 2 x + t𝟏, 3 the Euclidean path, 4 x, 5 Pₐx, 6 Euclidean point.
TRACES_JS = """() => {
  const gd = document.querySelector('.st-key-plane .js-plotly-plot');
  return [2, 3, 4, 5, 6].map((i) => ({
    x: Array.from(gd._fullData[i].x).map(Number),
    y: Array.from(gd._fullData[i].y).map(Number),
  }));
}"""

# Client pixels of data points on the plane chart, with its own axes.
PIXELS_JS = """(points) => {
  const gd = document.querySelector('.st-key-plane .js-plotly-plot');
  const r = gd.querySelector('.main-svg').getBoundingClientRect();
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
  return points.map(([x, y]) => [r.left + xa._offset + xa.l2p(x), r.top + ya._offset + ya.l2p(y)]);
}"""

RANGE_JS = """() => {
  const gd = document.querySelector('.st-key-plane .js-plotly-plot');
  return [gd._fullLayout.xaxis.range.slice(), gd._fullLayout.yaxis.range.slice()];
}"""


def traces(page: Any) -> list[dict[str, list[float]]]:
    return page.evaluate(TRACES_JS)


def pixels(page: Any, *points: tuple[float, float]) -> list[list[float]]:
    return page.evaluate(PIXELS_JS, [list(p) for p in points])


def open_plane(watched: Callable[..., Watched], q: dict[str, str] | None = None) -> Watched:
    w = watched("weighted-centering", q or {})
    w.page.get_by_text("Going further: The same map as a least-squares fit").click()  # the fit
    wait_live(w.page, "w-live", ("plane", "objective"))
    w.page.locator(".st-key-x-live .live-pad").wait_for()
    arm_live(w.page, "x-live")  # the point's frames too (frames on demand)
    w.page.evaluate(  # the plane at the top of the window, the live controls below it
        """() => {
          const el = document.querySelector('.st-key-plane');
          el.style.scrollMarginTop = '70px';  // below Streamlit's header
          el.scrollIntoView({block: 'start'});
        }"""
    )
    w.page.wait_for_timeout(300)
    return w


def x_box(page: Any) -> str:
    return page.locator(".st-key-x input").input_value()


def test_dragging_the_point_moves_both_projections_and_the_release_sets_x(
    watched: Callable[..., Watched],
) -> None:
    w = open_plane(watched)  # the worked example: w = 0.25, x = (4, 2)
    page, control = w.page, live(w.page, "x-live")
    before, view = traces(page), page.evaluate(RANGE_JS)
    assert before[2] == {"x": [4.0], "y": [2.0]}
    sent, runs = len(w.sent), w.visit.finished_runs

    (start,) = pixels(page, (4.0, 2.0))
    path = [(3.0, 3.0), (1.0, 3.5), (-1.0, 3.0), (-2.0, 3.0)]
    page.mouse.move(*start)
    page.mouse.down()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for n, target in enumerate(pixels(page, *path)):
        page.mouse.move(*target, steps=5)
        page.wait_for_timeout(80)
        if n:
            page.screenshot(path=str(SHOTS / f"live_w_point_{n}.png"))
    page.wait_for_timeout(300)  # anything the drag would send has been sent by now

    during = traces(page)
    assert during[2] == {"x": [-2.0], "y": [3.0]}  # x under the pointer, snapped
    # a = (1/4, 3/4): aᵀx = 1.75, Pₐx = x − 1.75·𝟏; Euclidean: x − (aᵀx / aᵀa)·a
    assert during[3]["x"] == pytest.approx([-3.75]) and during[3]["y"] == pytest.approx([1.25])
    k = 1.75 / (0.25**2 + 0.75**2)
    assert during[4]["x"] == pytest.approx([-2 - k * 0.25], abs=1e-3)
    assert during[4]["y"] == pytest.approx([3 - k * 0.75], abs=1e-3)
    assert during[1]["x"][0] == pytest.approx(-2.0)  # the segment starts at x
    assert page.evaluate(RANGE_JS) == view  # the drag did not zoom or pan the chart
    assert int(control.get_attribute("data-frames") or 0) >= 3  # several states shown
    assert len(w.sent) == sent  # not one WebSocket message during the drag
    assert w.visit.finished_runs == runs
    said = control.locator(".live-said")  # what a screen reader hears: nothing per frame
    assert said.inner_text() == ""

    shown = control.get_attribute("data-shown")
    release_and_wait(w)
    assert said.inner_text() == "x = (−2, 3)"  # once, on release
    assert control.get_attribute("data-sent") == shown  # the state under the pointer
    assert query(page).get("x") == ["-2, 3"]  # the link
    assert x_box(page) == "-2, 3"  # the page's text box
    after = traces(page)  # drawn by the server for the released x
    assert after[2] == {"x": [-2.0], "y": [3.0]}
    assert after[3]["x"] == pytest.approx([-3.75])
    assert "(−3.75, 1.25)" in page.inner_text("body")  # the page's table: Pₐx
    assert not exception_report(w.visit)
    assert not w.visit.page_errors


def test_a_press_away_from_the_point_is_the_charts_own_zoom(
    watched: Callable[..., Watched],
) -> None:
    w = open_plane(watched)
    page, control = w.page, live(w.page, "x-live")
    view = page.evaluate(RANGE_JS)
    a, b = pixels(page, (-4.0, 4.0), (-2.0, 2.5))  # far from x = (4, 2)
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=5)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.evaluate(RANGE_JS) != view  # Plotly zoomed to the box
    assert control.get_attribute("data-shown") == control.get_attribute("data-index")
    assert control.get_attribute("data-sent") is None
    assert query(page).get("x") is None


def test_arrow_keys_move_the_point_one_lattice_step_and_set_x_once_they_pause(
    watched: Callable[..., Watched],
) -> None:
    w = open_plane(watched)
    page = w.page
    asked, finished = w.visit.asked_runs, w.visit.finished_runs
    page.locator(".st-key-x-live .live-pad").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    wait_for_rerun(w.visit, finished, 10_000)
    assert w.visit.asked_runs == asked + 1  # three key presses, one rerun
    assert query(page).get("x") == ["5, 1.5"]  # steps of 0.5 in the view [−5, 5]²
    assert x_box(page) == "5, 1.5"
    assert traces(page)[2] == {"x": [5.0], "y": [1.5]}


def test_dragging_w_moves_the_plane_and_the_fit_and_the_release_sets_w(
    watched: Callable[..., Watched],
) -> None:
    w = open_plane(watched)
    page, control = w.page, live(w.page, "w-live")
    assert control.get_attribute("data-index") == "25"  # opens at the page's w = 0.25
    fit = """() => JSON.stringify(Array.from(
        document.querySelector('.st-key-objective .js-plotly-plot')._fullData[2].x))"""
    before, fit0 = traces(page), page.evaluate(fit)
    sent, runs = len(w.sent), w.visit.finished_runs

    drag(page, "w-live", [0.35, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9], shot="w_w")
    page.wait_for_timeout(300)
    during = traces(page)
    shown = int(control.get_attribute("data-shown") or 0)
    assert shown > 60
    assert during[2] == before[2]  # x stays
    assert during[3] != before[3]  # Pₐx and the Euclidean point follow w
    assert during[4] != before[4]
    wv = shown / 100  # Pₐx = x − (aᵀx)𝟏 with a = (w, 1 − w), x = (4, 2)
    assert during[3]["x"][0] == pytest.approx(4 - (4 * wv + 2 * (1 - wv)), abs=1e-3)
    assert len(w.sent) == sent and w.visit.finished_runs == runs  # nothing sent while dragging

    release_and_wait(w)
    assert control.get_attribute("data-sent") == str(shown)
    assert query(page).get("w") == [f"{wv:g}"]
    assert control.get_attribute("data-index") == str(shown)
    assert json.loads(page.evaluate(fit)) != json.loads(fit0)
    assert traces(page)[3]["x"][0] == pytest.approx(2 - 2 * wv, abs=1e-3)
    assert not exception_report(w.visit)
    assert not w.visit.page_errors
