"""Reading a live control's frames as the browser does: frame k of a chart applied to the
figure the page drew (restyle of the listed traces, relayout of the listed paths)."""

from __future__ import annotations

import base64
import copy
import re
from typing import Any

import numpy as np


def decoded(value: Any) -> Any:
    """A frame value or figure value with its arrays as plain float lists (f4 frames, Plotly
    typed arrays), so a figure and a frame compare value by value."""
    if isinstance(value, dict) and "f4" in value:
        return _listed(np.frombuffer(base64.b64decode(value["f4"]), dtype="<f4"))
    if isinstance(value, dict) and "bdata" in value and "dtype" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if value.get("shape"):
            flat = flat.reshape([int(n) for n in str(value["shape"]).split(",")])
        return _listed(flat)
    if isinstance(value, dict):
        return {k: decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decoded(v) for v in value]
    return value


def _listed(array: np.ndarray) -> list[Any]:
    """An array as nested lists, NaN (a gap) as None, as JSON writes it."""
    if array.dtype.kind != "f":
        return array.tolist()
    return np.where(np.isnan(array), None, array.astype(float)).tolist()


def _set(node: dict[str, Any], path: str, value: Any) -> None:
    parts = [int(p) if p.isdigit() else p for p in re.split(r"\.|\[|\]\.?", path) if p != ""]
    for part in parts[:-1]:
        node = node[part] if isinstance(part, int) else node.setdefault(part, {})
    node[parts[-1]] = value


def applied(figure: dict[str, Any], chart: dict[str, Any], k: int) -> dict[str, Any]:
    """`figure` (JSON data) with frame k of `chart` (one chart's frames payload) applied."""
    out = copy.deepcopy(figure)
    for part in chart["data"]:
        _set(out["data"][part["trace"]], part["attr"], part["values"][k])
    for part in chart["layout"]:
        _set(out.setdefault("layout", {}), part["path"], part["values"][k])
    return out


def assert_same_figure(got: Any, want: Any, path: str = "") -> None:
    """Equal JSON data, numbers to float32's precision (frames travel as float32)."""
    got, want = decoded(got), decoded(want)
    if isinstance(want, dict):
        assert isinstance(got, dict), (path, got, want)
        got = {k: v for k, v in got.items() if v is not None or k in want}  # null: unset
        assert set(got) == set(want), (path, sorted(got), sorted(want))
        for key in want:
            assert_same_figure(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same_figure(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and isinstance(got, int | float):
        assert got == want or abs(got - want) <= 1e-6 * max(1.0, abs(want)), (path, got, want)
    else:
        assert got == want, (path, got, want)
