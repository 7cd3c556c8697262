"""The course ends with a recap: what every step taught in one line (the registry's
`lesson`), linked, and where to go next (worked examples, references, glossary); no other
page shows it (issue 37)."""

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
    assert [(int(k), t, u, said) for k, t, u, said in items] == [
        (k, p.title, p.url_path, p.lesson) for k, p in enumerate(registry.COURSE, 1)
    ]
    assert all(p.lesson for p in registry.COURSE)  # every step says what it taught
    (where,) = [str(m.value) for m in at.markdown if "Where next" in str(m.value)]
    assert "(examples)" in where and "(references)" in where and "(glossary)" in where


def test_no_other_step_shows_the_recap() -> None:
    for info in (registry.COURSE[0], registry.COURSE[-2]):
        at = via_router(info.url_path)
        assert not recap(at), info.url_path
