"""Framework parity: why PyTorch, Keras 3 and Flax give different numbers for the same layer."""

from dataclasses import replace

import streamlit as st

from lnviz.app import quiz, ui
from lnviz.axes import divisors
from lnviz.lessons.frameworks import (
    FRAMEWORKS,
    KERAS_BACKEND_NAMES,
    LAYOUT_AXES,
    framework_label,
    values_per_channel,
)
from lnviz.lessons.frameworks import diff as fd
from lnviz.lessons.frameworks import figures as figs
from lnviz.lessons.frameworks import notes as words
from lnviz.lessons.frameworks import questions as exercises
from lnviz.lessons.frameworks.code import (
    CHANNELS_LAST_NOTE,
    defaults_table,
    reduced_axes,
    snippets,
)
from lnviz.lessons.frameworks.state import (
    LAYOUT_LABELS,
    PAIR_KEYS,
    PRESETS,
    SCHEME_LABELS,
    STATE,
)

LAYOUT_NAMES = {"btf": "(batch, token, feature)", "nchw": "channels-first", "nhwc": "channels-last"}


@ui.cached(max_entries=128)
def analysis(setup: fd.Setup) -> fd.Analysis:
    """The page's results for one setup (pure, so cached)."""
    return fd.analyse(setup)


ui.page_intro(
    "Framework parity: the same layer, three sets of numbers",
    r"""PyTorch, Keras 3 and Flax linen all compute
$y=\gamma\odot(x-\mu)/\sqrt{\sigma^2+\varepsilon}+\beta$, but a model moved from one to another
often disagrees in the third digit: here is how far, with each framework's defaults.""",
)

ui.presets(PRESETS, key="fw-presets")  # one row: two lines on a phone


@st.fragment
def difference_section(result: fd.Analysis, input_text: str) -> None:
    comp = result.comparison
    st.header("How far apart the outputs land")
    labels = {
        k: " vs ".join(framework_label(f, comp.backend) for f in fd.PAIRS[i])
        for k, i in PAIR_KEYS.items()
    }
    left, right = st.columns([3, 1])
    with left:  # the choice right above the chart it chooses, the gaps and the input beside it
        pair = ui.control(STATE["pair"], labels=labels)
        a, b = fd.PAIRS[PAIR_KEYS[pair]]
        warning = words.nan_warning(result)
        if warning:
            st.warning(warning, icon=":material/warning:")
        ui.chart(figs.DELTA, comp, a, b, key="delta")  # fmt: skip
    with right:
        for a, b in fd.PAIRS:
            st.metric(f"max |{fd.pair_label(a, b, comp.backend)}|", words.gap(comp.max_abs(a, b)))
        st.caption(input_text)
    ui.notice(list(words.difference_notes(result)))


def code_section(codes: dict, scheme: str, lay: str, shape: tuple[int, ...], backend: str) -> None:
    with ui.going_further("The same layer in code, and the defaults each framework keeps"):
        tabs = st.tabs([framework_label(f, backend) for f in FRAMEWORKS])
        for tab, f in zip(tabs, FRAMEWORKS, strict=True):
            with tab:
                st.code(codes[f].text, language="python", wrap_lines=True)
        if scheme == "group" and lay == "nhwc":
            st.info(CHANNELS_LAST_NOTE, icon=":material/memory:")
        st.markdown("**The layer each framework builds, and the defaults it keeps**")
        ui.table(words.defaults_columns(defaults_table(scheme, lay, shape, backend)))
        with ui.fold(
            "Where these facts come from, and what was not checked", icon=":material/fact_check:"
        ):
            st.markdown(words.SOURCES)


@st.fragment
def diagnosis_section(result: fd.Analysis) -> None:
    st.header("Which convention explains the gap")
    ui.prose(
        r"""Four conventions explain most gaps: the default $\varepsilon$; the variance
algorithm (two passes, Welford's update, or the one-pass $\mathrm E[x^2]-\mathrm E[x]^2$, which
loses digits to cancellation when $|\mu|\gg\sigma$); batch norm's *momentum*, the weight of each
new batch in its running statistics; which axes carry $\gamma,\beta$."""
    )
    left, right = st.columns(2)
    with left:
        ui.chart(figs.DIAGNOSIS, result.diagnosis, key="diag")
    with right:  # the numbers and what to notice beside the bars
        ui.table(words.diagnosis_columns(result.diagnosis))
        ui.notice(list(words.diagnosis_notes(result)))
    with ui.going_further("Why E[x²] − μ² loses digits far from zero"):
        ui.chart(figs.VARIANCE_ERROR, result.variance_error, key="verr")  # fmt: skip
        st.latex(r"\sigma^2=\mathrm E[x^2]-\mu^2")
        ui.prose(
            r"subtracts two numbers of size $\mu^2$ to get one of size $\sigma^2$: float32 keeps "
            r"about 7 digits, so roughly $2\log_{10}(|\mu|/\sigma)$ of them are lost."
        )
        ui.notice(list(words.variance_notes(result)))


