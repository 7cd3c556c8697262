"""Each page's questions come from its lesson's questions.py, so every answer is the engine's."""

from __future__ import annotations

import functools
import importlib

from lnviz.content.questions import Question
from lnviz.content.registry import COURSE


def module_name(url_path: str) -> str:
    """lnviz.lessons.<page>.questions, the page's url path with '-' as '_'."""
    return f"lnviz.lessons.{url_path.replace('-', '_')}.questions"


@functools.cache  # the default states never change: built once per process
def for_page(url_path: str) -> tuple[Question, ...]:
    """A page's questions at its default state (or ()), one shared tuple as Questions are frozen."""
    try:
        module = importlib.import_module(module_name(url_path))
    except ModuleNotFoundError:
        return ()
    return tuple(module.questions())


def course() -> list[tuple[str, tuple[Question, ...]]]:
    """Every step of the course with its questions, in order, for the whole-path sheet."""
    return [(p.title, qs) for p in COURSE if (qs := for_page(p.url_path))]
