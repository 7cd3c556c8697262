"""Figures recorded as plain dicts and handed to Plotly in one step.

Plotly's building calls (fig.add_scatter, fig.update_layout, ...) validate each property and
run the figure's update machinery on every call: 0.5–1 ms per trace, 2–3 ms per layout
update, so a chart of a dozen traces took 10–25 ms to build, far more than the engine's
numbers behind it, and on a busy server that was the largest share of its work. A
FigureSpec offers the same calls for the figures of this package, only records what they
ask for as plain dicts, and makes one go.Figure at the end, whose constructor checks every
property once when VALIDATE is on, and skips the checks when it is off.

VALIDATE is on when the environment sets LNVIZ_VALIDATE_FIGURES=1 (the test suite does:
every figure a test builds is checked by Plotly, so a misspelt property fails a test); a
test also builds each page's figures both ways and compares the JSON sent to the browser.

Keyword arguments follow Plotly's "magic underscore" shorthand: marker_color=... is
{"marker": {"color": ...}}. Layout updates merge into what is there, dict into dict, as
update_layout does.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

VALIDATE = os.environ.get("LNVIZ_VALIDATE_FIGURES", "") not in ("", "0")

# Plotly properties whose own name has an underscore (the shorthand must not split them).
_UNDERSCORED = ("error_x", "error_y", "error_z")


def nested(props: Mapping[str, Any]) -> dict[str, Any]:
    """Expand Plotly's underscore shorthand: {"marker_color": c} -> {"marker": {"color": c}}.

    >>> nested({"marker_color": "red", "legend_title_text": "t", "error_y": {"width": 2}})
    {'marker': {'color': 'red'}, 'legend': {'title': {'text': 't'}}, 'error_y': {'width': 2}}
    """
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
    """Merge `update` into `target` in place, dict into dict; other values replace, None
    removes."""
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
    """A figure being built: traces, layout, frames as plain dicts (see the module's text).

    The methods are go.Figure's, with one difference: add_trace takes the trace's type and
    its properties (add_trace("heatmap", props)) rather than a trace object.

    >>> spec = FigureSpec()
    >>> spec.add_scatter(x=[1, 2], y=[3, 4], line_color="red").update_layout(height=300)
    FigureSpec(1 traces)
    >>> spec.figure().to_dict()["data"][0]["line"]
    {'color': 'red'}
    """

    def __init__(self) -> None:
        self.data: list[dict[str, Any]] = []
        self.layout: dict[str, Any] = {}
        self.frames: list[dict[str, Any]] | None = None
        self.cols = 1  # subplot columns (see subplots)

    @classmethod
    def subplots(cls, rows: int, cols: int, **kw: Any) -> FigureSpec:
        """A grid of plots, laid out as plotly.subplots.make_subplots(rows, cols, **kw) does
        (its axes' domains and the subplot titles); traces and axis updates then take
        row= and col=. make_subplots's layout is computed once per grid and copied.

        >>> spec = FigureSpec.subplots(1, 2, subplot_titles=("a", "b"))
        >>> spec.add_scatter(x=[0], y=[1], row=1, col=2).data[0]["xaxis"]
        'x2'
        """
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
        """One go.Figure of everything recorded (checked by Plotly when VALIDATE is on)."""
        return go.Figure(data=self.data, layout=self.layout, frames=self.frames, _validate=VALIDATE)


@lru_cache(maxsize=32)
def _grid_layout(rows: int, cols: int, options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """make_subplots' layout for a grid (axes' domains and anchors, subplot titles),
    without the template (go.Figure adds its default one)."""
    layout = make_subplots(rows=rows, cols=cols, **dict(options)).to_dict()["layout"]
    layout.pop("template", None)
    return layout


@dataclass(frozen=True)
class Chart:
    """A figure builder and its alt-text builder, called with the same arguments.

    Pages draw a pair with one call (lnviz.app.charts.chart), so a chart's picture and
    its description can never be built from different data.

    >>> pair = Chart(lambda xs: FigureSpec().add_trace({"type": "bar", "y": xs}).build(),
    ...              lambda xs: f"Bars of {len(xs)} values.")
    >>> pair.alt([1, 2])
    'Bars of 2 values.'
    """

    figure: Callable[..., go.Figure]
    alt: Callable[..., str]
