"""Live controls, really dragged: the charts follow in the browser with nothing sent to
the server, and the release makes the value the page's state (the link and the page)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from lnviz.app.controls import EPS_GRID
from lnviz.content.text import eps_label

from .helpers import (
    RUN_COUNTER_JS,
    SCREENSHOTS,
    Visit,
    arm_live,
    exception_report,
    goto,
    metric_value,
    wait_for_rerun,
)

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "live"  # mid-drag screenshots, kept out of git (artifacts/)

# The bold curve of a chart (its trace `i`), as plotted now.
CURVE_JS = """([key, i]) => {
  const gd = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  return Array.from(gd._fullData[i].y).map((v) => v.toPrecision(6)).join(",");
}"""


class Watched:
    """An open page and every WebSocket frame it has sent to the server."""

    def __init__(self, visit: Visit) -> None:
        self.visit = visit
        self.sent: list[Any] = []

    @property
    def page(self) -> Any:
        return self.visit.page


@pytest.fixture
def watched(browser: Any, server: Any) -> Iterator[Callable[..., Watched]]:
    """Open a page with its WebSocket watched from the first frame on."""
    contexts: list[Any] = []

    def open_(url_path: str, query: dict[str, str] | None = None) -> Watched:
        context = browser.new_context(
            base_url=server.url, viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
        )
        contexts.append(context)
        context.set_default_timeout(15_000)
        context.add_init_script(RUN_COUNTER_JS)
        w = Watched(Visit(context.new_page(), server))
        w.page.on("websocket", lambda ws: ws.on("framesent", lambda m: w.sent.append(m)))
        w.visit.listen()
        goto(w.visit, url_path, query)
        return w

    yield open_
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


def live(page: Any, key: str) -> Any:
    return page.locator(f".st-key-{key} .live")


def wait_live(page: Any, key: str, charts: tuple[str, ...]) -> None:
    live(page, key).locator("input").wait_for()
    for chart in charts:  # a chart below the fold waits to be drawn (lazy_charts): draw it
        page.wait_for_function(
            """(key) => {
              const lazy = window.__lnvizCharts;
              if (lazy && lazy.pending()) lazy.drawAll();
              return !!document.querySelector(`.st-key-${key} .js-plotly-plot .main-svg`);
            }""",
            arg=chart,
            polling=100,
        )
    page.wait_for_function("() => !!window.Plotly")
    arm_live(page, key)  # the frames come when the visitor reaches for the control


def open_live(
    watched: Callable[..., Watched],
    url_path: str,
    query: dict[str, str] | None,
    key: str,
    charts: tuple[str, ...],
) -> tuple[Watched, Any, Any]:
    """Open a page with its WebSocket watched and wait for its live control `key` and the
    `charts` it drives; the watched page, its Playwright page and the control."""
    w = watched(url_path, query)
    wait_live(w.page, key, charts)
    return w, w.page, live(w.page, key)


def press_and_wait_for_rerun(
    w: Watched, control: Any, key: str, times: int, timeout: int = 10_000
) -> int:
    """Focus the control's rail, press `key` `times` times and wait for the rerun that
    follows the pause (and for the page to be ready); the reruns asked for before them
    (Visit.asked_runs)."""
    page = w.page
    asked, finished = w.visit.asked_runs, w.visit.finished_runs
    control.locator("input").focus()
    for _ in range(times):
        page.keyboard.press(key)
    wait_for_rerun(w.visit, finished, timeout)
    return asked


def assert_no_errors(w: Watched) -> None:
    """No exception element on the page and no uncaught script error in the browser."""
    assert not exception_report(w.visit)
    assert not w.visit.page_errors


def drag(page: Any, key: str, stops: list[float], shot: str | None = None) -> None:
    """Press on the control's thumb, move through `stops` (fractions of its width), and
    stop there without releasing. Screenshots along the way when `shot` is given."""
    rail = live(page, key).locator("input")
    # mid-screen: a page's box of controls stays at the top of a wide screen (sticky), and
    # a pointer there would press that box instead
    rail.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    box = rail.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    value, top = (float(rail.get_attribute(a) or 0) for a in ("value", "max"))
    x0 = box["x"] + 8 + (box["width"] - 16) * value / top  # the thumb's centre
    page.mouse.move(x0, y)
    page.mouse.down()
    for n, f in enumerate(stops):
        page.mouse.move(box["x"] + 8 + (box["width"] - 16) * f, y, steps=4)
        page.wait_for_timeout(60)
        if shot and n % 2 == 1:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"live_{shot}_{n}.png"))


def release_and_wait(w: Watched, timeout: float = 30_000) -> None:
    """Release the pointer and wait for the run the release asks for (counted on the
    WebSocket; a loaded machine may take a while) and for the page to be ready."""
    finished = w.visit.finished_runs
    w.page.mouse.up()
    wait_for_rerun(w.visit, finished, timeout)


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_dragging_eps_moves_the_charts_in_the_browser_and_the_release_sets_the_page(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(watched, "epsilon", {"eps": "1e-06"}, "eps-live", ("h", "dh"))
    assert control.get_attribute("data-index") == "0"  # opens at the page's ε
    control.locator("input").scroll_into_view_if_needed()
    h0, dh0 = page.evaluate(CURVE_JS, ["h", 5]), page.evaluate(CURVE_JS, ["dh", 5])
    sent, runs = len(w.sent), w.visit.finished_runs

    drag(page, "eps-live", [0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.8], shot="epsilon")
    page.wait_for_timeout(300)  # anything the drag would send has been sent by now
    assert page.evaluate(CURVE_JS, ["h", 5]) != h0  # the charts follow the drag
    assert page.evaluate(CURVE_JS, ["dh", 5]) != dh0
    assert int(control.get_attribute("data-frames") or 0) >= 3  # several states shown
    shown = int(control.get_attribute("data-shown") or 0)
    assert shown > 15
    assert len(w.sent) == sent  # not one WebSocket message during the drag
    assert w.visit.finished_runs == runs

    release_and_wait(w)
    released = int(control.get_attribute("data-sent") or -1)
    assert released == shown  # the value under the pointer is the one sent
    label = eps_label(EPS_GRID[released])
    assert query(page).get("eps") == [label]  # the link
    assert page.locator(".st-key-eps [data-testid=stSliderThumbValue]").first.inner_text() == label
    assert control.get_attribute("data-index") == str(released)  # the page's ε, one ε
    assert metric_value(page, "ε") == label  # the page's numbers are the released ε's
    assert_no_errors(w)


def test_arrow_keys_move_the_live_control_and_set_the_page_once_they_pause(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(watched, "epsilon", {"eps": "0.001"}, "eps-live", ("h",))
    start = int(control.get_attribute("data-index") or 0)
    assert EPS_GRID[start] == pytest.approx(1e-3)
    h0 = page.evaluate(CURVE_JS, ["h", 4])  # ε = 0.001 is a comparison value: 4 faint curves
    asked = press_and_wait_for_rerun(w, control, "ArrowRight", 2)
    assert query(page).get("eps") == [eps_label(EPS_GRID[start + 2])]
    assert w.visit.asked_runs == asked + 1  # two key presses, one rerun
    assert page.evaluate(CURVE_JS, ["h", len_others(page)]) != h0


def len_others(page: Any) -> int:
    """The bold curve's index on the h chart: after the faint ones (hover skipped)."""
    return int(
        page.evaluate(
            """() => document.querySelector('.st-key-h .js-plotly-plot')
                ._fullData.filter((t) => t.hoverinfo === 'skip').length"""
        )
    )


