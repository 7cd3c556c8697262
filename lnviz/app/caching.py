"""Cached pure results for page scripts: st.cache_data made once per process, called by keyword."""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar, overload

import streamlit as st

F = TypeVar("F", bound=Callable[..., Any])

_LOCK = threading.Lock()
# (file, qualified name, first line) -> (code, options, the keyword-calling wrapper)
_WRAPPERS: dict[tuple[str, str, int], tuple[Any, tuple[int, bool], Callable[..., Any]]] = {}


@overload
def cached(func: F, *, max_entries: int = 64, shared: bool = False) -> F: ...
@overload
def cached(
    func: None = None, *, max_entries: int = 64, shared: bool = False
) -> Callable[[F], F]: ...


def cached(
    func: Callable[..., Any] | None = None, *, max_entries: int = 64, shared: bool = False
) -> Any:
    """`st.cache_data(func)` made once per process; `shared`: st.cache_resource, never copied."""
    if func is None:
        return functools.partial(cached, max_entries=max_entries, shared=shared)
    code = func.__code__
    where = (code.co_filename, func.__qualname__, code.co_firstlineno)
    options = (max_entries, shared)
    with _LOCK:
        known = _WRAPPERS.get(where)
        if known is not None and known[0] == code and known[1] == options:
            return known[2]
        decorate = st.cache_resource if shared else st.cache_data
        wrapper = _by_keyword(decorate(max_entries=max_entries, show_spinner=False)(func))
        _WRAPPERS[where] = (code, options, wrapper)
        return wrapper


def _by_keyword(cached_func: Any) -> Callable[..., Any]:
    """Call `cached_func` with every argument by name (no per-call signature lookup)."""
    params = inspect.signature(cached_func.__wrapped__).parameters.values()
    if any(p.kind is p.POSITIONAL_ONLY for p in params):
        return cached_func  # cannot be called by keyword: left as Streamlit made it
    names = tuple(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD)

    @functools.wraps(cached_func.__wrapped__)
    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) > len(names):
            return cached_func(*args, **kwargs)  # *args of its own: as Streamlit would
        return cached_func(**dict(zip(names, args, strict=False)), **kwargs)

    call.clear = cached_func.clear  # type: ignore[attr-defined]
    return call
