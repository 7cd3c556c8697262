"""Figures of "Inside a transformer", geometry: the sphere, QK-norm attention and the keys
it can select, layer norm against tanh (lnviz.figures.transformer gathers the pairs)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lnviz.figures._spec import FigureSpec
from lnviz.figures._style import (
    BLUE,
    GRAY,
    ORANGE,
    PURPLE,
    QUALITATIVE,
    RED,
    layout,
    legend_below,
    num,
    r,
)
from lnviz.lessons.qk_attention import AttentionScan, Selectability
from lnviz.lessons.sphere import SphereView
from lnviz.lessons.tanh_fit import TanhFit

SCATTER_MAX = 4000  # points of the tanh scatter sent to the browser


def sphere_figure(view: SphereView) -> go.Figure:
    """d = 3: inputs, centred inputs, cores on the circle of radius sqrt(3), outputs on the
    gain's ellipse, in 3-D. d > 3: the same in the fixed 2-D plane of the basis."""
    d = view.z.shape[1]
    fig = FigureSpec()
    if d == 3:
        sets = (
            ("inputs z", view.z, GRAY, 3),
            ("centred z − mean 𝟏", view.centred, PURPLE, 3),
            ("core u (layer norm)", view.core, BLUE, 4),
            ("output γ·u + β", view.output, ORANGE, 4),
        )
        for name, pts, color, size in sets:
            fig.add_scatter3d(
                x=r(pts[:, 0]), y=r(pts[:, 1]), z=r(pts[:, 2]), mode="markers", name=name,
                marker={"color": color, "size": size},
            )  # fmt: skip
        for name, curve, color in (
            ("circle of radius √3 in 𝟏⊥", view.circle, BLUE),
            ("the gain's ellipse", view.ellipse, ORANGE),
        ):
            fig.add_scatter3d(
                x=r(curve[:, 0]), y=r(curve[:, 1]), z=r(curve[:, 2]), mode="lines", name=name,
                line={"color": color, "width": 4}, hoverinfo="skip",
            )  # fmt: skip
        layout(fig, title="Layer norm puts tokens on a circle", x="", y="", height=500)
        fig.update_layout(
            scene={"aspectmode": "data", "camera": {"eye": {"x": 1.05, "y": 1.05, "z": 0.75}}},
            margin={"l": 0, "r": 0, "t": 40, "b": 10},
        )
        return legend_below(fig, 0.0).figure()
    plane = view.basis
    for name, pts, color in (
        ("inputs z (= centred z)", view.plane_input, GRAY),
        ("core u (layer norm)", view.plane_core, BLUE),
    ):
        fig.add_scatter(
            x=r(pts[:, 0]), y=r(pts[:, 1]), mode="markers", name=name,
            marker={"color": color, "size": 6},
        )  # fmt: skip
    circle = view.circle @ plane  # (K, 2)
    fig.add_scatter(
        x=r(circle[:, 0]), y=r(circle[:, 1]), mode="lines", name=f"radius √{d}",
        line={"color": BLUE, "width": 1.5, "dash": "dash"}, hoverinfo="skip",
    )  # fmt: skip
    layout(fig, title=f"A 2-D slice of 𝟏⊥ in ℝ^{d}", x="along (1, −1, 0, …)/√2",
           y="along (1, 1, −2, 0, …)/√6")  # fmt: skip
    fig.update_yaxes(scaleanchor="x")
    return legend_below(fig).figure()


def sphere_alt(view: SphereView) -> str:
    d = view.z.shape[1]
    inside = int(view.pulled_in.sum())
    where = "a 3-D view" if d == 3 else f"a 2-D slice of the plane orthogonal to 1 in ℝ^{d}"
    return (
        f"{where.capitalize()} of {view.z.shape[0]} tokens: after centring they lie in the "
        f"plane orthogonal to (1, …, 1); layer norm with ε = {num(view.eps)} puts their cores "
        f"at radius up to √{d} = {num(view.sphere_radius)} (from "
        f"{num(float(view.radius.min()))} to {num(float(view.radius.max()))}); {inside} "
        f"tokens of small variance sit visibly inside. The gain γ stretches the circle into an "
        f"ellipse with semi-axes {', '.join(num(float(a)) for a in view.semi_axes[:3])}."
    )