def test_dragging_a_on_invariance_moves_the_scaling_chart_and_the_release_sets_a(
    watched: Callable[..., Watched],
) -> None:
    w, page, control = open_live(watched, "invariance", {"a": "0.01"}, "a-live", ("scale",))
    control.locator("input").scroll_into_view_if_needed()
    assert control.get_attribute("data-index") == "0"
    before = page.evaluate(CURVE_JS, ["scale", 1])
    sent, runs = len(w.sent), w.visit.finished_runs
    drag(page, "a-live", [0.2, 0.4, 0.6, 0.5], shot="invariance")
    page.wait_for_timeout(300)
    assert page.evaluate(CURVE_JS, ["scale", 1]) != before  # the bars of u_ε(a·z) follow
    shown = int(control.get_attribute("data-shown") or 0)
    assert shown >= 3
    assert len(w.sent) == sent and w.visit.finished_runs == runs  # nothing sent while dragging
    release_and_wait(w)
    label = f"{(0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0)[shown]:g}"
    assert label != "10"  # a = 10 is the default, which the link leaves out
    assert query(page).get("a") == [label]
    page.wait_for_function(  # the fragment's slider shows it (its delta may come last)
        """(label) => document.querySelector(
            '.st-key-a [data-testid=stSliderThumbValue]')?.innerText === label""",
        arg=label,
        timeout=10_000,
    )
    assert control.get_attribute("data-index") == str(shown)
    assert not exception_report(w.visit)


