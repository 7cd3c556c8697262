"""Sequences and causality: what token-wise statistics promise about time, and what they don't."""

from dataclasses import replace

import streamlit as st

from lnviz.app import quiz, ui
from lnviz.content import text
from lnviz.lessons.sequences import analysis as model
from lnviz.lessons.sequences import figures as figs
from lnviz.lessons.sequences import figures_checks as checks
from lnviz.lessons.sequences import questions as exercises
from lnviz.lessons.sequences.analysis import SEEDS, Analysis, CorrelationChange, Settings
from lnviz.lessons.sequences.causality import SCHEMES
from lnviz.lessons.sequences.state import PRESETS, STATE, WRT

# The page's pure results, cached per state (each argument typed, settings in one dataclass).
analyse = ui.cached(model.analyse)
shock = ui.cached(model.shock)
inference = ui.cached(model.inference)
correlation_change = ui.cached(model.correlation_change)


def cells(values: tuple) -> list[str]:
    """A table column of numbers in the page's number style; None (no value) as a dash."""
    return ["—" if v is None else text.short(v, 4) for v in values]


def effect(c: CorrelationChange, because: str) -> str:
    """A correlation change, told as an effect only where it beats the noise."""
    moved = f"goes from {ui.fmt(c.before, 3)} to {ui.fmt(c.after, 3)}"
    if c.verdict == "noise":
        return f"{moved}, within chance: no clear effect at this size."
    if c.verdict == "average":
        avg = ui.fmt(c.mean_change, 2)
        moved += f" (within chance), {avg} averaged over {SEEDS} random seeds"
    return f"{moved}: {because}"


# The questions simulate the market and normalize it again (a tenth of a rerun): built once
# per state.
questions = ui.cached(exercises.questions)

ui.page_intro(
    "Sequences and causality",
    r"""A sequence model carries a hidden tensor with axes (batch $b$, token $t$, feature $f$).
Here each series is a simulated market, each token one trading day, and the features are
quantities a forecaster might compute at the close. A normalized entry can only see what
went into its mean and variance. Token-wise layer norm takes them from one token's own
$F$ features.""",
)
with st.expander("The formulas, for token-wise layer norm", icon=":material/functions:"):
    ui.prose(
        ui.display(r"\mu_{bt}=\tfrac1F\textstyle\sum_{f}x_{btf}"),
        ui.display(r"\sigma^2_{bt}=\tfrac1F\textstyle\sum_{f}(x_{btf}-\mu_{bt})^2"),
        ui.display(r"y_{btf}=\dfrac{x_{btf}-\mu_{bt}}{\sqrt{\sigma^2_{bt}+\varepsilon}}"),
    )

ui.presets(PRESETS, key="seq-presets")


def data_part(a: Analysis, win: int, leak: bool) -> None:
    """The simulated prices and the features at each token, folded: the page's context."""
    with ui.fold(
        "The data: simulated prices and the features at each token", icon=":material/table:"
    ):
        left, right = st.columns([3, 2])
        with left:
            ui.chart(figs.PRICES, a.market, key="prices")
        with right:
            ui.prose(
                "Daily log returns $r$ (in %) with volatility clustering (GARCH(1, 1)); at token "
                "$t$:"
            )
            ft = model.feature_table(win, leak)
            ui.table({"feature": ft.feature, "at token t": ft.at_token, "reads r at": ft.reads})
        honest = "Every honest feature is point-in-time: it reads returns up to t only. " + (
            "The last one reads r(t+1), as a misaligned join would: look-ahead bias."
            if leak
            else "Nothing here has look-ahead bias."
        )
        spread = (
            f"The features' spreads differ (std {ui.fmt_vec(a.market.spread, 2)}): token-wise "
            "statistics pool them, so the widest sets each token's scale. Units still matter."
        )
        ui.prose(f"- {honest}\n- {spread}")  # (a list, not a notice: folds do not nest)


