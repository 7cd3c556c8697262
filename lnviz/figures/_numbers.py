"""The numbers behind a chart, read from its Plotly JSON, as tables a screen reader reads."""

from __future__ import annotations

import base64
import math
import re
from typing import Any

import numpy as np

MAX_ROWS = 50  # a longer trace (or a heatmap's rows) is thinned to about this many
MAX_COLUMNS = 12  # a heatmap's columns, likewise
ONE_D = ("labels", "values", "x", "y", "z")  # a trace's data arrays, in table order


def plain_array(value: Any) -> np.ndarray | None:
    """A trace's data array as NumPy (Plotly's typed-array spec decoded), None if absent."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(n) for n in str(value.get("shape", len(flat))).split(",")]
        return flat.reshape(shape)
    if isinstance(value, list | tuple):
        return np.array(value, dtype=object)
    return None


def cell(value: Any) -> str:
    """A number to 6 significant digits with a true minus, else text; a gap as a dash."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, int | float | np.number) and not isinstance(value, bool):
        return f"{float(value):.6g}".replace("-", "−").replace("inf", "∞")
    return str(value)


def _every(n: int, most: int) -> int:
    """The step that keeps at most `most` of `n` items."""
    return max(1, math.ceil(n / most))


def _text(value: Any) -> str:
    """A title as plain words: breaks as spaces, ^ for a superscript, other tags and $ dropped."""
    title = value.get("text", "") if isinstance(value, dict) else value or ""
    title = re.sub(r"<br\s*/?>", " ", str(title)).replace("<sup>", "^")
    return re.sub(r"<[^>]+>|\$", "", title).strip()


def _axis_title(layout: dict[str, Any], trace: dict[str, Any], axis: str) -> str:
    ref = str(trace.get(f"{axis}axis", axis))  # "x2" -> layout["xaxis2"]
    return _text(layout.get(f"{axis}axis{ref[1:]}", {}).get("title"))


def tables(spec: dict[str, Any]) -> list[tuple[str, dict[str, list[str]]]]:
    """(caption, columns) per table: 1-D traces together, 2-D traces alone, long ones thinned."""
    layout = spec.get("layout", {})
    title = _text(layout.get("title"))
    caption = f"The numbers of {'“' + title + '”' if title else 'the chart above'}."
    series: list[tuple[str, dict[str, np.ndarray], dict[str, Any]]] = []
    out: list[tuple[str, dict[str, list[str]]]] = []
    for number, trace in enumerate(spec.get("data", []), 1):
        if trace.get("visible") is False:  # drawn nowhere
            continue
        name = _text(trace.get("name")) or f"trace {number}"
        arrays = {k: a for k in ONE_D if (a := plain_array(trace.get(k))) is not None}
        z = arrays.get("z")
        if z is not None and z.ndim == 2:
            heads = [_axis_title(layout, trace, k) or k for k in "yx"]
            grid_caption, columns = _grid(name if trace.get("name") else "", heads, z, arrays)
            out.append((f"{caption} {grid_caption}", columns))
            continue
        arrays = {k: a.ravel() for k, a in arrays.items() if a.ndim == 1 or a.size == len(a)}
        if any(cell(v) != "–" for a in arrays.values() for v in a):  # not a legend-only entry
            series.append((name, arrays, trace))
    if not series:
        return out
    heads: dict[str, set[str]] = {}
    for _, arrays, trace in series:
        for k in arrays:
            heads.setdefault(k, set()).add(_axis_title(layout, trace, k) if k in "xyz" else k)
    head = {k: (min(t) if len(t) == 1 and "" not in t else k) for k, t in heads.items()}
    names = [name for name, _, _ in series]
    plain = all(set(a) == {"x", "y"} for _, a, _ in series)  # lines or bars over x
    xs = {tuple(cell(v) for v in a["x"]) for _, a, _ in series} if plain else set()
    if len(series) > 1 and len(xs) == 1 and len(set(names)) == len(series) and len(heads["x"]) == 1:
        x = xs.pop()
        step = _every(len(x), MAX_ROWS)
        columns = {head["x"]: list(x[::step])}
        columns |= {name: [cell(v) for v in a["y"][::step]] for name, a, _ in series}
        note = f" Shown: one point in {step} of {len(x)}." if step > 1 else ""
        out.insert(0, (f"{caption} A column per series ({head['y']}).{note}", columns))
        return out
    rows: list[dict[str, str]] = []
    thinned: list[tuple[str, int, int]] = []
    for name, arrays, _ in series:
        size = max(len(a) for a in arrays.values())
        step = _every(size, MAX_ROWS)
        if step > 1:
            thinned.append((name, step, size))
        for i in range(0, size, step):
            rows.append({"series": name} | {k: cell(a[i]) for k, a in arrays.items() if i < len(a)})
    columns = {"series": [r["series"] for r in rows]}
    columns |= {head[k]: [r.get(k, "") for r in rows] for k in ONE_D if k in heads}
    every = len(series) == len(thinned)  # is every series thinned
    out.insert(0, (caption + _thinning(thinned, every), columns))
    return out


def _thinning(thinned: list[tuple[str, int, int]], every: bool) -> str:
    """Which series are thinned, in one sentence when `every` one is, alike."""
    if every and len(thinned) > 1 and len({(s, n) for _, s, n in thinned}) == 1:
        return f" Shown: one point in {thinned[0][1]} of each series’ {thinned[0][2]}."
    return "".join(f" Shown: {name}, one point in {s} of its {n}." for name, s, n in thinned)


def _grid(
    name: str, heads: list[str], z: np.ndarray, arrays: dict[str, np.ndarray]
) -> tuple[str, dict[str, list[str]]]:
    """A 2-D trace as a table: its y down the first column, its x across, thinned."""
    n_rows, n_cols = z.shape
    down, across = _every(n_rows, MAX_ROWS), _every(n_cols, MAX_COLUMNS)
    x = arrays.get("x", np.arange(n_cols))
    y = arrays.get("y", np.arange(n_rows))
    columns = {heads[0]: [cell(y[i]) for i in range(0, n_rows, down)]}
    for j in range(0, n_cols, across):
        columns[cell(x[j])] = [cell(z[i, j]) for i in range(0, n_rows, down)]
    note = "" if down == across == 1 else f" One row in {down}, one column in {across}."
    rows = f"{name}: rows" if name else "Rows"
    return f"{rows} by {heads[0]}, columns by {heads[1]}.{note}", columns
