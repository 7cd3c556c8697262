"""The two source documents the worked examples quote, named as a visitor can look them up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """One source document: how pages name it, and the text file tests read it from."""

    key: str  # internal, never shown
    name: str  # how pages name it in a sentence
    short: str  # a shorter name for repeated mentions
    file: str  # file name in shared/seeds/, for tests
    title: str | None  # the document's own title, if it has one
    marker: str  # a phrase of the text that identifies it (its title or its signature)


SOURCES: dict[str, Source] = {
    "note": Source(
        key="note",
        name="the untitled note on ε in layer normalization and weighted centering",
        short="the note on ε and weighted centering",
        file="000_522ba19b43693dcc.txt",
        title=None,
        marker="Codex @codex",
    ),
    "glossary": Source(
        key="glossary",
        name="the glossary entry “Layer normalisation” (a finance-learning site)",
        short="“Layer normalisation”",
        file="002_5498d1f427f400b4.txt",
        title="Layer normalisation",
        marker="Layer normalisation",
    ),
}


def cite(key: str) -> str:
    """The name of a source for a sentence (KeyError for an unknown key)."""
    return SOURCES[key].name