@st.fragment
def dependence_section(a: Analysis, leak: bool) -> None:
    st.header("Which tokens does each output see?")
    ui.prose(
        "The page compares token-wise statistics with three other choices of *where the "
        "statistics come from*, each applied to the same tensor with the same formula (no "
        "gain or bias):\n"
        "- **token-wise**: the F features of token t;\n"
        "- **sequence**: one feature over all T tokens of the series (a full-window z-score);\n"
        "- **causal**: one feature over tokens 0 … t only (an expanding window);\n"
        "- **batch**: one feature over every token of every series in the batch (batch norm "
        "in training mode)."
    )
    ui.prose(
        "Each map shows how strongly output token t (rows) depends on input s (columns), "
        "from the exact Jacobian. Blank means exactly zero; red cells lie in the future "
        "(s > t)."
    )
    wrt = ui.control(STATE["wrt"], labels=WRT)
    dmap = a.deps[wrt]
    for col, scheme in zip(st.columns(len(SCHEMES)), SCHEMES, strict=True):
        with col:  # the four maps side by side (stacked on a phone): compare their shapes
            ui.chart(figs.DEPENDENCE, dmap[scheme], key=f"dep-{scheme}")
    tok, seq, cau, bn = (dmap[k] for k in SCHEMES)
    rows = a.market.x.shape[1]
    leaky = " — the leaky feature's r(t+1), passed straight through" if leak else ""
    items = [
        f"Token-wise: {tok.future_pairs} future dependencies. "
        + (
            "On x the map is diagonal: token t's output reads token t only."
            if wrt == "x"
            else f"{tok.future_tokens} of {rows} tokens read a later return{leaky}."
        ),
        f"Causal: {cau.future_pairs} future dependencies"
        + (", a lower triangle" if cau.future_pairs == 0 else f"{leaky}")
        + ". Token 0's group holds one value, so its output is 0 whatever the input: not "
        "looking ahead costs a warm-up.",
        f"Sequence pooling: {seq.future_pairs} future dependencies; {seq.future_tokens} of "
        f"{rows} tokens read a later input through the shared mean and variance, "
        "honest features or not.",
        f"Batch norm: {bn.future_pairs} future dependencies and "
        + (
            f"{bn.cross_examples} cross-example pairs; the other three use none."
            if a.market.x.shape[0] > 1
            else "no other series to read in a batch of one."
        ),
    ]
    ui.notice(items)
    with ui.going_further("The maps in numbers, and across the batch"):
        dt = model.dependence_table(dmap)
        ui.table(
            {
                "scheme": dt.scheme,
                "future pairs": dt.future_pairs,
                "tokens": dt.tokens,
                "other examples": dt.other_examples,
            },
        )
        with ui.fold("How to read the maps and the table"):
            st.markdown(
                r"A cell is $\max\lvert\partial y_{b t f}/\partial\,\text{input}_{b' s f'}\rvert$ "
                "over series and features, on a log scale relative to the map's largest entry; "
                "the dotted staircase separates past from future. Future pairs: (t, s) with "
                "s > t and a nonzero derivative. Tokens: outputs with at least one such pair. "
                "Other examples: ordered pairs of different series (b, b′) with y of b depending "
                "on b′."
            )
        ui.chart(figs.EXAMPLES, list(dmap.values()), key="examples")


