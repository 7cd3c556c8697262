"""The glossary's URL keys (lnviz.lessons.spec); ?term= names an entry, read without a control."""

from __future__ import annotations

from lnviz.lessons.spec import Link, State, Text

MAX_QUERY = 60  # characters of a search kept

STATE = State(
    Link("term", "glossary entry"),
    Text(
        "q",
        "Search the glossary",
        "",
        max_chars=MAX_QUERY,
        help="Every word must occur in the entry's name, other names or definition.",
    ),
)

PRESETS = {
    "All terms": {"q": ""},
    "Normalization schemes": {"q": "normalization"},
    "Weighted centering": {"q": "weight"},
    "Invariances": {"q": "invariance"},
}
