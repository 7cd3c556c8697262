"""Figures recorded as plain dicts, then handed to Plotly in one step (checked when VALIDATE)."""

from __future__ import annotations

import base64
import contextvars
import copy
import json
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from lnviz.figures._palette import finished

VALIDATE = os.environ.get("LNVIZ_VALIDATE_FIGURES", "") not in ("", "0")

# Plotly properties whose own name has an underscore (the shorthand must not split them).
_UNDERSCORED = ("error_x", "error_y", "error_z")


def nested(props: Mapping[str, Any]) -> dict[str, Any]:
    """Expand Plotly's underscore shorthand: {"marker_color": c} -> {"marker": {"color": c}}."""
    out: dict[str, Any] = {}
    for key, value in props.items():
        if value is None:  # Plotly's "unset": nothing is sent
            continue
        parts = _split(key)
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        leaf = parts[-1]
        if isinstance(value, Mapping) and isinstance(node.get(leaf), dict):
            merge(node[leaf], nested(value))
        else:
            node[leaf] = nested(value) if isinstance(value, Mapping) else value
    return out


def _split(key: str) -> list[str]:
    for name in _UNDERSCORED:
        if key == name or key.startswith(name + "_"):
            rest = key[len(name) + 1 :]
            return [name, *(_split(rest) if rest else [])]
    return key.split("_")


