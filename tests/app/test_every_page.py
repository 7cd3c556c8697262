"""What every page promises, as one table over the page registry.

For each registered page, through the router: it runs clean at its defaults; each preset
runs clean and changes what is shown; each control bound to the URL is restored from a
link; and each control, moved, changes what the page shows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.content import registry
from tests.apptest_helpers import ROOT, assert_clean, texts
from tests.deep_links import shown_value_matches

KINDS = ("select_slider", "slider", "radio", "text_input", "number_input", "checkbox")
# Controls that change nothing on the page by design, with the reason.
SILENT = {
    "present": "presentation mode changes styles and folds prose, not the data shown",
}
# A changed text for text boxes whose content is not a list of numbers.
TEXT_VALUES = {"q": "epsilon", "term": "epsilon"}


def run(url_path: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.switch_page("../" + registry.by_path(url_path).script)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


def shown(at: AppTest) -> str:
    """What a visitor sees: text, metrics, tables, every chart's data and alt text, and the
    live controls' labels (lnviz.app.live: which value a drag moves is part of the page)."""
    charts = [
        (c.proto.spec, c.proto.alt if hasattr(c.proto, "alt") else "")
        for c in at.get("plotly_chart")
    ]
    lives = [
        {k: v for k, v in json.loads(e.proto.json).items() if k in ("label", "labels", "index")}
        for e in at.get("bidi_component")
        if e.proto.component_name == "lnviz.live" and e.proto.json  # not the frames' bytes
    ]
    return texts(at) + json.dumps(charts, default=str) + json.dumps(lives)


def controls(at: AppTest) -> list[tuple[str, Any]]:
    """The keyed controls, but not the answer boxes of the questions (lnviz.app.quiz puts
    each in a form "quiz-…"): an answer is kept for the session, never in the link."""
    return [
        (kind, w)
        for kind in KINDS
        for w in at.get(kind)
        if getattr(w, "key", None) and not str(getattr(w, "form_id", "")).startswith("quiz-")
    ]


def other_link_value(kind: str, w: Any) -> str:
    """A valid value different from the control's current one, as a link writes it."""
    if kind in ("select_slider", "radio"):
        options = [str(o) for o in w.options]
        current = w.format_func(w.value) if kind == "select_slider" else options[w.index]
        return options[-1] if options[-1] != current else options[0]
    if kind == "checkbox":
        return str(not w.value).lower()
    if kind in ("slider", "number_input"):
        value = w.max if w.value != w.max else w.min
        return str(value)
    if w.key in TEXT_VALUES:
        return TEXT_VALUES[w.key]
    parts = [p.strip() for p in str(w.value).split(",")]
    parts[-1] = f"{float(parts[-1]) + 1.0:g}" if parts[-1] else "1"
    return ", ".join(parts)


PAGES = [p.url_path for p in registry.PAGES]


@pytest.mark.parametrize("url_path", PAGES, ids=lambda p: p or "home")
def test_page_runs_clean_with_a_title(url_path: str) -> None:
    at = run(url_path)
    assert_clean(at)
    assert at.title, "every page has a title"
    assert not at.error, [e.value for e in at.error]
    # A download reruns nothing: a rerun on the click would drop the file the click asked
    # for (a deferred download is registered anew on every run) and cost a whole page run.
    downloads = at.get("download_button")
    if url_path in ("glossary", "reduction-axes"):  # examples: in its folded checks
        assert downloads, "these pages offer downloads"
    assert all(d.proto.ignore_rerun for d in downloads), [d.proto.label for d in downloads]


@pytest.mark.parametrize("url_path", PAGES, ids=lambda p: p or "home")
def test_every_preset_runs_clean_and_shows_its_own_state(url_path: str) -> None:
    """Each preset runs without an error, and no two presets show the same page."""
    at = run(url_path)
    presets = [b.key for b in at.button if "preset" in str(b.key)]
    seen: dict[str, str] = {}
    for key in presets:
        clicked = run(url_path)
        clicked.button(key=key).click().run()
        assert_clean(clicked)
        assert not clicked.error, (key, [e.value for e in clicked.error])
        page = shown(clicked)
        assert page not in seen, f"presets {seen.get(page)} and {key} show the same page"
        seen[page] = key


@pytest.mark.parametrize("url_path", PAGES, ids=lambda p: p or "home")
def test_every_control_is_restored_from_a_link_and_changes_the_page(url_path: str) -> None:
    at = run(url_path)
    base = shown(at)
    for kind, w in controls(at):
        link = other_link_value(kind, w)
        moved = run(url_path, {w.key: link})
        assert_clean(moved)
        refused = [x.value for x in moved.warning if "The link set" in str(x.value)]
        assert not refused, (w.key, link, refused)
        assert shown_value_matches(moved, w.key, link), (w.key, link)
        if w.key not in SILENT:
            assert shown(moved) != base, f"{kind} {w.key!r} = {link!r} changes nothing"
