"""Frames of a live control: what each chart's traces and layout become at every grid value.

A live control (lnviz.app.live) switches charts that the page already drew between states
computed in advance, in the browser, while the visitor drags. This module writes those
states for one chart as plain JSON: for each (trace, attribute) and each layout path that
moves, one value per grid value. The browser applies frame i with one Plotly.update call
per chart (restyle of the listed traces, relayout of the listed paths).

Numeric arrays travel as base64 float32 ({"f4": "..."}): 4 bytes per value, decoded once
into typed arrays when the control mounts.

>>> f = Frames("h", 2).trace(1, "y", [[0.0, 1.0], [0.0, 2.0]]).layout("title.text", ["a", "b"])
>>> p = f.payload()
>>> p["key"], p["traces"], p["layout"][0]["path"], p["data"][0]["values"][1]
('h', [1], 'title.text', [0.0, 2.0])
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np


def encode(value: Any) -> Any:
    """A frame value as JSON: a 1-D float array as base64 float32, anything else as is.

    >>> encode(np.arange(9.0))["f4"][:12], encode(np.array([1.0, np.inf])), encode(np.float64(0.5))
    ('AAAAAAAAgD8A', [1.0, None], 0.5)
    """
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.size > 8:  # a curve
        return {"f4": base64.b64encode(value.astype("<f4").tobytes()).decode("ascii")}
    if isinstance(value, np.ndarray):
        finite = np.isfinite(value)  # JSON has no NaN: a gap is null
        return np.where(finite, value, None).tolist() if not finite.all() else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple) and len(value) > 8 and isinstance(value[0], int | float):
        return encode(np.asarray(value, dtype=float))
    return value


def encode_rows(values: Sequence[Any] | np.ndarray) -> list[Any]:
    """[encode(v) for v in values], with short finite numeric rows of one length (points,
    bars: encode writes each as a plain list) converted in one step rather than row by row.

    >>> rows = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
    >>> encode_rows(rows) == [encode(r) for r in rows] == [[1.0, 2.0], [3.0, 4.0]]
    True
    >>> encode_rows([np.array([1.0, np.nan]), np.array([3.0, 4.0])])
    [[1.0, None], [3.0, 4.0]]
    >>> encode_rows(np.array([[1.0, 2.0], [3.0, 4.0]])), encode_rows(np.array([0.5, np.inf]))
    ([[1.0, 2.0], [3.0, 4.0]], [0.5, inf])
    """
    block = None
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiu":
        if values.ndim == 1:  # one number per frame: encode writes each as a Python number
            return values.tolist()
        if values.ndim == 2 and values.shape[1] <= 8:
            block = values  # (n, m)
    elif len(values) and isinstance(values[0], np.ndarray):
        first = values[0]
        if first.ndim == 1 and first.size <= 8:
            with contextlib.suppress(ValueError, TypeError):
                block = np.stack(values)  # (n, m): rows of one length
    if block is not None and block.dtype.kind in "fiu" and np.isfinite(block).all():
        return block.tolist()
    return [encode(v) for v in values]


class Frames:
    """The moving parts of one chart (Streamlit key `key`) over `n` grid values."""

    def __init__(self, key: str, n: int) -> None:
        self.key = key
        self.n = n
        self._data: list[dict[str, Any]] = []
        self._layout: list[dict[str, Any]] = []

    def _check(self, values: Sequence[Any] | np.ndarray) -> list[Any]:
        if len(values) != self.n:
            raise ValueError(f"{self.key}: {len(values)} frame values for {self.n} grid values")
        return encode_rows(values)

    def trace(self, index: int, attr: str, values: Sequence[Any] | np.ndarray) -> Frames:
        """Trace `index`'s attribute `attr` (a Plotly restyle path) at each grid value."""
        self._data.append({"trace": int(index), "attr": attr, "values": self._check(values)})
        return self

    def layout(self, path: str, values: Sequence[Any] | np.ndarray) -> Frames:
        """The layout path `path` (a Plotly relayout path) at each grid value."""
        self._layout.append({"path": path, "values": self._check(values)})
        return self

    def payload(self) -> dict[str, Any]:
        traces = sorted({d["trace"] for d in self._data})
        return {"key": self.key, "traces": traces, "data": self._data, "layout": self._layout}
