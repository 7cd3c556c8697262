"""Figures and tables of the sequences page's experiments: the future shock, inference."""

from __future__ import annotations

import plotly.graph_objects as go

from lnviz.content import text
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, RED
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import layout, legend_below, r, vline
from lnviz.lessons.sequences.analysis import scheme_label
from lnviz.lessons.sequences.causality import SCHEMES
from lnviz.lessons.sequences.figures import SCHEME_COLORS
from lnviz.lessons.sequences.leakage import Inference, Shock


def shock_figure(s: Shock) -> go.Figure:
    """max_f |change of y[t]| per scheme after shocking the return at time s.token."""
    fig = FigureSpec()
    tok = list(range(s.change.shape[1]))
    for k, scheme in enumerate(SCHEMES):
        fig.add_scatter(
            x=tok,
            y=r(s.change[k], 4),
            mode="lines+markers",
            name=scheme_label(scheme),
            line={"color": SCHEME_COLORS[scheme], "width": 2},
            marker={"size": 5},
        )
    fig.add_shape(  # what add_vrect draws: a band over the plot's full height
        type="rect", xref="x", yref="y domain", x0=-0.5, x1=s.token - 0.5, y0=0, y1=1,
        fillcolor=GRAY, opacity=0.12, line_width=0,
    )  # fmt: skip
    if s.token >= 4:  # room for the band's name inside it
        fig.add_annotation(
            x=-0.5, y=1, yref="paper", text="before the shock", showarrow=False,
            xanchor="left", yanchor="top", font={"color": GRAY},
        )  # fmt: skip
    vline(fig, s.token, {"color": RED, "dash": "dash"})
    fig.add_annotation(
        x=s.token,
        y=1,
        yref="paper",
        text="shock",
        showarrow=False,
        xanchor="left",
        font={"color": RED},
    )
    layout(fig, title="Change of each normalized token", x="token t", y="max |Δy| over features")
    legend_below(fig)  # above, its two rows on a phone ran into the title
    return fig.figure()


def shock_alt(s: Shock) -> str:
    parts = "; ".join(
        f"{scheme_label(sc)}: first change at token {int(f)}, largest change before the shock "
        f"{text.short(float(p), 3)}"
        for sc, f, p in zip(SCHEMES, s.first_moved, s.past, strict=True)
    )
    return (
        f"Line chart of how much each normalized token of series {s.example} changes when "
        f"the return at token {s.token} moves by {text.short(s.size)}%; tokens before it are "
        "shaded. " + parts + "."
    )


SHOCK = Chart(shock_figure, shock_alt)


def inference_figure(inf: Inference, feature: int, name: str) -> go.Figure:
    """One feature of one example, normalized in each setting."""
    series = (
        ("layer norm, in the batch", inf.ln_batch, BLUE, "solid", 4),
        ("layer norm, alone", inf.ln_alone, GRAY, "dot", 2),
        ("batch norm, training, in the batch", inf.bn_batch, ORANGE, "solid", 2),
        ("batch norm, training, alone", inf.bn_alone, RED, "dash", 2),
        (f"batch norm, evaluation ({inf.steps} steps)", inf.bn_eval, GREEN, "dashdot", 2),
    )
    fig = FigureSpec()
    tok = list(range(inf.ln_batch.shape[0]))
    for label, y, color, dash, width in series:
        fig.add_scatter(
            x=tok,
            y=r(y[:, feature], 5),
            mode="lines",
            name=label,
            line={"color": color, "dash": dash, "width": width},
        )
    layout(
        fig, title=f"“{name}” of example {inf.example}, normalized", x="token t",
        y="normalized value y",
    )  # fmt: skip
    legend_below(fig, -0.25).update_layout(height=400)
    return fig.figure()


def inference_alt(inf: Inference, feature: int, name: str) -> str:
    alone, company = inf.gap("ln_batch", "ln_alone"), inf.gap("bn_batch", "bn_alone")
    evaluation = inf.gap("bn_batch", "bn_eval")
    return (
        f"Five lines over the tokens of example {inf.example}, feature “{name}”: layer norm "
        f"in the batch and alone coincide (largest gap {text.short(alone)}); batch norm in "
        f"training mode differs in the batch and alone (gap {text.short(company, 3)}) and "
        f"again in evaluation mode with running statistics after {inf.steps} steps (gap "
        f"{text.short(evaluation, 3)})."
    )


INFERENCE = Chart(inference_figure, inference_alt)
