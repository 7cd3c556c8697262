"""The capacity harness's own client (benchmarks/stclient.py) against a real app server.

The load benchmark trusts this client to do what a browser tab does: open a page with its
URL, move a slider (inside a fragment when the slider is in one), and tell whether what a
visitor sees is its own state. These tests hold it to that on the running app.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from harness import Server, app_pages, run_coroutine, serve
from stclient import Visitor


@pytest.fixture(scope="module")
def app() -> Iterator[Server]:
    with serve("app.py") as server:
        yield server


def test_every_page_opens_without_error_and_shows_charts_where_it_has_them(app: Server) -> None:
    async def visit(page: str) -> tuple[list[str], int]:
        async with Visitor.connect(app.url) as v:
            run = await v.open(page)
            return run.errors, run.chart_bytes

    for page in app_pages():
        errors, chart_bytes = run_coroutine(visit(page))  # type: ignore[misc]
        assert errors == [], page
        if page not in ("glossary", "examples", "references"):  # pages without charts
            assert chart_bytes > 1000, page


def test_a_fragment_slider_reruns_only_its_fragment_and_keeps_the_page(app: Server) -> None:
    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            await v.open("sequences")
            fragment_controls = [c for c in v.controls.values() if c.fragment_id]
            assert fragment_controls, "the sequences page has sliders inside fragments"
            before = dict(v.elements)
            rng = random.Random(3)
            runs = [await v.move_slider(rng) for _ in range(6)]
            assert all(not r.errors for r in runs)
            assert any(r.fragment for r in runs)
            assert set(before) <= set(v.elements)  # nothing outside the fragments vanished

    run_coroutine(scenario())


def test_first_moves_only_the_pages_first_slider(app: Server) -> None:
    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            await v.open("sequences")
            sliders = [c for c in v.controls.values() if c.kind != "checkbox"]
            assert len(sliders) > 1  # a page where a random pick could take another one
            rng = random.Random(3)
            for _ in range(6):
                assert not (await v.move_slider(rng, first=True)).errors
            assert set(v.moved) == {sliders[0].url_key}

    run_coroutine(scenario())


def test_move_moves_the_control_asked_for_and_counts_the_runs_elements(app: Server) -> None:
    """control_costs.py moves each control in turn: a section's control reruns its fragment
    alone, a control of a page's body (its controls and sections as one fragment) that
    fragment, with more elements but fewer than the whole page; a page control the page."""

    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            opened = await v.open("sequences")
            controls = [c for c in v.controls.values() if c.kind != "checkbox"]
            body = next(c for c in controls if c.url_key == "eps")
            section = next(c for c in controls if c.fragment_id not in ("", body.fragment_id))
            rng = random.Random(1)
            small = await v.move(section, rng)
            larger = await v.move(body, rng)
            assert set(v.moved) == {section.url_key, body.url_key}
            assert small.fragment and larger.fragment
            assert 0 < small.elements < larger.elements < opened.elements
        async with Visitor.connect(app.url) as v:
            opened = await v.open("why-normalize")
            (page_wide, *_) = [c for c in v.controls.values() if c.kind != "checkbox"]
            assert not page_wide.fragment_id
            full = await v.move(page_wide, random.Random(1))
            assert not full.fragment and full.elements == opened.elements

    run_coroutine(scenario())


def test_large_unchanged_elements_come_back_as_references_and_draw_the_same_page(
    app: Server,
) -> None:
    """Like a browser, the client lists the large messages it keeps; the server then sends
    them as references, and the page drawn from them is what a fresh visitor sees."""

    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            await v.open("weighted-centering")
            assert v.cache.messages, "the page has elements of 10 kB or more"
            large = sum(len(m.raw) for m in v.cache.messages.values())
            full = await v.full_rerun()  # nothing moved: the large elements are unchanged
            assert not full.errors
            async with Visitor.connect(app.url) as fresh:
                first = await fresh.open("weighted-centering")
            # references, not copies: the rerun is lighter by about the large elements' bytes
            assert first.received_bytes - full.received_bytes > 0.9 * large
            assert v.digest() == fresh.digest()

    run_coroutine(scenario())


def test_own_state_check_matches_a_fresh_visitor_and_detects_a_different_state(
    app: Server,
) -> None:
    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            await v.open("epsilon")
            rng = random.Random(7)
            for _ in range(5):
                assert not (await v.move_slider(rng)).errors
            await v.full_rerun()
            assert v.moved, "the visitor moved at least one control"
            async with Visitor.connect(app.url) as same:
                await same.open("epsilon", v.query_string)
                assert same.digest() == v.digest()
            async with Visitor.connect(app.url) as other:
                await other.open("epsilon")  # defaults: not the visitor's state
                assert other.digest() != v.digest()

    run_coroutine(scenario())


def test_a_form_is_filled_and_submitted_and_its_fragment_shows_the_verdict(app: Server) -> None:
    """`fill` then `click` the submit button: the form's values reach the server with the
    click and the form's fragment reruns; what the page says is read with `text`."""

    async def scenario() -> None:
        async with Visitor.connect(app.url) as v:
            await v.open("epsilon")
            box = v.widget("text_input", label="Your answer", key="answer-epsilon-")
            check = v.widget("button", label="Check")
            assert check.submits_form and check.form_id == box.form_id and box.fragment_id
            v.fill(box, "0.5")
            wrong = await v.click(check)
            assert wrong.fragment and "0.5 is not it." in v.text(box.fragment_id)
            v.fill(box, "8/9")  # the core's variance of z = (2, 4, 6) at ε = 1/3
            assert not (await v.click(check)).errors
            verdict = v.text(box.fragment_id)  # the alert drawn anew, the old one gone
            assert "0.888889 is right." in verdict and "not it" not in verdict, verdict
        async with Visitor.connect(app.url) as v:
            await v.open("numerics")
            radio = v.widget("radio", label="Your answer")
            v.fill(radio, radio.options[3])
            with pytest.raises(ValueError):
                v.fill(radio, "not an option")
            await v.click(v.widget("button", label="Check"))
            assert "That is right." in v.text(radio.fragment_id)  # the radio's option was sent

    run_coroutine(scenario())


@pytest.mark.parametrize("first", [False, True], ids=["any-slider", "first-slider"])
def test_load_benchmark_runs_clean_on_a_small_classroom(app: Server, first: bool) -> None:
    import load

    args = load.argparse.Namespace(
        visitors=4,
        think=0.5,
        seconds=2.0,
        pages=["epsilon", "invariance"],
        gc="off",
        url=app.url,
        replicas=0,
        floor=False,
        first=first,
    )
    res = run_coroutine(load.run_load(app.url, [app.pid], args))
    summary = load.summarize(res)
    assert res.errors == []
    assert res.own_state_checked == 4 and res.own_state_mismatches == []
    assert summary["reruns"] >= 8  # 4 visitors, about 2 moves a second each, for 2 s
    assert summary["memory_mb"]["peak"] > 50  # type: ignore[index]


def test_load_benchmark_drives_the_floor_app_with_floor() -> None:
    """`load.py --floor`, as a command (its own process: asyncio.run needs a thread with no
    event loop running, which a test worker does not promise)."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "benchmarks/load.py", "--floor", "--visitors", "3", "--seconds", "2",
           "--think", "0.5"]  # fmt: skip
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "the floor app, 1 server" in out and "errors 0" in out
    assert "own state: 3 of 3 match" in out
