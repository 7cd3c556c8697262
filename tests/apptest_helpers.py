"""Helpers for driving pages headlessly with streamlit.testing.v1.AppTest."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from lnviz.app.live import WANTED_SUFFIX
from lnviz.app.quiz import tab_key

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "tests" / "app_entry.py"  # app.py for AppTest (its docstring says why)


def page(name: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Run pages/<name>.py once through the router, optionally with URL query parameters."""
    at = AppTest.from_file(str(ENTRY), default_timeout=timeout)
    at.switch_page(f"../pages/{name}.py")
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


def figures(at: AppTest) -> list[dict[str, Any]]:
    """The Plotly figure specs shown on the page, as dicts.

    Trace arrays travel as typed arrays ({"dtype", "bdata"[, "shape"]}); they are decoded
    here into plain lists (rows of lists for 2-D), NaN as None, so that tests read numbers
    whatever the encoding.
    """
    return [_decoded(json.loads(chart.proto.spec)) for chart in at.get("plotly_chart")]


def _decoded(node: Any) -> Any:
    if isinstance(node, dict):
        if "bdata" in node and "dtype" in node:
            return _rows(node) if "shape" in node else values(node)
        return {k: _decoded(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_decoded(v) for v in node]
    return node


def texts(at: AppTest) -> str:
    """All markdown, metric, caption, alert and dataframe text of the page, joined."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "latex"):
        parts += [str(e.value) for e in at.get(kind)]
    parts += [f"{m.label}={m.value}" for m in at.metric]
    parts += [str(d.value) for d in at.dataframe]
    return "\n".join(parts)


def shown(markdown: str) -> str:
    """What a reader sees of a message that quotes a visitor (lnviz.app.ui.plain escapes it).

    >>> shown(r"a \\= \\(3\\,\\) must be \\> 0")
    'a = (3,) must be > 0'
    """
    import re

    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown)).replace("\u2060", "")


def assert_clean(at: AppTest) -> None:
    """No exception element on the page."""
    assert not at.exception, [e.message for e in at.exception]


def values(data: Any) -> list[Any]:
    """A trace array as a flat list, decoding Plotly's typed-array form {"bdata", "dtype"}.

    A typed array's NaN (what lnviz.figures._style.r makes of a non-finite value: a gap in
    the chart) comes back as None, as a gap in a plain JSON list is written.
    """
    import base64

    import numpy as np

    if isinstance(data, dict) and "bdata" in data:
        arr = np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
        if arr.dtype.kind == "f":
            return [None if v != v else v for v in arr.tolist()]  # v != v: NaN
        return arr.tolist()
    return list(np.ravel(np.asarray(data, dtype=object)))


def _rows(data: dict[str, Any]) -> list[list[Any]]:
    """A 2-D typed array (a heatmap's z) as rows; Plotly writes its shape as "rows, cols"."""
    flat = values(data)
    n = int(str(data["shape"]).split(",")[1])
    return [flat[i : i + n] for i in range(0, len(flat), n)]


# --- reading a page ----------------------------------------------------------------------


def metric(at: AppTest, label: str) -> str:
    """The value of the metric labelled `label` (StopIteration if there is none)."""
    return next(m.value for m in at.metric if m.label == label)


def assert_metrics(at: AppTest, expected: dict[str, str]) -> None:
    """The page shows each metric labelled like a key of `expected`, with that value."""
    assert {label: metric(at, label) for label in expected} == expected


def notes(at: AppTest) -> str:
    """The page's bulleted lists (its 'what to notice' bullets): markdown starting "- "."""
    return "\n".join(str(m.value) for m in at.markdown if str(m.value).startswith("- "))


def figure(at: AppTest, title_start: str) -> dict[str, Any]:
    """The chart whose title starts with `title_start`."""
    for fig in figures(at):
        if fig["layout"]["title"]["text"].startswith(title_start):
            return fig
    raise AssertionError(f"no chart titled {title_start!r}")


def trace(fig: dict[str, Any], name_start: str) -> dict[str, Any]:
    """The trace of `fig` whose legend name starts with `name_start`."""
    return next(t for t in fig["data"] if t.get("name", "").startswith(name_start))


def assert_live_data_under_1_mb(at: AppTest) -> None:
    """The page's chart specs and its live controls' data (the frames, which must travel
    with the control: over 100 kB) weigh at most 1 MB together."""
    at = want_frames(at)
    charts = sum(len(c.proto.spec.encode()) for c in at.get("plotly_chart"))
    live = sum(sent_bytes(e) for e in at.get("bidi_component"))
    assert live > 100_000  # the frames travel with the control
    assert charts + live <= 1_000_000, (charts, live)


# --- acting on a page ---------------------------------------------------------------------


def pressed(name: str, button_key: str, query: dict[str, str] | None = None) -> AppTest:
    """Run pages/<name>.py (with `query`), press the button `button_key` (a preset) and
    return the page after that run, checked free of exceptions."""
    at = page(name, query)
    at.button(key=button_key).click().run()
    assert_clean(at)
    return at


def assert_changes(
    at: AppTest, kind: str, key: str, value: Any, part: Callable[[list[dict[str, Any]]], Any]
) -> None:
    """Set the `kind` control (at.select_slider, at.radio, ...) keyed `key` to `value` and
    rerun: no exception, and `part` of the page's figures (e.g. lambda f: f[3]["data"][1]["y"])
    is no longer what it was."""
    before = part(figures(at))
    getattr(at, kind)(key=key).set_value(value).run()
    assert_clean(at)
    assert part(figures(at)) != before, f"{key} = {value!r} left it as it was"


def one_key_queries(bad: dict[str, tuple[str, ...]]) -> list[dict[str, str]]:
    """One URL query per bad value, each with that value alone on its key, to parametrize a
    test of refused links.

    >>> one_key_queries({"eps": ("nan", "-1"), "z": ("1",)})
    [{'eps': 'nan'}, {'eps': '-1'}, {'z': '1'}]
    """
    return [{key: value} for key, values in bad.items() for value in values]


def refused(name: str, query: dict[str, str]) -> AppTest:
    """Run pages/<name>.py with a bad `query`: the page must show a warning or an error
    (its message about the link), or for a select slider's value between two of its values
    the note that it snapped to the nearer one; never an exception. Returns the page."""
    at = page(name, query)
    assert_clean(at)
    snapped = any("between the slider's values" in str(i.value) for i in at.info)
    assert at.warning or at.error or snapped, f"{name} accepted {query} without a message"
    return at


# --- predict, then check ------------------------------------------------------------------


def open_question(at: AppTest, page_path: str, key: str) -> AppTest:
    """Open the tab of question `key` (only the open question is drawn): as a visitor,
    try each tab of the page's question box until that question's form is there."""
    form = f"quiz-{page_path}-{key}"
    for label in [t.label for t in at.get("tab")]:
        if any(b.proto.form_id == form for b in at.button):
            return at
        at.session_state[tab_key(page_path)] = label
        at.run()
    assert any(b.proto.form_id == form for b in at.button), f"no question {key!r} on the page"
    return at


def answer(at: AppTest, page_path: str, key: str, response: str | int) -> AppTest:
    """On a page opened through the router, type (a str) or pick (an int: a radio option)
    the answer to question `key` and press its Check button; the AppTest after that run."""
    at = open_question(at, page_path, key)
    name = f"answer-{page_path}-{key}"
    if isinstance(response, int):
        at.radio(key=name).set_value(response)
    else:
        at.text_input(key=name).set_value(response)
    (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{page_path}-{key}"]
    return button.click().run()


def verdicts(at: AppTest) -> str:
    """What the questions said after a Check: success, error and info messages, joined."""
    return "\n".join(str(e.value) for kind in ("success", "error", "info") for e in at.get(kind))


def answer_on_page(
    page_path: str, key: str, text: str, query: dict[str, str] | None = None
) -> AppTest:
    """Open a page through the router, type `text` into question `key`'s box and press
    Check; the AppTest after that run."""
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=90)
    at.switch_page(f"../pages/{page_path}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return answer(at.run(), page_path, key, text)


def assert_right_answer_explained(
    page_path: str,
    key: str,
    text: str,
    *explained: str,
    query: dict[str, str] | None = None,
    links_back: bool = True,
) -> AppTest:
    """Answer question `key` on the page with `text`: the page must say it "is right", show
    each of `explained` in that success message and (links_back) link to a state of the
    same page. Returns the page after the answer."""
    at = answer_on_page(page_path, key, text, query)
    assert_clean(at)
    said = "\n".join(str(e.value) for e in at.success)
    assert "is right" in said, said
    for part in explained:
        assert part in said, f"{part!r} not in {said!r}"
    if links_back:
        assert any(link.proto.page.endswith(page_path) for link in at.main.get("page_link"))
    return at


def live_data(at: AppTest, key: str) -> tuple[Any, dict[str, Any]]:
    """The live control `key` (lnviz.app.live) and its data, with its frames (sent as an
    element of their own, key + "--frames") under "charts". Frames are sent on demand
    (lnviz.app.live): when the page has not sent them yet, this asks for them as the
    browser does when the visitor reaches for the control, and runs the page again."""
    if not _frames_elements(at, key):
        at.session_state[f"{key}{WANTED_SUFFIX}"] = True  # what the "wanted" trigger sets
        at.run()
    (element,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(key)]
    (frames,) = _frames_elements(at, key)
    assert element.proto.component_name == frames.proto.component_name == "lnviz.live"
    data = json.loads(element.proto.json)
    assert frames.proto.WhichOneof("data") == "bytes"  # passed on as they are (live.Frames)
    assert frames.proto.bytes.startswith(b'{"frames_id":"')  # live.js reads the id first
    sent = json.loads(frames.proto.bytes)
    assert sent["mode"] == "frames" and sent["frames_id"] == data["frames_id"]
    return element, {**data, "charts": sent["charts"]}


def want_frames(at: AppTest) -> AppTest:
    """`at` with every live control's frames: asked for as the browser asks when the
    visitor reaches for a control (frames on demand, lnviz.app.live), then run again."""
    keys = [
        e.proto.id.split("-", 2)[2]  # "$$ID-<hash>-<key>"
        for e in at.get("bidi_component")
        if e.proto.component_name == "lnviz.live" and not e.proto.id.endswith("--frames")
    ]
    missing = [k for k in keys if not _frames_elements(at, k)]
    for key in missing:
        at.session_state[f"{key}{WANTED_SUFFIX}"] = True
    return at.run() if missing else at


def _frames_elements(at: AppTest, key: str) -> list[Any]:
    return [e for e in at.get("bidi_component") if e.proto.id.endswith(f"{key}--frames")]


def sent_bytes(element: Any) -> int:
    """What a component element sends as its data: JSON text or bytes (the frames)."""
    return len(element.proto.json.encode()) + len(element.proto.bytes)
