"""Page links point at the st.Page objects the navigation registered (lnviz.app.targets), so
Streamlit does not resolve a file name with os.path.realpath for every link of every run."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import pytest

from lnviz.content import registry
from tests.deep_links import via_router


@pytest.fixture
def realpath_calls_from_page_link(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real: Callable[..., str] = os.path.realpath

    def counting(path: str, *args: object, **kwargs: object) -> str:
        if sys._getframe(1).f_code.co_name == "_page_link":
            calls.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os.path, "realpath", counting)
    return calls


@pytest.mark.parametrize(
    ("name", "query"),
    [("epsilon", {}), ("glossary", {"term": "epsilon"}), ("examples", {"section": "Epsilon"}),
     ("transformer", {}), ("home", {})],
)  # fmt: skip
def test_links_are_given_the_registered_pages(
    name: str, query: dict[str, str], realpath_calls_from_page_link: list[str]
) -> None:
    at = via_router(name, query)
    assert not at.exception
    links = at.main.get("page_link")
    assert links, "the page shows page links"
    paths = {p.url_path for p in registry.PAGES}
    for link in links:
        assert link.proto.page_script_hash and link.proto.page in paths, link.proto
    assert realpath_calls_from_page_link == []  # no file name resolved
