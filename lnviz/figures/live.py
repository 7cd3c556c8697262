"""Frames of a live control: each chart's traces and layout at every grid value, for the browser."""

from __future__ import annotations

import base64
import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np


def encode(value: Any) -> Any:
    """A frame value as JSON: a 1-D float array as base64 float32, anything else as is."""
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.size > 8:  # a curve
        return {"f4": base64.b64encode(value.astype("<f4").tobytes()).decode("ascii")}
    if isinstance(value, np.ndarray):
        finite = np.isfinite(value)  # JSON has no NaN: a gap is null
        return np.where(finite, value, None).tolist() if not finite.all() else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple) and len(value) > 8 and all(_number(v) for v in value):
        return encode(np.asarray(value, dtype=float))
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def encode_rows(values: Sequence[Any] | np.ndarray) -> list[Any]:
    """[encode(v) for v in values], converting short finite rows of one length in one step."""
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


RANGE = re.compile(r"axis\d*\.range$")  # an axis's range: xaxis.range, yaxis2.range, ...


class TracesChange(ValueError):
    """Raised when a chart's traces change in number or type: restyle can't follow, so no frames."""


def moving_parts(key: str, figures: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Frames of chart `key`: every trace attribute and layout path that differs between figures."""
    kinds = {tuple(t.get("type") for t in f.get("data", ())) for f in figures}
    if len(kinds) != 1:  # restyle addresses traces by index: they must stay what they are
        raise TracesChange(f"{key}: the figure's traces change in number or type with the control")
    frames = Frames(key, len(figures))
    for i in range(len(kinds.pop())):
        for path, values in _moving([f["data"][i] for f in figures]):
            frames.trace(i, path, values)
    for path, values in _moving([f.get("layout", {}) for f in figures]):
        frames.layout(path, values)
        if RANGE.search(path) and None in values:  # relayout of a range turns its
            frames.layout(f"{path[:-5]}autorange", [v is None for v in values])  # autorange off
    return frames.payload()


def _moving(parts: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, list[Any]]]:
    """(path, values) of each leaf that differs across `parts`, walking dicts and lists of dicts."""
    keys = dict.fromkeys(k for part in parts for k in part)
    for k in keys:
        values = [part.get(k) for part in parts]
        if all(isinstance(v, Mapping) and not _is_typed(v) for v in values):
            for path, inner in _moving(values):
                yield f"{k}.{path}", inner
        elif _dict_lists(values):
            for j in range(len(values[0])):
                for path, inner in _moving([v[j] for v in values]):
                    yield f"{k}[{j}].{path}", inner
        else:
            first = values[0]
            if any(v != first for v in values):  # JSON data: == compares deeply, no NaN
                yield k, [_decoded(v) for v in values]


def _dict_lists(values: list[Any]) -> bool:
    """Whether `values` are lists of dicts of one length (shapes, annotations)."""
    lists = all(
        isinstance(v, list) and v and all(isinstance(e, Mapping) for e in v) for v in values
    )
    return lists and len({len(v) for v in values}) == 1


def _is_typed(value: Mapping[str, Any]) -> bool:
    return "bdata" in value and "dtype" in value


def _decoded(value: Any) -> Any:
    """A typed-array spec as a numpy array (sent again as float32 by `encode`), else as is."""
    if isinstance(value, Mapping) and _is_typed(value):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])  # (n,)
        shape = value.get("shape")
        if shape:
            flat = flat.reshape([int(n) for n in str(shape).split(",")])
        return flat.astype(np.float64)
    return value