def merge(target: dict[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """Merge `update` into `target` in place, dict into dict; other values replace, None removes."""
    for key, value in update.items():
        if value is None:  # unset, as update_layout(title=None) does
            target.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = merge({}, value) if isinstance(value, Mapping) else value  # a copy
    return target


def _trace_adder(kind: str) -> Callable[..., FigureSpec]:
    """FigureSpec's add_<kind> method: add_trace(kind, ...)."""

    def add(self: FigureSpec, **kw: Any) -> FigureSpec:
        return self.add_trace(kind, **kw)

    add.__name__, add.__qualname__ = f"add_{kind}", f"FigureSpec.add_{kind}"
    add.__doc__ = f"Add a {kind} trace, as go.Figure.add_{kind}."
    return add


class FigureSpec:
    """go.Figure's building calls, recorded as plain dicts; add_trace takes the type and props."""

    def __init__(self) -> None:
        self.data: list[dict[str, Any]] = []
        self.layout: dict[str, Any] = {}
        self.frames: list[dict[str, Any]] | None = None
        self.cols = 1  # subplot columns (see subplots)

    @classmethod
    def subplots(cls, rows: int, cols: int, **kw: Any) -> FigureSpec:
        """make_subplots(rows, cols, **kw)'s grid; its layout is computed once and copied."""
        spec = cls()
        frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
        spec.layout = copy.deepcopy(_grid_layout(rows, cols, tuple(sorted(frozen.items()))))
        spec.cols = cols
        return spec

    def _axis(self, letter: str, row: int, col: int) -> str:
        k = (row - 1) * self.cols + col  # make_subplots numbers axes row by row
        return letter if k == 1 else f"{letter}{k}"

    def __repr__(self) -> str:
        return f"FigureSpec({len(self.data)} traces)"

    # traces ---------------------------------------------------------------------------
    def add_trace(
        self,
        kind: str,
        props: Mapping[str, Any] | None = None,
        *,
        row: int | None = None,
        col: int | None = None,
        **kw: Any,
    ) -> FigureSpec:
        trace = {"type": kind, **nested({**(props or {}), **kw})}
        if row is not None and col is not None:
            trace["xaxis"], trace["yaxis"] = self._axis("x", row, col), self._axis("y", row, col)
        self.data.append(trace)
        return self

    # add_scatter(**kw) is add_trace("scatter", **kw), and likewise for each trace type used
    add_scatter, add_bar, add_heatmap, add_box, add_scatter3d, add_mesh3d = (
        _trace_adder(kind) for kind in ("scatter", "bar", "heatmap", "box", "scatter3d", "mesh3d")
    )

    def update_traces(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        update = nested({**(props or {}), **kw})
        for trace in self.data:
            merge(trace, update)
        return self

    # layout ---------------------------------------------------------------------------
    def update_layout(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        merge(self.layout, nested({**(props or {}), **kw}))
        return self

    def update_xaxes(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        """Every x axis, or only subplot (row=, col=)'s, as go.Figure.update_xaxes."""
        return self._update_axes("x", props, kw)

    def update_yaxes(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        """Every y axis, or only subplot (row=, col=)'s, as go.Figure.update_yaxes."""
        return self._update_axes("y", props, kw)

    def _update_axes(
        self, letter: str, props: Mapping[str, Any] | None, kw: dict[str, Any]
    ) -> FigureSpec:
        row: int | None = kw.pop("row", None)
        col: int | None = kw.pop("col", None)
        update = nested({**(props or {}), **kw})
        if row is not None and col is not None:
            names = [self._axis(letter, row, col)]
        else:
            pattern = re.compile(rf"{letter}axis\d*")
            names = [k[:1] + k[5:] for k in self.layout if pattern.fullmatch(k)] or [letter]
        for name in names:
            merge(self.layout.setdefault(f"{letter}axis{name[1:]}", {}), update)
        return self

    def add_annotation(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        self.layout.setdefault("annotations", []).append(nested({**(props or {}), **kw}))
        return self

    def update_annotations(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        update = nested({**(props or {}), **kw})
        for note in self.layout.get("annotations", []):
            merge(note, update)
        return self

    def add_shape(self, props: Mapping[str, Any] | None = None, **kw: Any) -> FigureSpec:
        self.layout.setdefault("shapes", []).append(nested({**(props or {}), **kw}))
        return self

    # the figure -----------------------------------------------------------------------
    def figure(self) -> go.Figure:
        """One go.Figure of all recorded (checked if VALIDATE); the spec itself in json_data."""
        if _RECORDING.get():
            return self  # type: ignore[return-value]
        return go.Figure(data=self.data, layout=self.layout, frames=self.frames, _validate=VALIDATE)

    def plotly_json(self) -> dict[str, Any]:
        """The JSON data pio.to_json(self.figure()) would encode, without Plotly objects."""
        layout = _plain_dict(self.layout)
        if "template" not in layout:
            layout["template"] = _default_template(pio.templates.default)
        return {"data": [_trace_json(t) for t in self.data], "layout": layout}


_RECORDING: contextvars.ContextVar[bool] = contextvars.ContextVar("lnviz_recording", default=False)


def json_data(build: Callable[..., go.Figure], *args: Any) -> dict[str, Any]:
    """build(*args) as the JSON data Plotly would send, without a go.Figure when checks are off."""
    if VALIDATE:
        return finished(_through_plotly(build(*args)))
    token = _RECORDING.set(True)
    try:
        made: Any = build(*args)
    finally:
        _RECORDING.reset(token)
    if isinstance(made, FigureSpec):
        if not made.frames:
            try:
                return finished(made.plotly_json())
            except TypeError:  # a value without a plain JSON form here (a date, a Series)
                pass
        made = made.figure()  # a go.Figure now: recording has ended
    return finished(_through_plotly(made))


def _through_plotly(fig: go.Figure) -> dict[str, Any]:
    return json.loads(pio.to_json(fig, validate=False))


def _default_template(name: str) -> dict[str, Any]:
    """go.Figure's default template as JSON data, a new copy per figure: layouts change in place."""
    return json.loads(_template_text(name))


@lru_cache(maxsize=4)
def _template_text(name: str) -> str:
    return json.dumps(_through_plotly(go.Figure())["layout"]["template"])


def _trace_json(trace: dict[str, Any]) -> dict[str, Any]:
    """A trace's JSON data; its type last, where go.Figure's to_dict puts it."""
    out = _plain_dict({k: v for k, v in trace.items() if k != "type"})
    out["type"] = trace["type"]
    return out


def _plain_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    """A dict's values as JSON data, arrays under a key as typed-array specs (convert_to_base64)."""
    out: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, np.ndarray) and key not in _NOT_TYPED:
            out[key] = _typed_array(value)
        else:
            out[key] = _plain(value)
    return out


# Plotly's rule (plotly 6, _plotly_utils.utils.to_typed_array_spec and is_skipped_key):
# arrays under these keys stay lists; these dtypes travel as base64 typed arrays, 64-bit
# integers narrowed to the smallest that holds them, other arrays as lists.
_NOT_TYPED = frozenset({"geojson", "layer", "layers", "range"})
_SHORT_TYPES = {
    "int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2",
    "int32": "i4", "uint32": "u4", "float32": "f4", "float64": "f8",
}  # fmt: skip
_NARROWER = {"int64": (np.int8, np.int16, np.int32), "uint64": (np.uint8, np.uint16, np.uint32)}


def _typed_array(v: np.ndarray) -> Any:
    """A numpy array as Plotly's typed-array spec, or as a list where Plotly sends one."""
    if v.size == 0:
        return []
    dtype = str(v.dtype)
    if dtype in _NARROWER:
        low, high = v.min(), v.max()
        fits = [t for t in _NARROWER[dtype] if np.iinfo(t).min <= low and high <= np.iinfo(t).max]
        if not fits:
            return _plain(v)
        v = v.astype(fits[0])
        dtype = str(v.dtype)
    short = _SHORT_TYPES.get(dtype)
    if short is None:
        return _plain(v)
    spec = {"dtype": short, "bdata": base64.b64encode(np.ascontiguousarray(v)).decode("ascii")}
    if v.ndim > 1:
        spec["shape"] = str(v.shape)[1:-1]
    return spec


def _plain(value: Any) -> Any:
    """JSON data of a value as Plotly's encoder writes it: NaN and inf as null, numpy as Python."""
    if isinstance(value, str) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return _plain_dict(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return _plain(value.item())
    raise TypeError(f"a figure value of type {type(value).__name__} has no JSON form here")


@lru_cache(maxsize=32)
def _grid_layout(rows: int, cols: int, options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """make_subplots' layout for a grid, without the template (go.Figure adds its default)."""
    layout = make_subplots(rows=rows, cols=cols, **dict(options)).to_dict()["layout"]
    layout.pop("template", None)
    return layout


@dataclass(frozen=True)
class Chart:
    """A figure builder and its alt-text builder, drawn in one call so both use the same data."""

    figure: Callable[..., go.Figure]
    alt: Callable[..., str]