def attention_figure(raw: AttentionScan, normed: AttentionScan) -> go.Figure:
    """Left: each key's softmax weight against the logit scale, without (solid) and with
    (dashed) QK-norm. Right: the attention entropy of both."""
    fig = FigureSpec.subplots(
        1, 2, subplot_titles=("softmax weight of each key", "attention entropy (nats)")
    )
    for j in range(raw.keys.shape[0]):
        color = QUALITATIVE[j % len(QUALITATIVE)]
        for scan, dash, label in ((raw, "solid", "no norm"), (normed, "dash", "QK-norm")):
            fig.add_scatter(
                x=r(scan.scales), y=r(scan.weights[:, j]), mode="lines",
                name=f"key {j + 1}, {label}", line={"color": color, "dash": dash},
                row=1, col=1,
            )  # fmt: skip
    for scan, color, label in (
        (raw, GRAY, "no norm"),
        (normed, PURPLE, f"QK-norm, τ = {normed.tau:g}"),
    ):
        fig.add_scatter(
            x=r(scan.scales), y=r(scan.entropy), mode="lines+markers", name=f"entropy, {label}",
            line={"color": color}, row=1, col=2,
        )  # fmt: skip
    layout(fig, title="Growing q and k: attention collapses unless q and k are normalized",
           x="logit scale s (log)", y="weight", height=400)  # fmt: skip
    fig.update_xaxes(type="log")
    fig.update_xaxes(title={"text": "logit scale s (log)"}, row=1, col=2)
    fig.update_yaxes(range=[0, 1.02], row=1, col=1)
    fig.update_yaxes(range=[0, raw.max_entropy * 1.05], title={"text": "entropy"}, row=1, col=2)
    return legend_below(fig, -0.3).figure()


def attention_alt(raw: AttentionScan, normed: AttentionScan) -> str:
    top = int(raw.weights[-1].argmax())
    top_n = int(normed.weights[-1].argmax())
    return (
        f"Two line charts against the logit scale s from {num(float(raw.scales[0]))} to "
        f"{num(float(raw.scales[-1]))}, for one query and {raw.keys.shape[0]} keys. Without "
        f"QK-norm the largest logit grows to {num(float(raw.max_abs_logit[-1]))}, key "
        f"{top + 1} takes weight {num(float(raw.weights[-1, top]), 3)} and the entropy falls "
        f"from {num(float(raw.entropy[0]), 3)} to {num(float(raw.entropy[-1]), 3)} nats. With "
        f"QK-norm ({normed.qk_norm} norm, τ = {num(normed.tau)}) the logits stay within "
        f"±{num(normed.logit_bound)}, key {top_n + 1} gets weight "
        f"{num(float(normed.weights[-1, top_n]), 3)}, and the entropy stays at "
        f"{num(float(normed.entropy[-1]), 3)} nats."
    )


def selection_figure(raw: Selectability, normed: Selectability) -> go.Figure:
    """The keys as a query sees them, before (left) and after (right) layer norm; keys no
    query can select are drawn hollow, with the convex hull outlined."""
    fig = FigureSpec.subplots(
        1, 2, subplot_titles=("keys (coordinates 1, 2)", "layer-normed keys in 𝟏⊥")
    )
    for col, sel in ((1, raw), (2, normed)):
        pts = sel.coordinates
        hull = [j for j in _hull_order(pts) if sel.selectable[j]]
        if len(hull) >= 2:
            loop = [*hull, hull[0]]
            fig.add_scatter(
                x=r(pts[loop, 0]), y=r(pts[loop, 1]), mode="lines", line={"color": GRAY},
                hoverinfo="skip", showlegend=False, row=1, col=col,
            )  # fmt: skip
        fig.add_scatter(
            x=r(pts[:, 0]), y=r(pts[:, 1]), mode="markers+text",
            text=[f"k{j + 1}" for j in range(len(pts))], textposition="top right",
            marker={
                "size": 11,
                "color": [BLUE if s else "rgba(0,0,0,0)" for s in sel.selectable],
                "line": {"color": BLUE, "width": 2},
            },
            showlegend=False, row=1, col=col,
        )  # fmt: skip
    layout(fig, title="Which keys can win: vertices of the hull", x="", y="", height=380)
    fig.update_yaxes(scaleanchor="x", row=1, col=1)
    fig.update_yaxes(scaleanchor="x2", row=1, col=2)
    return fig.figure()


