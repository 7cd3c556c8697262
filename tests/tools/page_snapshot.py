"""Record every page's chart JSON and visible text, to prove a refactor changed nothing.

    python -m tests.tools.page_snapshot record before.json
    python -m tests.tools.page_snapshot compare before.json

Each page runs through the router (app.py) at its defaults, after each preset button, with
presentation mode on, and at a few URL states; the record holds the raw Plotly specs, every
text element, metric and dataframe, and every widget's key and value. `compare` records
again and names the first difference per state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "home",
    "reduction-axes",
    "epsilon",
    "gain-and-bias",
    "invariance",
    "weighted-centering",
    "sequences",
    "batch-statistics",
    "frameworks",
    "numerics",
    "glossary",
    "examples",
]
URL_STATES: dict[str, list[dict[str, str]]] = {
    "epsilon": [{"eps": "0.01", "z": "1, 5, 2, 7"}, {"eps": "banana"}],
    "reduction-axes": [{"scheme": "group", "groups": "2"}, {"scheme": "rms"}],
    "gain-and-bias": [{"gamma": "2, 1, 0.5", "beta": "1, 0, -1"}],
    "invariance": [{"c": "3", "a": "2"}],
    "weighted-centering": [{"w": "0.8"}],
    "sequences": [{"tokens": "24"}],
    "batch-statistics": [{"momentum": "0.5"}],
    "frameworks": [{"scheme": "rms"}],
    "numerics": [{"offset": "1000"}],
    "glossary": [{"term": "epsilon"}],
}


def _state(at: AppTest) -> dict[str, Any]:
    out: dict[str, Any] = {"exception": [str(e.value) for e in at.exception]}
    out["charts"] = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    out["alt"] = [getattr(c.proto, "alt", "") for c in at.get("plotly_chart")]
    for kind in (
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "error",
        "warning",
        "info",
        "success",
        "latex",
        "code",
        "expander",
        "tab",
    ):
        out[kind] = [str(getattr(e, "value", getattr(e, "label", ""))) for e in at.get(kind)]
    out["metric"] = [f"{m.label}={m.value}" for m in at.metric]
    out["dataframe"] = [d.value.to_json() for d in at.dataframe]
    widgets = []
    for kind in (
        "select_slider",
        "slider",
        "radio",
        "text_input",
        "number_input",
        "checkbox",
        "toggle",
        "selectbox",
        "button",
        "multiselect",
        "segmented_control",
        "pills",
    ):
        for w in at.get(kind):
            widgets.append(
                [
                    kind,
                    str(getattr(w, "key", "")),
                    str(getattr(w, "label", "")),
                    repr(getattr(w, "value", None)),
                ]
            )
    out["widgets"] = widgets
    return out


def _run(page: str, query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(f"pages/{page}.py")
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def record() -> dict[str, Any]:
    states: dict[str, Any] = {}
    for page in PAGES:
        at = _run(page, {})
        states[f"{page}"] = _state(at)
        presets = [b.key for b in at.button if "preset" in str(b.key)]
        for key in presets:
            at2 = _run(page, {})
            at2.button(key=key).click().run()
            states[f"{page} preset {key}"] = _state(at2)
        states[f"{page} present"] = _state(_run(page, {"present": "true"}))
        for i, q in enumerate(URL_STATES.get(page, [])):
            states[f"{page} url {i}"] = _state(_run(page, q))
        print(page, file=sys.stderr)
    return states


def _first_diff(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}: only in {'after' if k not in a else 'before'}"
            d = _first_diff(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = _first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {str(a)[:200]!r} != {str(b)[:200]!r}"


def main() -> int:
    mode, path = sys.argv[1], Path(sys.argv[2])
    now = record()
    if mode == "record":
        path.write_text(json.dumps(now, sort_keys=True))
        print(f"{len(now)} states recorded")
        return 0
    before = json.loads(path.read_text())
    now = json.loads(json.dumps(now, sort_keys=True))
    bad = 0
    for name in sorted(set(before) | set(now)):
        d = _first_diff(before.get(name), now.get(name), name)
        if d:
            bad += 1
            print("DIFF", d)
    print(f"{len(before)} states before, {len(now)} now, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