@st.fragment
def leak_section(a: Analysis, settings: Settings) -> None:
    with ui.going_further("A leaky feature stays leaky", "sf"):
        m, table = a.market, a.leaks
        names = list(m.names)
        if st.session_state.get("sf") not in names:
            st.session_state.pop("sf", None)
        ui.chart(figs.LEAK, table, key="leak-corr")
        feat = ui.control(STATE["sf"], options=names, default=names[-1])
        k = names.index(feat)
        raw, normed = m.x[..., k], a.norms["token"].y[..., k]
        ui.chart(figs.SCATTER, raw, normed, m.next_return, feat, key="scatter")
        v = table.value
        items = [
            f"{table.samples} tokens: correlations within ±{ui.fmt(table.chance, 2)} can be "
            "chance alone."
        ]
        if settings.leak:
            after = v("next return", "token")
            items += [
                f"The leaky feature correlates {ui.fmt(v('next return', 'raw'), 3)} with the next "
                f"return before and {ui.fmt(after, 3)} after token-wise layer norm: "
                + (
                    "centring and rescaling each token do not remove what it knows about tomorrow."
                    if after > table.chance
                    else "within chance at this size."
                ),
                "Token-wise statistics also spread it: 'mean' "
                + effect(
                    correlation_change(settings, "mean", "token"),
                    "its token's mean now includes r(t+1).",
                ),
            ]
        level = correlation_change(settings, "level", "sequence")
        items.append(
            "With one series, sequence pooling shifts and scales each feature as a whole: "
            f"'level' keeps its correlation ({ui.fmt(level.before, 3)})."
            if level.verdict == "unchanged"
            else "Sequence pooling: 'level' "
            + effect(
                level,
                "its z-score compares today's price with the sequence's average, future prices "
                "included, so a low value hints at a later rise.",
            )
        )
        ui.notice(items)


