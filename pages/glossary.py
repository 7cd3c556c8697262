"""Glossary: every idea of the app with a definition, a formula and a link to see it."""

import streamlit as st

from lnviz import params
from lnviz.app import ui
from lnviz.content import glossary, registry
from lnviz.errors import LnvizError
from lnviz.lessons.glossary.state import PRESETS, STATE

ui.page_intro(
    "Glossary",
    """Short definitions of the ideas the explorer pages show, each with its formula and a
link that opens the page that shows it, already set up. Every entry has its own address,
`glossary?term=<entry>` (for example `glossary?term=epsilon`), so a handout, a slide or
another glossary can point straight at it.""",
)


def linked_term() -> glossary.Term | None:
    """The term named by ?term=, or a message (nothing the visitor typed is echoed raw)."""
    raw = ui.link_text(STATE["term"].name)
    if raw is None:
        return None
    try:
        slug = glossary.parse_slug(raw)
    except LnvizError:
        st.warning(
            "The link's **term** names a glossary entry in a form this page does not use. Entry "
            "addresses are lower-case words joined by hyphens, such as `layer-normalization`; "
            "all entries are listed below.",
            icon=":material/link_off:",
        )
        return None
    term = glossary.term_by_slug(slug)
    if term is None:
        st.warning(
            f"The link's **term** is `{slug}`, but there is no entry called that in this "
            "glossary. All entries are listed below; the search box finds words in names and "
            "definitions.",
            icon=":material/link_off:",
        )
    return term


def open_term(slug: str) -> None:
    """Button callback: show another entry first (the address follows: ?term=<slug>)."""
    st.query_params["term"] = slug


def show_term(term: glossary.Term, *, expanded: bool, highlighted: bool = False) -> None:
    icon = ":material/my_location:" if highlighted else ":material/menu_book:"
    key = f"{'linked' if highlighted else 'entry'}-{term.slug}"  # a new term, a new element
    entry = st.expander(
        f"**{term.name}**", expanded=expanded, icon=icon, key=key, on_change="rerun"
    )
    if not entry.open:  # its body is drawn when it is opened (that reruns the page): a run
        return  # of the whole glossary sends its names, not ~700 elements of folded bodies
    with entry:
        if highlighted:
            st.badge("You followed a link to this entry", icon=":material/link:", color="orange")
        st.markdown(term.definition)
        for formula in term.formulas:
            st.latex(formula)
        st.markdown("**See it on a page**")
        for target in term.links:
            st.page_link(
                ui.page_target(target.script),
                label=f"{target.page_title} · {target.label}",
                query_params=target.params,
                icon=":material/arrow_forward:",
            )
        users = registry.pages_using(term.slug)
        if users:
            st.markdown("**Used on** " + " · ".join(p.title for p in users))
            cols = st.columns(min(len(users), 4))
            for i, info in enumerate(users):
                cols[i % len(cols)].page_link(
                    ui.page_target(info.script), label=info.title, icon=":material/north_west:",
                    query_params=ui.link_params(),
                )  # fmt: skip
        if term.related:
            st.markdown("**Related entries**")
            cols = st.columns(len(term.related))
            for col, slug in zip(cols, term.related, strict=True):
                rel = glossary.term_by_slug(slug)
                if rel is not None:
                    col.button(
                        rel.name,
                        key=f"{key}-to-{slug}",
                        on_click=open_term,
                        args=(slug,),
                        icon=":material/north_east:",
                        type="tertiary",
                    )
        st.caption(f"Address of this entry: `glossary?term={term.slug}`")


ui.presets(PRESETS, key="gl-presets")
query = ui.control(
    STATE["q"],
    parse=lambda text: params.parse_search(text, "search", glossary.MAX_QUERY),
    fallback="",
    instead="Showing every entry.",
    type="search",
    placeholder="a word from a name or a definition, e.g. variance",
)
selected = linked_term()
matches = glossary.search(query or "")
words = glossary.parse_query(query or "")

if selected is not None:
    st.header("Linked entry")
    show_term(selected, expanded=True, highlighted=True)
    st.header("All entries" if not words else "Search results")

if words:
    st.caption(f"{len(matches)} of {len(glossary.TERMS)} entries match the search.")
    if not matches:
        st.info(
            "No entry contains every word of this search. Try fewer or shorter words; "
            "the presets above list whole topics.",
            icon=":material/search_off:",
        )
expand = bool(words) and len(matches) <= 4
for term in matches:
    if selected is None or term.slug != selected.slug:
        show_term(term, expanded=expand)

st.download_button(
    "Download the glossary as CSV",
    glossary.to_csv,  # written when clicked
    file_name="lnviz-glossary.csv",
    mime="text/csv",
    icon=":material/download:",
    on_click="ignore",  # the page does not rerun on the click
)
