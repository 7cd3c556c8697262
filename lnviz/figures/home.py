"""Thumbnails for the home page cards: small, static figures drawn from live engine results."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from lnviz.axes import Reduction
from lnviz.core import AffineStages
from lnviz.family import Family
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, RED
from lnviz.figures._spec import FigureSpec
from lnviz.figures._style import hline, r
from lnviz.lessons.reduction_axes.figures import label_heatmap


def _thumb(fig: FigureSpec) -> FigureSpec:
    fig.update_layout(height=170, margin={"l": 4, "r": 4, "t": 4, "b": 4}, showlegend=False)
    fig.update_xaxes(showticklabels=False, title=None)
    fig.update_yaxes(showticklabels=False, title=None)
    return fig


def axes_thumb(red: Reduction) -> go.Figure:
    """Statistic groups of a small tensor, unfolded to (batch·token) × feature."""
    fig = FigureSpec().add_trace("heatmap", label_heatmap(red, xgap=2, ygap=2, hoverinfo="skip"))
    fig.update_yaxes(autorange="reversed")
    return _thumb(fig).figure()


def epsilon_thumb(fams: list[Family]) -> go.Figure:
    """h_eps(t) for a few eps, with the asymptotes."""
    fig = FigureSpec()
    for fam, color in zip(fams, (BLUE, ORANGE, GREEN), strict=False):
        fig.add_scatter(x=r(fam.t, 3), y=r(fam.h, 3), mode="lines", line={"color": color})
    for sign in (1, -1):
        hline(fig, sign * fams[0].asymptote, {"dash": "dash", "color": RED, "width": 1})
    return _thumb(fig).figure()


def affine_thumb(stages: AffineStages) -> go.Figure:
    """Input, core and output of the untitled note's toy as grouped bars."""
    fig = FigureSpec()
    for stage, color in zip(stages.stages, (GRAY, BLUE, ORANGE), strict=True):
        fig.add_bar(y=r(stage.values, 4), marker_color=color)
    fig.update_layout(barmode="group")
    return _thumb(fig).figure()


def invariance_thumb(cores: list[np.ndarray]) -> go.Figure:
    """Cores of a vector and of its shifted copies, as grouped bars."""
    fig = FigureSpec()
    for core, color in zip(cores, (BLUE, GREEN, RED), strict=False):
        fig.add_bar(y=r(core, 4), marker_color=color)
    fig.update_layout(barmode="group")
    return _thumb(fig).figure()


def shrunk(fig: go.Figure) -> go.Figure:
    """A page's own chart as a card picture: small, without title, ticks, legend or notes."""
    fig.update_layout(height=170, margin={"l": 4, "r": 4, "t": 4, "b": 4}, showlegend=False,
                      title_text="")  # fmt: skip
    fig.update_annotations(visible=False)
    fig.update_xaxes(showticklabels=False, title_text="", ticks="", automargin=False)
    fig.update_yaxes(showticklabels=False, title_text="", ticks="", automargin=False)
    return fig


def _steps() -> dict[str, Callable[[], go.Figure]]:
    """The other course steps' pictures: one of each page's charts at its defaults."""
    from lnviz import weighted as wt
    from lnviz.lessons.batch_statistics import analysis as bs
    from lnviz.lessons.batch_statistics import figures as batchstats
    from lnviz.lessons.frameworks import diff as fd
    from lnviz.lessons.frameworks import figures as frameworks
    from lnviz.lessons.numerics import figures as numerics
    from lnviz.lessons.numerics import sweep as sw
    from lnviz.lessons.sequences import figures as sequences
    from lnviz.lessons.sequences.analysis import Settings, analyse
    from lnviz.lessons.transformer import analysis as tp
    from lnviz.lessons.transformer import figures as transformer
    from lnviz.lessons.weighted_centering import figures as wfig
    from lnviz.lessons.why_normalize import activation_drift
    from lnviz.lessons.why_normalize import figures as why

    def drift() -> go.Figure:
        return why.DRIFT.figure(activation_drift(depth=32, gain=2.0, activation="relu"))

    def prices() -> go.Figure:
        return sequences.PRICES.figure(analyse(Settings(4, 32, 0, 5, True, 1e-5)).market)

    def gap() -> go.Figure:
        runs = bs.stream_runs(bs.StreamSettings(200, 8, 3, 0, 100, 3.0, 2.0, 0.1, 0.99))
        return batchstats.GAP.figure(runs.stream, runs.runs)

    def gradient() -> go.Figure:
        return transformer.GRADIENT.figure(tp.page_stack(12, 64, 0), "pre")

    def diagnosis() -> go.Figure:
        setup = fd.Setup((2, 4, 8), "btf", "layer", 2, 0.0, 1.0, 0, False)
        return frameworks.DIAGNOSIS.figure(fd.analyse(setup).diagnosis)

    def sweep() -> go.Figure:
        offsets = tuple(float(c) for c in np.logspace(0, 6, 13))
        setup = sw.SweepSetup(sw.SampleSpec("noise", 100, 0), offsets, 1e-5, True, "sequential")
        return numerics.SWEEP.figure(sw.run_sweep(setup), 1e3)

    def plane() -> go.Figure:
        r2 = wt.weighted_centering(wt.two_weights(0.25), np.array([4.0, 2.0]))
        return wfig.PLANE.figure(r2, wt.projection_view(r2))

    pictures = {"why-normalize": drift, "sequences": prices, "batch-statistics": gap,
                "transformer": gradient, "frameworks": diagnosis, "numerics": sweep,
                "weighted-centering": plane}  # fmt: skip
    return {path: functools.partial(_shrunk_of, draw) for path, draw in pictures.items()}


def _shrunk_of(draw: Callable[[], go.Figure]) -> go.Figure:
    return shrunk(draw())


def _cards() -> dict[str, Callable[[], go.Figure]]:
    import lnviz

    return _steps() | {
        "reduction-axes": lambda: axes_thumb(
            lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 6), 0), "group", num_groups=2)
        ),
        "epsilon": lambda: epsilon_thumb(
            [lnviz.epsilon_family(e, n=121) for e in (1 / 3, 0.01, 3.0)]
        ),
        "gain-and-bias": lambda: affine_thumb(
            lnviz.affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], 0.0)
        ),
        "invariance": lambda: invariance_thumb(
            [lnviz.normalized_core(z, 1 / 3) for z in ([1, 2, 3], [101, 102, 103], [1, 2, 4])]
        ),
    }


# url_path -> the card picture of each course step on the home page (live engine results)
CARD_PICTURES: dict[str, Callable[[], go.Figure]] = _cards()


def card_picture(url_path: str) -> go.Figure:
    """A course step's card picture; one function, a picklable argument, so charts can cache it."""
    return CARD_PICTURES[url_path]()


def card_alt(title: str, blurb: str) -> str:
    """The alt text of a card picture: which page it previews, and what that page shows."""
    return f"Preview of the {title.lower()} page. {blurb}"
