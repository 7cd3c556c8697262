"""A page's cached functions are decorated once per process and called by keyword
(lnviz.app.caching)."""

from __future__ import annotations

import pytest
from streamlit.runtime.caching import cache_utils

from lnviz.app import caching

PAGE = """
from lnviz.app import ui

calls = []


@ui.cached
def square(x: int, *, plus: int = 0) -> int:
    calls.append(x)
    return x * x + plus


@ui.cached(max_entries=4, shared=True)
def box(n: int) -> list[int]:
    return [n]
"""


def run_page(source: str, filename: str = "pages/fake-page.py") -> dict:
    """Execute a page's source as Streamlit does on every run: a fresh namespace, one
    compiled code object (Streamlit keeps a page's compiled script between runs)."""
    namespace: dict = {"__name__": "__main__"}
    exec(_compiled(source, filename), namespace)
    return namespace


_CODE: dict[tuple[str, str], object] = {}


def _compiled(source: str, filename: str) -> object:
    return _CODE.setdefault((source, filename), compile(source, filename, "exec"))


def test_a_rerun_gets_the_first_runs_wrapper_and_its_cache() -> None:
    first, second = run_page(PAGE), run_page(PAGE)
    assert second["square"] is first["square"]  # decorated once, not on every run
    assert second["box"] is first["box"]
    assert first["square"](7) == 49 and second["square"](7) == 49
    assert first["calls"] == [7]  # computed once; the second run read the cache
    assert second["box"](3) is first["box"](3)  # shared: one object, never copied


def test_changed_code_or_options_get_a_new_wrapper() -> None:
    first = run_page(PAGE, "pages/other-page.py")
    edited = run_page(PAGE.replace("x * x + plus", "x * x + plus + 1"), "pages/other-page.py")
    assert edited["square"] is not first["square"]
    assert edited["square"](2) == 5
    again = run_page(PAGE.replace("max_entries=4", "max_entries=5"), "pages/other-page.py")
    assert again["box"] is not first["box"]


def test_arguments_go_by_keyword(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit looks up a positional argument's name with inspect.signature on every
    call; a call through `cached` never asks."""

    def refuse(func: object, index: int) -> str | None:
        raise AssertionError("a positional argument reached Streamlit's cache")

    page = run_page(PAGE, "pages/keyword-page.py")
    monkeypatch.setattr(cache_utils, "_get_positional_arg_name", refuse)
    assert page["square"](3, plus=1) == 10
    assert page["square"](x=4) == 16


def test_a_function_of_the_lessons_and_clear() -> None:
    def cube(x: int) -> int:
        return x**3

    wrapped = caching.cached(cube)
    assert caching.cached(cube) is wrapped
    assert wrapped(2) == 8 and wrapped.__name__ == "cube"
    wrapped.clear()  # what st.cache_data's functions offer
    assert wrapped(3) == 27


def test_positional_only_parameters_are_left_to_streamlit() -> None:
    def pos(x: int, /) -> int:
        return -x

    assert caching.cached(pos)(5) == -5