# The bold curve of the h chart as drawn (its SVG path) and as Plotly holds it (_fullData).
SETTLE_MS = 150  # live.js: a pause this long is a rest, and Plotly follows
WATCH_MOVES_JS = """() => {
  window.__lnvizMoves = [];
  window.addEventListener("pointermove", () => window.__lnvizMoves.push(performance.now()), true);
}"""
LONGEST_GAP_JS = """() => {
  const t = window.__lnvizMoves;
  let gap = 0;
  for (let k = 1; k < t.length; k++) gap = Math.max(gap, t[k] - t[k - 1]);
  return gap;
}"""
DRAWN_JS = """() => {
  const gd = document.querySelector('.st-key-h .js-plotly-plot');
  const P = window.Plotly;
  if (!P.__lnvizCounted) {  // count the full redraws the control asks Plotly for
    const update = P.update;
    window.__lnvizUpdates = 0;
    P.update = (...args) => { window.__lnvizUpdates += 1; return update.apply(P, args); };
    P.__lnvizCounted = true;
  }
  const paths = [...gd.querySelectorAll('.scatterlayer path.js-line')];
  return [paths.map((e) => e.getAttribute('d')).join('|'), window.__lnvizUpdates];
}"""


def test_while_the_pointer_moves_lines_follow_by_animation_and_the_rest_at_rest(
    watched: Callable[..., Watched],
) -> None:
    """During a moving drag the curves follow through Plotly.animate without a redraw
    (live.js, quickApply): the SVG paths change and no Plotly.update is asked for (a full
    redraw costs 40-55 ms a chart here); once the pointer rests, one Plotly.update brings
    the layout (titles, legend names, ranges) to the state shown."""
    w = watched("epsilon", {"eps": "1e-06"})
    page = w.page
    wait_live(page, "eps-live", ("h",))
    live(page, "eps-live").locator("input").scroll_into_view_if_needed()
    rail = live(page, "eps-live").locator("input")
    box = rail.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.evaluate(WATCH_MOVES_JS)
    page.mouse.move(box["x"] + 8, y)
    page.mouse.down()
    xs = [box["x"] + 8 + (box["width"] - 16) * k / 20 for k in range(1, 13)]
    for _ in range(3):  # a drag that never pauses; a loaded machine may stall one
        page.evaluate("() => { window.__lnvizMoves = []; }")
        path0, n0 = page.evaluate(DRAWN_JS)
        for x in xs:  # keep moving: no rest yet
            page.mouse.move(x, y)
            page.wait_for_timeout(16)
        path1, n1 = page.evaluate(DRAWN_JS)
        if n1 == n0 and page.evaluate(LONGEST_GAP_JS) < SETTLE_MS:
            break
        # The browser went SETTLE_MS without a pointer event, which is a rest: Plotly
        # rightly followed. On a loaded machine a stall can also fall between a timer and
        # the pointer events queued behind it. Let it settle, then drag back the other way:
        # a control that redraws in full on every state does so on every attempt.
        page.wait_for_timeout(400)
        xs.reverse()
    assert path1 != path0  # the curves are redrawn...
    assert n1 == n0  # ...without a full redraw
    page.wait_for_timeout(400)  # the pointer rests (still pressed)
    assert page.evaluate(DRAWN_JS)[1] > n0  # the rest of the frame follows in full
    page.mouse.up()


def test_frames_come_when_the_visitor_reaches_for_the_control_and_then_with_every_state(
    watched: Callable[..., Watched],
) -> None:
    """Frames on demand: none before the pointer comes over the control; one ask when it
    does, then the frames of each new state arrive with its run, without another ask."""
    w = watched("epsilon", {"eps": "1e-06"})
    page = w.page
    control = live(page, "eps-live")
    control.locator("input").wait_for()
    page.wait_for_timeout(500)
    assert control.get_attribute("data-ready") == "0"
    assert page.locator(".st-key-eps-live--frames").count() == 0  # not sent, not built
    arm_live(page, "eps-live")
    assert control.get_attribute("data-asked") == "1"
    assert page.locator(".st-key-eps-live--frames").count() == 1
    z = page.locator(".st-key-z input")
    finished = w.visit.finished_runs
    z.fill("1, 2, 4")
    z.press("Enter")  # a new state: new frames, sent with its run
    wait_for_rerun(w.visit, finished, 30_000)
    page.locator(".st-key-eps-live .live[data-ready='1']").wait_for()
    assert control.get_attribute("data-asked") == "1"  # not asked again
    drag(page, "eps-live", [0.3, 0.6])
    assert int(control.get_attribute("data-frames") or 0) >= 1  # live at once
    release_and_wait(w)
    assert_no_errors(w)
