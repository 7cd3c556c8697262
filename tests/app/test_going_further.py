"""Going-further parts (issue 37): a step's advanced material is folded under a marked label
at the page's defaults, and a question's link opens the part that holds its controls, so
the state it links to is on screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lnviz.content import exercises, registry
from tests.apptest_helpers import assert_clean, page

PREFIX = "Going further: "
LINKS = [(p.url_path, q) for p in registry.COURSE for q in exercises.for_page(p.url_path)]


def keyed(node: Any, folded: bool = False) -> Iterator[tuple[str, bool]]:
    """(widget key, whether a closed going-further part holds it) below `node`."""
    for child in getattr(node, "children", {}).values():
        closed = getattr(child, "type", "") == "expander" and child.label.startswith(PREFIX)
        closed = closed and not child.proto.expanded
        if getattr(child, "key", None):
            yield str(child.key), folded
        yield from keyed(child, folded or closed)


def parts(at: Any) -> list[Any]:
    return [e for e in at.expander if e.label.startswith(PREFIX)]


@pytest.mark.parametrize("url_path", ["transformer", "epsilon", "weighted-centering"])
def test_advanced_parts_are_folded_and_marked_at_the_defaults(url_path: str) -> None:
    at = page(url_path)
    assert_clean(at)
    assert parts(at) and not any(e.proto.expanded for e in parts(at))


@pytest.mark.parametrize(("url_path", "q"), LINKS, ids=lambda v: getattr(v, "key", v))
def test_a_questions_link_shows_the_controls_it_sets(url_path: str, q: Any) -> None:
    at = page(q.link.page, dict(q.link.query))
    assert_clean(at)
    keys = dict(keyed(at.main))
    assert set(keys) & set(dict(q.link.query)), q.key  # the walk finds the link's controls
    hidden = {key for key, folded in keys.items() if folded} & set(dict(q.link.query))
    assert not hidden, f"{q.key}'s link sets {hidden}, folded in a going-further part"


def test_the_walk_sees_a_closed_part() -> None:
    """At the defaults the transformer's τ slider sits in its closed attention part."""
    assert dict(keyed(page("transformer").main))["tau"] is True
