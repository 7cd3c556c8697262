"""Worked examples: what the source documents state, and the app's own checks, live."""

import streamlit as st

from lnviz.app import ui
from lnviz.content import claims, claims_view
from lnviz.content import examples_worked as worked_examples
from lnviz.content.registry import title_of
from lnviz.content.sources import SOURCES
from lnviz.lessons.examples.state import PRESETS, SECTION_PAGES, STATE

SECTION_LABELS = {"all": "All"} | {p: title_of(p) for p in SECTION_PAGES}  # URL values


@ui.cached(max_entries=4, shared=True)
def checked(engine: tuple[int, ...]) -> tuple[claims.ClaimResult, ...]:
    """Every claim's checks run by this process's engine (`engine`: claims.engine_key()),
    once per engine rather than on every run (frozen results, shared, never mutated)."""
    return claims.evaluate_all()


def claim_card(card: claims_view.Card) -> None:
    """A claim's card: its text in one Markdown element (a badge, the statement, what the
    sources write, the app's own checks), then its links. One element, not one per line:
    each costs the server about a quarter of a millisecond per run (docs/benchmarks.md)."""
    badge = (
        ":green-badge[:material/check_circle: every check agrees]"
        if card.agrees
        else ":red-badge[:material/cancel: a check disagrees]"
    )
    parts = [f"### {card.title}", badge, card.statement]
    if card.sources:
        parts.append(f"**What the sources state.** {card.sources}")
    parts += [line.markdown for line in card.stated]
    if card.own:
        parts.append("**The app's own checks**, numbers the sources do not write:")
    parts += [line.markdown for line in card.own]
    with st.container(border=True, key=f"claim-{card.anchor}"):
        st.markdown("\n\n".join(parts))
        for target in card.links:
            st.page_link(
                ui.page_target(target.script),
                label=target.label,
                query_params=target.params,
                icon=":material/arrow_forward:",
            )


def checks_body() -> None:
    """Every claim's card, the summary above them, the section filter and the CSV."""
    results = checked(claims.engine_key())
    info = claims_view.overview(results, claims.summarize(results))
    row = ui.row()
    row.metric("checks that agree", info.checks)
    row.metric("claims that agree", info.claims)
    row.metric("numbers the sources write", info.stated)
    row.metric("largest error", info.largest_error)
    if info.all_agree:
        st.success(info.message, icon=":material/verified:")
    else:
        st.error(info.message, icon=":material/error:")

    st.markdown(
        "Each card states a claim, then the numbers a source writes (with its name), then the "
        "app's own checks: numbers the sources never write, each computed by a route that does "
        "not use its closed form (finite differences for a derivative, a variance measured from "
        "the values, a least-squares solve), with the difference and the tolerance (absolute)."
    )

    ui.presets(PRESETS, key="ex-presets")
    c1, c2 = st.columns([3, 1])
    with c1:
        section = ui.control(STATE["section"], labels=SECTION_LABELS)
    with c2:
        only_fails = ui.control(STATE["fails"])

    for page, heading, note in claims.SECTIONS:
        if section not in ("all", page):
            continue
        shown = [r for r in results if r.claim.page == page and not (only_fails and r.agrees)]
        st.header(heading)
        st.caption(note)
        st.page_link(
            ui.page_target(f"pages/{page}.py"),
            label=f"Open {title_of(page)}",
            icon=":material/open_in_new:",
        )
        if not shown:
            st.info("Every claim of this section agrees.", icon=":material/check_circle:")
        for result in shown:
            claim_card(claims_view.card(result))

    st.header("The whole table")
    st.download_button(
        "Download every check as CSV",
        lambda: claims.to_csv(results),  # written when clicked
        file_name="lnviz-worked-examples.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",  # the page does not rerun on the click
    )


ui.page_intro(
    "Worked examples",
    f"""The examples of two source documents, {SOURCES["note"].name} and
{SOURCES["glossary"].name}, worked one step at a time: the input, its mean, its variance, the
normalized core, and the output after the gain and bias. Every number is computed now by the
app's engine; each example opens the page that shows it, set to exactly that state. Below
them, folded away, every claim of the sources is checked live.""",
)

st.header("Step by step")
for n, example in enumerate(worked_examples.EXAMPLES):
    work = worked_examples.worked(example)
    with st.container(border=True, key=f"worked-{n}"):
        st.markdown(f"### {example.title}")
        st.markdown("\n".join(f"{i}. {step.markdown}" for i, step in enumerate(work.steps, 1)))
        st.page_link(
            ui.page_target(example.link.script),
            label=example.link.label,
            query_params=ui.link_params(example.link.params),
            icon=":material/arrow_forward:",
        )

# Open for a link to a checks state, and kept open once open: the expander's identity
# includes `expanded`, so it must not change when a preset drops `section` from the link.
asked = ui.in_link("section", "fails")
checks = st.expander(
    "Checks: every claim of the sources, verified live",
    expanded=asked or bool(st.session_state.get("checks-open")),
    icon=":material/fact_check:", key="checks-open", on_change="rerun",
)  # fmt: skip
if checks.open:  # drawn only when open: the cards are two thirds of the page's elements
    with checks:
        checks_body()

ui.page_end()
