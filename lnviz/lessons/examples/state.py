"""The worked-examples page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Options, State, Toggle

# The lesson's pages in teaching order: the sections of the checks (lnviz.content.claims).
SECTION_PAGES = ("gain-and-bias", "epsilon", "invariance", "reduction-axes", "weighted-centering")

STATE = State(
    Options("section", "Section", "all", options=("all", *SECTION_PAGES)),
    Toggle("fails", "only disagreements"),
)

PRESETS = {
    "Whole lesson": {"section": "all", "fails": False},
    "Only ε": {"section": "epsilon", "fails": False},
    "Only disagreements": {"section": "all", "fails": True},
}
