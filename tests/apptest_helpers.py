"""Helpers for driving pages headlessly with streamlit.testing.v1.AppTest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def page(name: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Run pages/<name>.py once, optionally with URL query parameters, and return it."""
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=timeout)
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


def answer_on_page(
    page_path: str, key: str, text: str, query: dict[str, str] | None = None
) -> AppTest:
    """Open a page through the router, type `text` into question `key`'s box and press
    Check; the AppTest after that run."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.switch_page(f"pages/{page_path}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    at.text_input(key=f"answer-{page_path}-{key}").set_value(text)
    (button,) = [b for b in at.button if b.proto.form_id == f"quiz-{page_path}-{key}"]
    return button.click().run()
