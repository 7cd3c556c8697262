"""What every page shows, fingerprinted: a code move must leave it as it was (issue 34).

Each state is a page at its defaults or after one of its presets; its fingerprint is a
digest of the visible text and one digest per chart (its JSON with numbers rounded to ten
significant digits, so that a change of summation order in the last bits does not count,
and a changed number does). The expected fingerprints live in behaviour_snapshot.json
beside this file. A change meant to alter what a page shows rewrites them:

    LNVIZ_SNAPSHOT=write python -m pytest -n 0 tests/app/test_behaviour_snapshot.py

and the diff of that file shows which states changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from lnviz.content.registry import PAGES
from tests import apptest_helpers as ah

SNAPSHOT = Path(__file__).with_name("behaviour_snapshot.json")
WRITE = os.environ.get("LNVIZ_SNAPSHOT") == "write"
PRESET = re.compile(r"presets-\d+$")


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
    return {
        "text": _digest(ah.texts(at.main)),
        "charts": [_digest(_rounded(f)) for f in ah.figures(at)],
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
        SNAPSHOT.write_text(json.dumps(dict(sorted({**kept, **now}.items())), indent=1) + "\n")
        return
    expected = {k: v for k, v in snapshot.items() if k.startswith(f"{name}:")}
    assert expected, f"{name} is not in {SNAPSHOT.name}: LNVIZ_SNAPSHOT=write"
    changed = sorted(k for k in now.keys() | expected.keys() if now.get(k) != expected.get(k))
    assert not changed, changed


def test_the_fingerprint_sees_a_changed_number_and_not_rounding() -> None:
    """A number changed in its 9th digit changes a chart's digest; in its 13th it does not."""
    figure = {"data": [{"y": [1.2345678912, 2.0]}], "layout": {"title": {"text": "t"}}}
    moved = {"data": [{"y": [1.2345678812, 2.0]}], "layout": {"title": {"text": "t"}}}
    noise = {"data": [{"y": [1.2345678912004, 2.0]}], "layout": {"title": {"text": "t"}}}
    assert _digest(_rounded(figure)) != _digest(_rounded(moved))
    assert _digest(_rounded(figure)) == _digest(_rounded(noise))