@st.fragment
def shock_section(settings: Settings) -> None:
    with ui.going_further("Change the future, watch the past", "at", "size", "ser"):
        st.markdown(
            "Add a shock to one day's return, rebuild the features from the shocked prices, "
            "normalize again, and see which tokens move. A causal pipeline leaves every earlier "
            "token exactly where it was."
        )
        tsz, bsz, leak = settings.tokens, settings.batch, settings.leak
        c1, c2, c3 = st.columns(3)
        with c1:
            at = ui.control(STATE["at"], options=range(1, tsz), default=(3 * tsz) // 4)
        with c2:
            size = ui.control(STATE["size"])
        with c3:
            ex = ui.control(replace(STATE["ser"], hi=bsz - 1))
        s = shock(settings, at, size, ex)
        ui.chart(checks.SHOCK, s, key="shock")
        t = model.shock_table(s)
        first = t.first_moved
        ui.table(
            {
                "scheme": t.scheme,
                "first moved": t.first_moved,
                f"|Δy| before {t.token}": cells(t.before),
                "|Δy| other series": cells(t.other_series),
            },
        )
        ui.notice(
            [
                f"The shock hits token {at}. First outputs to move: token-wise at token "
                f"{first[0]}, causal at token {first[2]}"
                + (
                    f"; token {at - 1} moves because its leaky feature already holds r({at})."
                    if leak and at - 1 in (first[0], first[2])
                    else "; no earlier output changes."
                    if min(first[0], first[2]) >= at
                    else "."
                ),
                f"Sequence pooling and batch norm first move at tokens {first[1]} and {first[3]}: "
                "the shock reaches the past through the shared mean and variance.",
                "A batch of one has no other series to move."
                if bsz == 1
                else "Batch norm also moves the other series (largest change "
                f"{ui.fmt(t.other_series[3], 4)}); the other three leave them untouched.",
            ]
        )


@st.fragment
def inference_section(settings: Settings, names: tuple[str, ...]) -> None:
    with ui.going_further("Training, inference and the batch", "ex", "steps", "feat"):
        ui.prose(
            "Layer norm computes its statistics from the current input at training and at "
            "inference alike. Batch norm, in evaluation mode, uses running statistics gathered "
            "during training instead."
        )
        bsz = settings.batch
        c1, c2, c3 = st.columns(3)
        with c1:
            ex = ui.control(replace(STATE["ex"], hi=bsz - 1))
        with c2:
            steps = ui.control(STATE["steps"])
        with c3:
            feat = names.index(ui.control(STATE["feat"]))
        inf = inference(settings, ex, steps)
        g = inf.gap
        t = model.inference_table(inf)
        ui.table(
            {
                "max |Δy| of this example": t.setting,
                "layer norm": cells(t.layer_norm),
                "batch norm": cells(t.batch_norm),
            },
        )
        with ui.fold("What each row compares"):
            st.markdown(
                "The example's training-mode output in its batch, against the same example alone, "
                "among other series, and fed one token at a time at inference (batch norm then in "
                "evaluation mode)."
            )
        ui.chart(checks.INFERENCE, inf, feat, names[feat], key="inference")
        tiny = max(g("ln_batch", "ln_alone"), g("ln_batch", "ln_stream"))
        ui.notice(
            [
                "Layer norm gives this example the same output alone, with other batch mates, and "
                "at inference, one token at a time: no mode, no stored state; "
                f"largest gap {text.short(tiny, 2)}.",
                "In a batch of one, batch norm has no company to change with."
                if bsz == 1
                else "Batch norm in training mode changes with the company: alone it differs by "
                f"{ui.fmt(g('bn_batch', 'bn_alone'), 3)}, with other mates by "
                f"{ui.fmt(g('bn_batch', 'bn_mates'), 3)}.",
                f"Alone, training-mode batch norm *is* sequence pooling (gap "
                f"{text.short(g('bn_alone', 'seq_alone'), 2)}): a batch of one looks into its own "
                "future.",
                f"In evaluation mode it uses running statistics after {steps} training batches "
                f"(gap {ui.fmt(g('bn_batch', 'bn_eval'), 3)}); then the example's company no "
                f"longer matters (alone vs batch: {text.short(g('bn_eval', 'bn_eval_alone'), 2)}).",
            ]
        )


@ui.page_body
def body() -> None:
    with ui.page_controls():
        bsz, tsz, seed, win = ui.int_row(*(STATE[k] for k in ("b", "t", "seed", "w")))
        c5, c6 = st.columns(2)  # the toggle's label whole at 1280 px
        with c5:
            leak = ui.control(STATE["leak"])
        with c6:
            eps = ui.control(STATE["eps"])

    quiz.ask(questions(tsz, bsz, leak, seed, win, eps), page="sequences")

    settings = Settings(bsz, tsz, seed, win, leak, eps)
    a = analyse(settings)

    data_part(a, win, leak)
    dependence_section(a, leak)
    leak_section(a, settings)
    shock_section(settings)
    inference_section(settings, a.market.names)

    st.header("What normalization does not replace")
    ui.prose(
        "Token-wise statistics close one route for the future to reach the past: the "
        "normalization itself. Every other route stays open, and each needs its own remedy."
    )
    with st.expander("The other routes and their remedies"):
        ui.prose(
            """- **Causal masks.** Attention, convolutions and recurrences still mix tokens. A
  forecaster needs a mask that stops token t from attending to later tokens; normalization
  is no mask.
- **Point-in-time inputs.** A feature built with data published later (a revised figure, a
  close used before the market closed, a label joined one day off) passes through
  normalization intact, as the leaky feature shows.
- **Chronological validation.** Fit on earlier periods, test on later ones. A shuffled split
  lets neighbouring days of the test set into training.
- **Units and preprocessing.** Layer norm acts on hidden states a model has learned; it does
  not choose sensible input units for you. Scalers for raw inputs belong to the training
  period only: fitting them on the whole history is sequence pooling again, one step earlier.
- **Placement.** Whether the normalization sits inside the branch of a residual connection
  (pre-norm) or after the sum (post-norm) is a design decision, to be judged by how training
  behaves and how held-out data scores ($\\mathcal F$: attention or an MLP):"""
        )
        st.latex(r"\text{pre-norm:}\quad h_{l+1}=h_l+\mathcal{F}\bigl(\mathrm{LN}(h_l)\bigr)")
        st.latex(r"\text{post-norm:}\quad h_{l+1}=\mathrm{LN}\bigl(h_l+\mathcal{F}(h_l)\bigr)")


body()
ui.page_end()
