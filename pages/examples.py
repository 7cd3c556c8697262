"""Worked examples: every number of the seeds, recomputed by the engine on each visit."""

import numpy as np
import streamlit as st

from lnviz.app import ui
from lnviz.content import claims
from lnviz.content.registry import title_of

SECTION_OPTIONS = ("all", *(page for page, _, _ in claims.SECTIONS))
SECTION_LABELS = {"all": "All"} | {p: title_of(p) for p in SECTION_OPTIONS[1:]}  # URL values


def show(values: np.ndarray | None) -> str:
    """A scalar, vector or matrix with six decimals."""
    if values is None:
        return "—"
    if values.ndim == 0:
        return ui.fmt(float(values), 6)
    if values.ndim == 1:
        return ui.fmt_vec(values, 6)
    return (
        "["
        + ", ".join(ui.fmt_vec(row, 6).replace("(", "[").replace(")", "]") for row in values)
        + "]"
    )


def tiny(x: float) -> str:
    return "∞" if not np.isfinite(x) else ("0" if x == 0 else f"{x:.1e}".replace("-", "−"))


def check_line(res: claims.CheckResult) -> str:
    """One check as Markdown: mark, what, the seed's value, the engine's value, the error."""
    chk = res.check
    decimal = show(chk.expected_array)
    same = chk.exact == decimal or chk.exact.endswith(f"= {decimal}")
    noted = chk.exact if same else f"{chk.exact} = {decimal}"
    mark = (
        ":green[:material/check_circle: **agrees**]"
        if res.agrees
        else ":red[:material/cancel: **DISAGREES**]"
    )
    why = f" — {res.problem}" if res.problem else ""
    return (
        f"{mark} · **{chk.label}**  \n"
        f"the notes: {noted} · engine now: **{show(res.computed)}**  \n"
        f"error {tiny(res.error)} (tolerance {tiny(chk.tol)}){why}"
    )


def claim_card(result: claims.ClaimResult) -> None:
    claim = result.claim
    with st.container(border=True, key=f"claim-{claim.anchor}"):
        st.markdown(f"#### {claim.id} · {claim.title}")
        if result.agrees:
            st.badge("the engine agrees", icon=":material/check_circle:", color="green")
        else:
            st.badge("the engine disagrees", icon=":material/cancel:", color="red")
        st.markdown(claim.statement)
        for res in result.checks:
            st.markdown(check_line(res))
        for target in claim.links:
            st.page_link(
                target.script,
                label=target.label,
                query_params=target.params,
                icon=":material/arrow_forward:",
            )


ui.page_intro(
    "Worked examples",
    """Every number stated in the two source notes, recomputed by the engine each time this
page loads and compared with the value the notes give. A check agrees when the two differ by
no more than its tolerance (absolute); anything else is marked in red. Each card opens the
page that shows the example, set to exactly that state.""",
)

results = claims.evaluate_all()
summary = claims.summarize(results)
m1, m2, m3 = st.columns(3)
m1.metric("checks that agree", f"{summary.checks_agree} of {summary.checks}")
m2.metric("claims that agree", f"{summary.claims_agree} of {summary.claims}")
m3.metric("largest error", tiny(max(c.error for r in results for c in r.checks)))
if summary.all_agree:
    st.success(
        "The engine reproduces every worked number of the notes.", icon=":material/verified:"
    )
else:
    failed = ", ".join(r.claim.id for r in results if not r.agrees)
    st.error(
        f"{summary.checks - summary.checks_agree} check(s) disagree, in {failed}. "
        "The cards below say which value differs and by how much.",
        icon=":material/error:",
    )

ui.notice(
    [
        "The sections follow a lesson: one vector through the formula, then ε, then what the "
        "layer ignores, then tensors, then weighted centering.",
        "Each card states the claim, then for every number the note's closed form, the "
        "engine's value now and their difference.",
        "The arrow links open the page in the same state, for projecting the picture.",
    ],
    title="How to teach from this page",
)

ui.presets(
    {
        "Whole lesson": {"section": "all", "fails": False},
        "Only ε": {"section": "epsilon", "fails": False},
        "Only disagreements": {"section": "all", "fails": True},
    },
    key="ex-presets",
)
c1, c2 = st.columns([3, 1])
with c1:
    section = ui.choice("Section", SECTION_OPTIONS, key="section", labels=SECTION_LABELS)
with c2:
    only_fails = ui.toggle("only disagreements", key="fails")

for page, heading, note in claims.SECTIONS:
    if section not in ("all", page):
        continue
    shown = [r for r in results if r.claim.page == page and not (only_fails and r.agrees)]
    st.header(heading)
    st.caption(note)
    st.page_link(f"pages/{page}.py", label=f"Open {title_of(page)}", icon=":material/open_in_new:")
    if not shown:
        st.info("Every claim of this section agrees.", icon=":material/check_circle:")
    for result in shown:
        claim_card(result)

st.subheader("The whole table")
st.download_button(
    "Download every check as CSV",
    claims.to_csv(results),
    file_name="lnviz-worked-examples.csv",
    mime="text/csv",
    icon=":material/download:",
)
