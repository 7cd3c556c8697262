"""Gain-and-bias figures, z -> u -> y: closed forms only where certain, so no tiny mean shows 0."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from lnviz.content.closed_forms import exact
from lnviz.content.text import short, short_vector
from lnviz.core import AffineStages, Stage
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, RED
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, value_bars

STAGE_COLORS = (GRAY, BLUE, ORANGE)  # input, core, output


def stage_title(stage: Stage) -> str:
    """A stage's name over its moments: two lines so four-digit moments fit a third of the page."""
    if not math.isfinite(stage.mean):
        return f"{stage.name}: undefined"
    mean = exact(stage.mean) or short(stage.mean)
    var = exact(stage.var) or short(stage.var)
    return f"{stage.name}<br>mean {mean} · variance {var}"


STEPS = ("1 · ", "2 · ", "3 · ")  # the order z -> u -> y, shown in titles


def stage_figure(res: AffineStages, index: int) -> go.Figure:
    """One stage (0 input, 1 core, 2 output): bars per coordinate, mean dashed, ± sd shaded."""
    stage, color = res.stages[index], STAGE_COLORS[index]
    d = stage.values.size
    fig = FigureSpec()
    layout(fig, title=STEPS[index] + stage_title(stage), x="coordinate", y="", height=320)
    fig.update_layout(showlegend=False, margin={"t": 66})  # the title's two lines
    if not math.isfinite(stage.mean):
        fig.add_annotation(
            text="undefined: ε = 0 and q = 0 (0/0)",
            showarrow=False,
            xref="x domain",
            yref="y domain",
            x=0.5,
            y=0.5,
            font={"color": RED, "size": 14},
        )
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
        return fig.figure()
    sd = math.sqrt(stage.var)
    fig.add_shape(  # below the bars, so it never washes them out
        type="rect",
        x0=-0.5,
        x1=d - 0.5,
        y0=stage.mean - sd,
        y1=stage.mean + sd,
        fillcolor=GRAY,
        opacity=0.22,
        line={"width": 0},
        layer="below",
    )
    value_bars(
        fig,
        list(range(d)),
        stage.values,
        [short(float(v), 3) for v in stage.values],
        name=stage.name,
        color=color,
        hovertemplate=f"{stage.name}, coordinate %{{x}}: %{{y}}<extra></extra>",
        showlegend=False,
    )
    fig.add_scatter(
        x=[-0.5, d - 0.5],
        y=[stage.mean, stage.mean],
        mode="lines",
        line={"dash": "dash", "color": RED, "width": 2},
        name="mean",
        hoverinfo="skip",
    )
    fig.update_xaxes(
        tickvals=list(range(d)), ticktext=[str(i + 1) for i in range(d)], range=[-0.6, d - 0.4]
    )
    lo = min(float(stage.values.min()), stage.mean - sd, 0.0)
    hi = max(float(stage.values.max()), stage.mean + sd, 0.0)
    pad = 0.18 * (hi - lo or 1.0)
    fig.update_yaxes(range=[lo - pad, hi + pad])
    return fig.figure()


def stage_alt(res: AffineStages, index: int) -> str:
    s = res.stages[index]
    where = f"stage {index + 1} of 3 (input, core, output)"
    if index > 0:  # the input does not depend on ε, and its alt text must not either
        where += f" at ε = {short(res.eps)}"
    if not math.isfinite(s.mean):
        return f"Empty panel, {where}: {s.name} is undefined because ε = 0 and z is constant."
    extra = (
        f" Gains {short_vector(res.gamma)} and biases {short_vector(res.beta)} map the core to "
        "this output."
        if index == 2
        else ""
    )
    return (
        f"Bar chart, {where}: {s.name} = {short_vector(s.values)}, with a dashed line at the mean "
        f"{short(s.mean)} and a shaded band of one standard deviation around it; population "
        f"variance {short(s.var)}.{extra}"
    )


STAGE = Chart(stage_figure, stage_alt)


def moments_figure(res: AffineStages) -> go.Figure:
    """Mean and variance of the core and of the output, against the targets 0 and 1."""
    names = [res.core.name, res.output.name]
    means = [res.core.mean, res.output.mean]
    variances = [res.core.var, res.output.var]
    fig = FigureSpec()
    for label, values, color in (("mean", means, BLUE), ("variance", variances, GREEN)):
        text = [exact(v) or short(v) for v in values]
        value_bars(fig, names, np.array(values), text, name=label, color=color)
    hline(fig, 1.0, {"dash": "dot", "color": RED, "width": 1.5}, "variance 1")
    hline(fig, 0.0, {"color": GRAY, "width": 1})
    layout(fig, title="Mean and variance: core against output", x="", y="value", height=340)
    fig.update_layout(barmode="group")
    finite = [v for v in means + variances if math.isfinite(v)]
    lo, hi = min([0.0, *finite]), max([1.0, *finite])
    fig.update_yaxes(range=[lo - 0.15 * (hi - lo), hi + 0.2 * (hi - lo)])
    return fig.figure()


def moments_alt(res: AffineStages) -> str:
    return (
        f"Grouped bars of mean and population variance. Core: mean {short(res.core.mean)}, "
        f"variance {short(res.core.var)}. Output: mean {short(res.output.mean)}, variance "
        f"{short(res.output.var)}. A dotted line marks variance 1."
    )


MOMENTS = Chart(moments_figure, moments_alt)