@st.fragment
def batch_section(comp: fd.Comparison) -> None:
    with ui.going_further(
        "Batch norm: momentum and the running variance",
        "steps",
        "ch",
        expanded=comp.scheme == "batch",
    ):
        if comp.scheme != "batch":
            st.info("Choose the batch scheme (or the 'Batch norm momentum' preset) to follow the "
                    "running statistics.", icon=":material/info:")  # fmt: skip
            return
        k = values_per_channel(comp.x.shape, comp.layout)
        ui.prose(
            r"Each training call moves the running variance $r$ towards the batch variance "
            rf"$\sigma_B^2$ of the $k={k}$ values each channel holds (divisor $k$). "
            r"**PyTorch**, momentum $m=0.1$, feeds the unbiased variance:"
        )
        st.latex(r"r\leftarrow(1-m)\,r+m\,\tfrac{k}{k-1}\,\sigma_B^2")
        ui.prose(r"**Keras and Flax**, momentum $m=0.99$, feed the biased one:")
        st.latex(r"r\leftarrow m\,r+(1-m)\,\sigma_B^2")
        c1, c2 = st.columns(2)
        with c1:
            steps = int(ui.control(STATE["steps"]))
        with c2:
            top = comp.x.shape[1 if comp.layout == "nchw" else -1] - 1
            ch = ui.control(replace(STATE["ch"], hi=top))
        stats = fd.running_statistics(comp.x, comp.layout, steps)
        ui.chart(figs.RUNNING, stats, ch, key="running")  # fmt: skip
        st.markdown("**Largest gap between evaluation and training outputs after these steps**")
        cols = [*st.columns(2), *st.columns(2)]
        for col, s in zip(cols, stats, strict=True):
            col.metric(s.label, words.gap(s.eval_gap))
        ui.notice(list(words.batch_notes(stats, steps, k)))


@ui.page_body
def body() -> None:
    quiz_box = st.container()  # the questions first, the controls right above their charts
    with ui.page_controls(sticky=False):  # (too tall to stay on screen)
        c1, c2 = st.columns(2)
        with c1:
            scheme = ui.control(STATE["scheme"], labels=SCHEME_LABELS)
        with c2:
            lay = ui.control(STATE["layout"], labels=LAYOUT_LABELS)
        image = lay != "btf"
        n, h, w, c = ui.int_row(*(STATE[k] for k in "nhwc"))
        shape = {"btf": (n, h, c), "nchw": (n, c, h, w), "nhwc": (n, h, w, c)}[lay]
        c1, c2 = st.columns(2)
        with c1:
            loc = ui.control(STATE["loc"])
        with c2:
            sd = ui.control(STATE["sd"])
        more = st.expander(
            "Groups, Keras backend, ε fix, random seed", icon=":material/tune:",
            expanded=scheme == "group"
            or ui.in_link("g", "seed", "backend", "match"),
        )  # fmt: skip
        with more:
            g = ui.control(STATE["g"], options=divisors(c), default=2 if c % 2 == 0 else 1)
        c1, c2, c3 = more.columns([1, 2, 2])
        with c1:
            seed = ui.control(STATE["seed"])
        with c2:
            backend = ui.control(STATE["backend"], labels=KERAS_BACKEND_NAMES)
        with c3:
            match = ui.control(STATE["match"])
        input_text = (
            f"Input: float32, {LAYOUT_NAMES[lay]} ({', '.join(LAYOUT_AXES[lay])}) = {shape}, "
            "drawn as mean + spread · N(0, 1). "
            f"**{SCHEME_LABELS[scheme].capitalize()} norm** pools each "
            + ("mean square" if scheme == "rms" else "mean and variance")
            + f" over {reduced_axes(scheme, lay)}."
        )
        ignored = ("" if image or w == 3 else " W is ignored here.") + (
            "" if scheme == "group" or g == (2 if c % 2 == 0 else 1) else " G is ignored here."
        )
        if ignored:  # said beside the controls that do nothing
            st.caption(ignored.strip())

    if scheme == "batch" and values_per_channel(shape, lay) < 2:
        st.error(
            "Batch norm needs more than one value per channel (N × positions ≥ 2). Showing layer "
            "norm instead; raise batch N or T/H.",
            icon=":material/error:",
        )
        scheme = "layer"

    setup = fd.Setup(shape, lay, scheme, g, loc, sd, seed, match, backend)
    with quiz_box:
        quiz.ask(exercises.questions(setup), page="frameworks")
    result = analysis(setup)
    codes = snippets(scheme, lay, shape, groups=g, match=match, backend=backend)

    difference_section(result, input_text)
    diagnosis_section(result)
    code_section(codes, scheme, lay, shape, backend)
    batch_section(result.comparison)


body()
ui.page_end()
