"""The course ends with a recap: every step in one line, linked, and where to go next; no
other page shows it (issue 37)."""

from __future__ import annotations

import re

from lnviz.content import registry
from tests.apptest_helpers import assert_clean
from tests.deep_links import via_router


def recap(at) -> str:
    return "\n".join(str(m.value) for m in at.markdown if "The course in review" in str(m.value))


def test_the_last_step_reviews_every_step_with_its_link() -> None:
    last = registry.COURSE[-1]
    at = via_router(last.url_path)
    assert_clean(at)
    text = recap(at)
    items = re.findall(r"^(\d+)\. \[([^\]]+)\]\(([^)]+)\): (.+)$", text, flags=re.M)
    assert [(int(k), t, u) for k, t, u, _ in items] == [
        (k, p.title, p.url_path) for k, p in enumerate(registry.COURSE, 1)
    ]
    assert any("Where next" in str(m.value) for m in at.markdown)


def test_no_other_step_shows_the_recap() -> None:
    for info in (registry.COURSE[0], registry.COURSE[-2]):
        at = via_router(info.url_path)
        assert not recap(at), info.url_path
