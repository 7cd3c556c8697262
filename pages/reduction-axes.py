"""Reduction axes: which entries of a (batch, token, feature) tensor share one statistic."""

from dataclasses import replace

import streamlit as st

import lnviz
from lnviz.app import quiz, ui
from lnviz.axes import divisors, has_statistics, statistics_agree, with_entries
from lnviz.content.text import short
from lnviz.lessons.reduction_axes import figures as figs
from lnviz.lessons.reduction_axes import notes as axes_text
from lnviz.lessons.reduction_axes import questions as exercises
from lnviz.lessons.reduction_axes import tables as axes_tables
from lnviz.lessons.reduction_axes.state import PRESETS, STATE
from lnviz.params import parse_entries


@ui.cached(max_entries=256)
def reductions(
    shape: tuple[int, int, int],
    seed: int,
    edits: tuple[tuple[int, int, int, float], ...],
    groups: int,
    eps: float,
) -> dict[str, lnviz.Reduction]:
    """Every scheme on the random tensor of `seed`, with the typed edits (cached per state)."""
    x = with_entries(lnviz.sample_tensor(shape, seed), edits)
    return lnviz.compare_schemes(x, num_groups=groups, eps=eps)


ui.page_intro(
    "Reduction axes: who shares a mean and a variance?",
    r"""Every normalization in this family computes statistics over some entries and uses
them to rescale those entries: a mean and a variance, or for RMS norm a mean square alone.
Batch norm, layer norm, instance norm, group norm and RMS norm differ only in **which**
entries are pooled into one statistic group: their reduction axes.""",
)
with st.expander("The formulas, for token-wise layer norm", icon=":material/functions:"):
    ui.prose(
        "For a hidden-state tensor with axes (batch, token, feature), token-wise layer "
        "normalization pools the $F$ features of one token:",
        ui.display(
            r"\mu_{bt}=\frac1F\sum_{f}x_{btf},\qquad"
            r"\sigma^2_{bt}=\frac1F\sum_{f}(x_{btf}-\mu_{bt})^2"
        ),
        ui.display(
            r"y_{btf}=\gamma_f\,\frac{x_{btf}-\mu_{bt}}{\sqrt{\sigma^2_{bt}+\varepsilon}}+\beta_f"
        ),
    )

ui.presets(PRESETS, key="axes-presets")


@st.fragment
def cube_section(red: lnviz.Reduction) -> None:
    st.header("The tensor as a block")
    shape = red.x.shape
    left, right = st.columns([3, 2])
    with right:  # the entry's boxes beside the block (under it on a phone: the block first)
        eb, et, ef = ui.int_row(
            *(replace(STATE[k], hi=n - 1) for k, n in zip(("eb", "et", "ef"), shape, strict=True))
        )
    entry = (eb, et, ef)
    g = int(red.labels[entry])
    with left:
        ui.chart(figs.CUBE, red, entry, key="cube")
    with right:
        st.caption(axes_text.scheme_caption(red))
        m1, m2 = st.columns(2)
        m1.metric("statistic groups", red.group_count)
        m2.metric("entries per group", red.group_size)
        second = f"group {g}: {axes_tables.second_name(red)}"
        if red.centered:  # RMS norm has no mean and no β
            m1.metric(f"group {g}: mean", ui.fmt(red.mean[g]))
            m2.metric(second, ui.fmt(red.second[g]))
            m1.metric("γ shape", str(red.param_shape))
            m2.metric("β shape", str(red.param_shape))
        else:
            m1.metric(second, ui.fmt(red.second[g]))
            m2.metric("γ shape", str(red.param_shape))
        st.markdown(
            f"**Pooled over:** {' and '.join(red.reduce_axes)}  \n"
            f"**Parameters:** {axes_tables.parameters_text(red)}, along "
            f"{' and '.join(red.param_axes)}  \n"
            f"x{list(entry)} = {ui.fmt(red.x[entry], 4)} → "
            f"y{list(entry)} = {ui.fmt(red.output[entry], 6)}"
        )