def selection_alt(raw: Selectability, normed: Selectability) -> str:
    def hidden(sel: Selectability) -> str:
        keys = [f"k{j + 1}" for j in np.flatnonzero(~sel.selectable)]
        return ", ".join(keys) if keys else "none"

    return (
        f"Two scatter plots of {raw.keys.shape[0]} keys with their convex hull. Before layer "
        f"norm the keys no query can select are: {hidden(raw)}. After layer norm (ε = "
        f"{num(normed.eps)}) they lie on a circle and the unselectable keys are: "
        f"{hidden(normed)}."
    )


def _hull_order(pts: np.ndarray) -> list[int]:
    """Points ordered by angle about their centroid (for outlining a convex polygon)."""
    c = pts.mean(axis=0)
    return [int(j) for j in np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]


def tanh_figure(fit: TanhFit) -> go.Figure:
    """Every element (x, LN(x)) of the tokens (ordinary and outlier entries), and the fitted
    gamma * tanh(alpha x) + beta."""
    xf, yf, of = fit.x.ravel(), fit.y.ravel(), fit.outlier.ravel()
    step = max(1, xf.size // SCATTER_MAX)
    keep = np.zeros(xf.size, bool)
    keep[::step] = True
    keep |= of  # every outlier is shown
    fig = FigureSpec()
    for mask, name, color in ((keep & ~of, "ordinary entries", BLUE), (keep & of, "outliers", RED)):
        fig.add_scatter(
            x=r(xf[mask]), y=r(yf[mask]), mode="markers", name=name,
            marker={"color": color, "size": 4, "opacity": 0.5},
            hovertemplate="x = %{x:.3g}, LN(x) = %{y:.3g}<extra></extra>",
        )  # fmt: skip
    grid = np.linspace(float(xf.min()), float(xf.max()), 301)
    fig.add_scatter(
        x=r(grid),
        y=r(fit.gamma * np.tanh(fit.alpha * grid) + fit.beta),
        mode="lines",
        name=f"{num(fit.gamma, 3)}·tanh({num(fit.alpha, 3)}·x) {_signed(fit.beta, 2)}",
        line={"color": ORANGE, "width": 3},
    )
    layout(fig, title="Layer norm per element, against a tanh", x="input x", y="output LN(x)")
    return legend_below(fig).figure()


def _signed(x: float, digits: int) -> str:
    """'+ 0.01' or '− 0.01': a term added to a formula."""
    return f"{'−' if x < 0 else '+'} {num(abs(x), digits)}"


def tanh_alt(fit: TanhFit) -> str:
    T, d = fit.x.shape
    return (
        f"Scatter of all {T * d} elements of {T} tokens of width {d}, input against layer-norm "
        f"output, {int(fit.outlier.sum())} of them outliers, with the fitted curve "
        f"{num(fit.gamma, 3)}·tanh({num(fit.alpha, 3)}·x) {_signed(fit.beta, 2)}. The curve "
        f"explains r² = {num(fit.r2, 3)} of the variance (a straight line "
        f"{num(fit.linear_r2, 3)}); the rest, RMS {num(fit.rms_residual, 3)}, is the spread of "
        f"the per-token lines, since layer norm divides each token by its own σ."
    )
