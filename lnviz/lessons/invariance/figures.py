"""Figures of the invariance page: before/after bars, LN against RMS, the affine redundancy."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from lnviz.content.text import short, short_vector
from lnviz.core import Scaling
from lnviz.figures._palette import BLUE, GRAY, GREEN, ORANGE, PURPLE, RED, TEAL
from lnviz.figures._spec import Chart, FigureSpec
from lnviz.figures._style import hline, layout, legend_below, r, value_bars
from lnviz.invariance import Redundancy
from lnviz.lessons.explorers import redundancy_check
from lnviz.lessons.symmetry import Split, Symmetry

_WHAT = {  # how each change is written in labels
    "common shift": "z + c",
    "unequal shift": "z + s",
    "scale": "a·z",
}


def _coords(d: int) -> list[str]:
    return [f"z{i + 1}" if d > 3 else f"coordinate {i + 1}" for i in range(d)]


def _bar_text(values: np.ndarray) -> list[str]:
    return [short(float(v), 4) for v in values]


def _zero_line(fig: FigureSpec) -> None:
    hline(fig, 0.0, {"color": GRAY, "width": 1})


def _norm(sym: Symmetry, norm: str) -> tuple[str, str, np.ndarray, np.ndarray, float]:
    """Norm "ln" or "rms": its name, symbol, outputs before and after, and largest change."""
    if norm == "ln":
        return "layer norm", "u_ε", sym.ln, sym.ln_moved, sym.ln_change
    return "RMS norm", "rms_ε", sym.rms, sym.rms_moved, sym.rms_change


def pair_figure(sym: Symmetry, *, norm: str = "ln") -> go.Figure:
    """Grouped bars per coordinate: the normalization of z and of the changed input."""
    name, f, before, after, change = _norm(sym, norm)
    what = _WHAT[sym.kind]
    idx = _coords(sym.z.size)
    fig = FigureSpec()
    for values, label, color in ((before, f"{f}(z)", BLUE), (after, f"{f}({what})", ORANGE)):
        value_bars(fig, idx, values, _bar_text(values), name=label, color=color)
    layout(
        fig,
        title=f"{name} before and after {what}: largest change {short(change, 3)}",
        x="",
        y=f"{f} value",
        height=340,
    )
    fig.update_layout(barmode="group", bargap=0.25)
    _zero_line(fig)
    return fig.figure()


def pair_alt(sym: Symmetry, *, norm: str = "ln") -> str:
    name, _, before, after, change = _norm(sym, norm)
    return (
        f"Grouped bars per coordinate at ε = {short(sym.eps)}: {name} of z = "
        f"{short_vector(sym.z)} is {short_vector(before)}; of the changed input it is "
        f"{short_vector(after)}. "
        f"The largest change is {short(change)}."
    )


PAIR = Chart(pair_figure, pair_alt)


def scaling_traces(
    fig: FigureSpec,
    idx: list[str],
    cores: tuple[np.ndarray, np.ndarray, np.ndarray],
    a: float,
    *,
    digits: int = 5,
    grouped: bool = False,
) -> None:
    """Bars u_eps(z), u_eps(a z), crosses u_{eps/a^2}(z); `grouped` puts crosses on the 2nd bars."""
    core_z, core_az, rescaled = cores
    group1, group2 = ("1", "2") if grouped else (None, None)
    fig.add_bar(x=idx, y=r(core_z, digits), name="u_ε(z)", marker_color=BLUE, offsetgroup=group1)
    fig.add_bar(
        x=idx,
        y=r(core_az, digits),
        name="u_ε(a·z)" if grouped else f"u_ε(a·z), a = {short(a)}",
        marker_color=ORANGE,
        offsetgroup=group2,
    )
    fig.add_scatter(
        x=idx,
        y=r(rescaled, digits),
        mode="markers",
        name="u_(ε/a²)(z)",
        marker={"symbol": "x-thin", "size": 16, "line": {"width": 3, "color": GREEN}},
        offsetgroup=group2,
    )


def scaling_text(core_z: np.ndarray, core_az: np.ndarray, a: float, eps: float) -> str:
    """The alt text's opening for scaling_traces' bars, up to a semicolon."""
    return (
        f"Grouped bars of u_ε(z) = {short_vector(core_z)} and u_ε(a·z) = "
        f"{short_vector(core_az)} for a = {short(a)}, ε = {short(eps)};"
    )


def scale_figure(sym: Symmetry, s: Scaling) -> go.Figure:
    """u_eps(z), u_eps(a z) as bars and u_{eps/a^2}(z) as crosses on top of the second."""
    idx = _coords(sym.z.size)
    fig = FigureSpec()
    cores = (sym.ln, sym.ln_moved, s.core_rescaled_eps)
    scaling_traces(fig, idx, cores, s.a, digits=7, grouped=True)
    layout(
        fig,
        title=f"Scaling by a = {short(s.a)}: largest change {short(sym.ln_change, 3)}",
        x="",
        y="core value",
        height=340,
    )
    fig.update_layout(barmode="group", bargap=0.25, scattermode="group")
    _zero_line(fig)
    return fig.figure()


def scale_alt(sym: Symmetry, s: Scaling) -> str:
    bars = scaling_text(sym.ln, sym.ln_moved, s.a, sym.eps)
    return (
        f"{bars} the largest change is {short(sym.ln_change)}. Crosses mark u_(ε/a²)(z) = "
        f"{short_vector(s.core_rescaled_eps)}, equal to u_ε(a·z) up to {short(s.identity_error)}."
    )


SCALE = Chart(scale_figure, scale_alt)


def contrast_figure(shift: Symmetry, scaled: Symmetry) -> go.Figure:
    """Largest change of layer norm and of RMS norm under the common shift and the scaling."""
    groups = [f"z + c, c = {short(shift.amount)}", f"a·z, a = {short(scaled.amount)}"]
    ln = [shift.ln_change, scaled.ln_change]
    rms = [shift.rms_change, scaled.rms_change]
    fig = FigureSpec()
    for values, label, color in ((ln, "layer norm", BLUE), (rms, "RMS norm", PURPLE)):
        text = [short(v, 3) for v in values]
        value_bars(fig, groups, np.array(values), text, name=label, color=color)
    layout(fig, title="Largest change of the output", x="", y="max |change|", height=340)
    finite = [v for v in ln + rms if math.isfinite(v)]
    top = max(finite, default=0.0)
    fig.update_yaxes(range=[0, 1.25 * top if top > 0 else 1.0])
    fig.update_layout(barmode="group", bargap=0.3)
    return fig.figure()


def _changes(sym: Symmetry) -> str:
    """The largest change of layer norm and of RMS norm under `sym`, as alt text says it."""
    return f"layer norm {short(sym.ln_change)}, RMS norm {short(sym.rms_change)}"


def contrast_alt(shift: Symmetry, scaled: Symmetry) -> str:
    return (
        f"Grouped bars of the largest output change at ε = {short(shift.eps)}. Common shift "
        f"c = {short(shift.amount)}: {_changes(shift)}. Scaling by a = {short(scaled.amount)}: "
        f"{_changes(scaled)}."
    )


CONTRAST = Chart(contrast_figure, contrast_alt)


_CHANGES = (  # field of Redundancy, label, colour, marker
    ("bias_shift", "b + c", GREEN, "circle-open"),
    ("weight_shift", "W + 1rᵀ", TEAL, "x-thin"),
    ("input_shift", "x + Δx (raw input)", RED, "diamond"),
)


def _labels(c: float, r_vec: np.ndarray, dx: np.ndarray) -> dict[str, str]:
    return {
        "bias_shift": f"b + c, c = {short(c)}",
        "weight_shift": f"W + 1rᵀ, r = {short_vector(r_vec)}",
        "input_shift": f"x + Δx, Δx = {short_vector(dx)}",
    }


def redundancy_figure(red: Redundancy, c: float, r_vec: np.ndarray, dx: np.ndarray) -> go.Figure:
    """Each output coordinate after a change against before: on the diagonal = unchanged."""
    names = _labels(c, r_vec, dx)
    base = red.base.ravel()  # (k d,)
    fig = FigureSpec()
    every = np.concatenate([base, *(getattr(red, f).ravel() for f, *_ in _CHANGES)])
    finite = every[np.isfinite(every)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    pad = 0.1 * (hi - lo or 1.0)
    lo, hi = lo - pad, hi + pad
    fig.add_scatter(
        x=[lo, hi],
        y=[lo, hi],
        mode="lines",
        line={"dash": "dash", "color": GRAY, "width": 1.5},
        name="unchanged (after = before)",
        hoverinfo="skip",
    )
    k, d = red.base.shape
    hover = [f"input x{i + 1}, coordinate {j + 1}" for i in range(k) for j in range(d)]
    for field, _, color, symbol in _CHANGES:
        label = names[field]
        after = getattr(red, field).ravel()  # (k d,)
        fig.add_scatter(
            x=r(base, 7),
            y=r(after, 7),
            mode="markers",
            name=label,
            text=hover,
            hovertemplate="%{text}<br>before %{x}, after %{y}<extra>" + label + "</extra>",
            marker={
                "color": color,
                "symbol": symbol,
                "size": 13 if symbol != "diamond" else 9,
                "line": {"width": 2.5, "color": color},
            },
        )
    layout(
        fig,
        title="After each change against before",
        x="layer-norm output before (W x + b)",
        y="output after the change",
        height=420,
    )
    fig.update_xaxes(range=[lo, hi])
    fig.update_yaxes(range=[lo, hi], scaleanchor="x", scaleratio=1)
    legend_below(fig, -0.22)
    return fig.figure()


def redundancy_alt(red: Redundancy, c: float, r_vec: np.ndarray, dx: np.ndarray) -> str:
    k, d = red.base.shape
    moves = (
        "moves points off it"
        if redundancy_check(red).input_visible
        else "leaves them on it too, to rounding"
    )
    return (
        f"Scatter of all {k * d} layer-norm outputs (k = {k} inputs, d = {d} coordinates), "
        f"each change against the original. Adding c = {short(c)} to "
        f"every entry of b moves no point off the diagonal (largest change "
        f"{short(red.bias_change)}), nor does adding r = {short_vector(r_vec)} to each row of W "
        f"(largest change {short(red.weight_change)}). Shifting the raw input by Δx = "
        f"{short_vector(dx)} {moves} (largest change {short(red.input_change)}), because it "
        f"adds W Δx = {short_vector(red.added_by_input_shift)} to z."
    )


REDUNDANCY = Chart(redundancy_figure, redundancy_alt)


def ws_figure(split: Split) -> go.Figure:
    """Bars of W dx, with its common part (the mean, removed by layer norm) dashed."""
    idx = _coords(split.s.size)
    fig = FigureSpec()
    value_bars(fig, idx, split.s, _bar_text(split.s), name="W Δx (added to z)", color=RED)
    fig.add_scatter(
        x=[idx[0], idx[-1]],
        y=[split.c, split.c],
        mode="lines",
        line={"dash": "dash", "color": BLUE, "width": 2},
        name=f"common part {short(split.c, 3)} (removed)",
        hoverinfo="skip",
    )
    _zero_line(fig)
    layout(fig, title="What the raw-input shift adds to z", x="", y="(W Δx)ᵢ", height=420)
    legend_below(fig, -0.12).update_layout(bargap=0.35)
    vals = np.append(split.s, [split.c, 0.0])
    lo, hi = float(vals.min()), float(vals.max())
    pad = 0.25 * (hi - lo or 1.0)
    fig.update_yaxes(range=[lo - pad, hi + pad])
    return fig.figure()


def ws_alt(split: Split) -> str:
    kept = (
        "nothing is left: a common shift" if split.common else f"{short_vector(split.rest)} is kept"
    )
    return (
        f"Bars of W Δx = {short_vector(split.s)}, with a dashed line at its mean "
        f"{short(split.c)}, the common part that layer norm removes; the rest, {kept}."
    )


WS = Chart(ws_figure, ws_alt)