@ui.page_body
def body() -> None:
    with ui.page_controls(sticky=False):  # (too tall to stay on screen)
        bsz, tsz, fsz, seed = ui.int_row(*(STATE[k] for k in ("b", "t", "f", "seed")))
        scheme = ui.control(STATE["scheme"], labels=axes_text.SCHEME_SHORT)
        shown = scheme if has_statistics(scheme, (bsz, tsz, fsz)) else "layer"
        groups = ui.control(
            STATE["groups"], options=divisors(fsz), default=2 if fsz % 2 == 0 else 1
        )
        more = st.expander(
            "ε and edited entries", icon=":material/edit:",
            expanded=ui.in_link("eps", "edits"),
        )  # fmt: skip
        with more:
            eps = ui.control(
                STATE["eps"], label=axes_text.eps_label_text(shown), help=axes_text.eps_help(shown)
            )
            edits = ui.control(
                STATE["edits"],
                parse=lambda text: parse_entries(text, "edits", (bsz, tsz, fsz)),
                fallback=(),
                instead="The edits are ignored.",
            )

    if shown != scheme:
        st.error(
            "Batch norm needs more than one entry per feature (B × T ≥ 2): with a single value "
            "its variance is meaningless. Showing token-wise layer norm instead.",
            icon=":material/error:",
        )
    quiz.ask(exercises.questions((bsz, tsz, fsz), shown, groups), page="reduction-axes")

    results = reductions((bsz, tsz, fsz), seed, edits, groups, eps)
    red = results[shown]
    if not red.finite:
        st.warning(axes_text.nonfinite_warning(red))

    cube_section(red)
    ui.notice(list(axes_text.scheme_notes(red)))

    st.header("Unfolded: rows are (batch, token), columns are features")
    with ui.row():
        for which in ("labels", "input", "output"):
            ui.chart(figs.UNFOLDED, red, which, key=f"unfolded-{which}")

    with ui.going_further("The statistics of every group, as a table"):
        table = axes_tables.group_table(red)
        ui.table(
            axes_text.display_columns(table.columns()),
            height=min(400, 40 + 35 * red.group_count),
        )
        left, right = st.columns(2)
        left.download_button(
            "Download the tensor (every entry) as CSV",
            lambda: axes_tables.csv_text(axes_tables.entry_table(red).columns()),  # on the click
            file_name=f"lnviz-tensor-{shown}.csv",
            mime="text/csv",
            icon=":material/download:",
            on_click="ignore",  # the page does not rerun on the click
        )
        right.download_button(
            "Download groups as CSV",
            axes_tables.csv_text(table.columns()),
            file_name=f"lnviz-groups-{shown}.csv",
            mime="text/csv",
            icon=":material/download:",
            on_click="ignore",  # the page does not rerun on the click
        )

    with ui.going_further("Every scheme on the same tensor"):
        ui.chart(figs.SCHEMES, results, key="schemes")
        ui.table(axes_tables.scheme_table(results).columns())

    with ui.going_further("Statistics and parameters are separate choices"):
        agree = statistics_agree(
            results["layer_all"],
            lnviz.reduce_tensor(results["layer_all"].x, "group", num_groups=1, eps=eps),
        )
        row = ui.row()
        row.metric("same statistic groups", "yes" if agree.same_groups else "no")
        row.metric("largest gap in means", short(agree.max_mean_gap))
        row.metric("same γ shape", "yes" if agree.same_param_shape else "no")
        ui.prose(
            f"""Layer norm over (token, feature) and group norm with a single group pool exactly the
same entries — one group per example — so their means and variances agree. Their learned
parameters do not: layer norm keeps one γ and β per normalized element, shape
{results["layer_all"].param_shape}, while group norm keeps one per channel (here the feature),
shape ({fsz},). Reproducing a model therefore means matching **both** the reduction axes and the
parameter axes.

The axes are a design choice, not a law. Keras's `LayerNormalization` normalizes the last axis
by default (`axis=-1`) and gives its parameters the shape of the normalized axes; image models
usually pool spatial positions (height × width) as well — they play the role the token axis
plays here. Read the actual tensor layout before carrying a recipe from one model to another."""
        )


body()
ui.page_end()
