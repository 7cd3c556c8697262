"""What every page shows, fingerprinted: a code move must leave it as it was (issue 34).

Each state is a page at its defaults or after one of its presets; its fingerprint is a
digest of the visible text and one digest per chart (its JSON with numbers rounded to ten
significant digits, so that a change of summation order in the last bits does not count,
and a changed number does). The expected fingerprints live in behaviour_snapshot.json
beside this file. A change meant to alter what a page shows rewrites them:

    LNVIZ_SNAPSHOT=write python -m pytest -n 0 tests/app/test_behaviour_snapshot.py

and the diff of that file shows which states changed.

The exact digests hold on the kind of machine that wrote them (CPU model, family and SIMD
flags): float32 matrix products (the transformer's stack, the home page's thumbnail of it)
and the rounding gaps the framework page measures follow the CPU's BLAS kernels. On another
CPU the test compares each state with every number masked (its text, layout and trace
names and the shape of its charts), which still catches a moved, lost or renamed element.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
from pathlib import Path
from typing import Any

import pytest

from lnviz.content.registry import PAGES
from tests import apptest_helpers as ah

SNAPSHOT = Path(__file__).with_name("behaviour_snapshot.json")
WRITE = os.environ.get("LNVIZ_SNAPSHOT") == "write"
PRESET = re.compile(r"presets-\d+$")
NUMBER = re.compile(r"[-+−]?\d[\d.,]*(?:e[-+−]?\d+)?")
MACHINE_KEY = "__machine__"


SIMD = re.compile(r"avx|fma|sse|f16c|amx|vnni")  # the flags that pick BLAS and ufunc kernels


def machine() -> str:
    """The CPU's model, family and SIMD flags, and NumPy's version: what the exact digests
    depend on (two "AMD EPYC" machines with other flags gave other float32 products)."""
    import numpy as np

    info: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            name, _, value = line.partition(":")
            info.setdefault(name.strip(), value.strip())
    flags = " ".join(sorted(f for f in info.get("flags", "").split() if SIMD.match(f)))
    cpu = f"{info.get('model name', platform.processor())} family {info.get('cpu family')}"
    model = f"model {info.get('model')}"
    digest = hashlib.blake2b(flags.encode(), digest_size=6).hexdigest()
    return f"{cpu} {model} simd {digest} / numpy {np.__version__}"


def _masked(node: Any) -> Any:
    """Every number, and every number inside a text, as "#"."""
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int | float):
        return "#"
    if isinstance(node, str):
        return NUMBER.sub("#", node)
    if isinstance(node, list):
        return [_masked(v) for v in node]
    if isinstance(node, dict):
        if "bdata" in node:  # a typed array: its length
            return ["#"] * len(node["bdata"])
        return {k: _masked(v) for k, v in node.items() if k != "uid"}
    return node


def _rounded(node: Any) -> Any:
    """Numbers to ten significant digits, everything else as it is."""
    if isinstance(node, float):
        return float(f"{node:.10g}")
    if isinstance(node, list):
        return [_rounded(v) for v in node]
    if isinstance(node, dict):
        return {k: _rounded(v) for k, v in node.items() if k != "uid"}
    return node


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprint(at: Any) -> dict[str, Any]:
    """The page's visible text (its main pane: the sidebar is the app's) and charts, as
    short digests."""
    text, figures = ah.texts(at.main), ah.figures(at)
    return {
        "text": _digest(text),
        "charts": [_digest(_rounded(f)) for f in figures],
        "masked": _digest([_masked(text), [_masked(f) for f in figures]]),
    }


def _states(name: str) -> dict[str, dict[str, Any]]:
    """The page at its defaults and after each of its presets: {state: fingerprint}."""
    at = ah.page(name)
    ah.assert_clean(at)
    shown = {f"{name}:defaults": fingerprint(at)}
    for preset in [b.key for b in at.button if b.key and PRESET.search(b.key)]:
        after = ah.page(name)
        after.button(key=preset).click().run()
        ah.assert_clean(after)
        shown[f"{name}:{preset}"] = fingerprint(after)
    return shown


@pytest.mark.parametrize("name", [p.url_path or "home" for p in PAGES])
def test_each_page_shows_what_it_showed(name: str) -> None:
    """Every state of the page against the snapshot (LNVIZ_SNAPSHOT=write, with -n 0,
    rewrites the page's entries instead)."""
    now = _states(name)
    snapshot = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    if WRITE:
        kept = {k: v for k, v in snapshot.items() if not k.startswith(f"{name}:")}
        states = {**kept, **now, MACHINE_KEY: machine()}
        SNAPSHOT.write_text(json.dumps(dict(sorted(states.items())), indent=1) + "\n")
        return
    expected = {k: v for k, v in snapshot.items() if k.startswith(f"{name}:")}
    assert expected, f"{name} is not in {SNAPSHOT.name}: LNVIZ_SNAPSHOT=write"
    fields = ("text", "charts", "masked") if snapshot.get(MACHINE_KEY) == machine() else ("masked",)

    def seen(states: dict[str, Any], key: str) -> Any:
        return {f: states[key][f] for f in fields} if key in states else None

    changed = sorted(k for k in now.keys() | expected.keys() if seen(now, k) != seen(expected, k))
    assert not changed, changed


def test_the_fingerprint_sees_a_changed_number_and_not_rounding() -> None:
    """A number changed in its 9th digit changes a chart's digest; in its 13th it does not."""
    figure = {"data": [{"y": [1.2345678912, 2.0]}], "layout": {"title": {"text": "t"}}}
    moved = {"data": [{"y": [1.2345678812, 2.0]}], "layout": {"title": {"text": "t"}}}
    noise = {"data": [{"y": [1.2345678912004, 2.0]}], "layout": {"title": {"text": "t"}}}
    assert _digest(_rounded(figure)) != _digest(_rounded(moved))
    assert _digest(_rounded(figure)) == _digest(_rounded(noise))


def test_the_masked_fingerprint_sees_a_renamed_trace_and_not_a_number() -> None:
    """On another CPU a state is compared with its numbers masked: a changed number, in a
    chart or in a text, does not count there; a renamed trace or a lost one does."""
    figure = {"data": [{"y": [1.5, 2.0], "name": "ε = 0.1"}], "layout": {"title": {"text": "t"}}}
    number = {"data": [{"y": [1.6, 2.0], "name": "ε = 0.2"}], "layout": {"title": {"text": "t"}}}
    renamed = {"data": [{"y": [1.5, 2.0], "name": "δ = 0.1"}], "layout": {"title": {"text": "t"}}}
    assert _digest(_masked(figure)) == _digest(_masked(number))
    assert _digest(_masked(figure)) != _digest(_masked(renamed))
    assert _digest(_masked({**figure, "data": []})) != _digest(_masked(figure))
    assert _masked("gap 2.2e-16, max −1,5") == "gap #, max #"
