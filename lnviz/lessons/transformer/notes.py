"""'What to notice' notes worded from the state shown, so none holds only for the default state."""

from __future__ import annotations

import numpy as np

from lnviz.content.text import eps_label, number, vector
from lnviz.lessons.transformer.analysis import FLAT, PlacementFacts, slope_range
from lnviz.lessons.transformer.ln_backward import LayerNormBackward
from lnviz.lessons.transformer.qk_attention import AttentionScan, Selectability
from lnviz.lessons.transformer.sphere import SphereView
from lnviz.lessons.transformer.tanh_fit import TanhFit


def signed(x: float, digits: int = 3) -> str:
    """A term added to a formula: '+ 0.01' or '− 0.01'."""
    return f"{'−' if x < 0 else '+'} {number(abs(x), digits)}"


def placement_notes(f: PlacementFacts) -> list[str]:
    """Pre-LN against Post-LN: the last block at this depth, and over depths."""
    ratio = f.post_over_pre
    lo, hi = f.sweep_depths
    post_word = (
        "about the same"
        if f.post_flat_in_depth
        else ("larger" if f.post_sweep[1] > f.post_sweep[0] else "smaller")
    )
    spread = f.pre_times_stream_spread
    product = (
        f"their product stays within {number(100 * (spread - 1), 0)} %, so the gradient "
        "falls like 1/|x_L|"
        if spread < FLAT
        else f"their product varies by a factor {number(spread, 2)}"
    )
    return [
        f"At L = {f.depth}, d = {f.width}, the last block's gradient is "
        f"{number(f.last['post'], 3)} in Post-LN and {number(f.last['pre'], 3)} in Pre-LN: "
        + (
            f"Post-LN's is {number(ratio, 2)} times larger."
            if ratio > 1
            else f"Post-LN's is only {number(ratio, 2)} times Pre-LN's."
        ),
        f"From L = {lo} to L = {hi}, Post-LN's last-block gradient goes from "
        f"{number(f.post_sweep[0], 3)} to {number(f.post_sweep[1], 3)} ({post_word}); "
        f"Pre-LN's {'falls' if f.pre_falls else 'does not fall'}, from "
        f"{number(f.pre_sweep[0], 3)} to {number(f.pre_sweep[1], 3)}, while its stream at the "
        f"top grows from {number(f.pre_stream_sweep[0], 3)} to "
        f"{number(f.pre_stream_sweep[1], 3)}: {product}.",
    ]


def placement_details(f: PlacementFacts) -> list[str]:
    """The streams at the top, and what differs from the paper's figure block by block."""
    return [
        f"The stream at the top: Post-LN {number(f.stream_out['post'], 3)} (√d = "
        f"{number(float(np.sqrt(f.width)), 3)}), Pre-LN {number(f.stream_out['pre'], 3)}, "
        f"scaled {number(f.stream_out['scaled'], 3)}."
        + (
            f" The scaled variant's stream is smaller and yet its block {f.depth} gets less "
            f"gradient ({number(f.last['scaled'], 3)}): that block's input is divided by "
            f"√{f.depth}, and its weight gradient with it."
            if f.stream_out["scaled"] < f.stream_out["pre"] and f.last["scaled"] < f.last["pre"]
            else ""
        ),
        *(
            [
                "Block by block this stack is not the paper's Figure 3(a, b), which shows Pre-LN "
                f"level across blocks: here Pre-LN's block 1 gets "
                f"{number(f.pre_first_over_last, 2)} times block {f.depth}'s gradient (below: "
                "why). It reproduces the last block's change with depth (the paper's Figure "
                "3(c, d), the depth chart)."
            ]
            if f.pre_first_over_last > FLAT
            else []
        ),
    ]


def across_blocks_text(f: PlacementFacts) -> str:
    """Block by block: the paper's Figure 3 against this stack."""
    r = f.post_last_over_first
    post = (
        "about the same in every block"
        if f.post_flat_across
        else ("larger near the output" if r > 1 else "larger near the input")
    )
    pre = "larger near the input" if f.pre_first_over_last > 1 else "not larger near the input"
    return (
        "Block by block, the paper's Figure 3(a, b) (a full Transformer, with attention) shows "
        "Post-LN's gradients growing toward the output and Pre-LN's staying level. This stack "
        f"has no attention. Here Post-LN's block {f.depth} gets {number(r, 2)} times block 1's "
        f"gradient ({post}), and Pre-LN's block 1 gets {number(f.pre_first_over_last, 2)} "
        f"times block {f.depth}'s ({pre}), close to the stream's growth |x_L|/|x_1| = "
        f"{number(f.pre_stream_ratio, 2)}: each block's gradient is divided by the size of "
        "the stream it reads. What the page reproduces is how the paper's bounds on the last "
        "block change with depth."
    )


def sphere_notes(view: SphereView) -> list[str]:
    """How many cores ε pulls inside, the plane, and what the gain makes of the circle (d = 3)."""
    d, n = view.z.shape[1], view.z.shape[0]
    radius = (
        f"radii from {number(float(view.radius.min()), 3)} to {number(float(view.radius.max()), 3)}"
    )
    sphere = f"√{d} = {number(view.sphere_radius, 3)}"
    notes = [
        f"With ε = 0 every core is on the sphere of radius {sphere}: {radius}."
        if view.eps == 0
        else f"{int(view.pulled_in.sum())} of {n} tokens sit visibly inside the sphere of "
        f"radius {sphere} ({radius}): those whose variance q is not large next to "
        f"ε = {eps_label(view.eps)}.",
    ]
    if d == 3:
        notes.append(gain_image_text(view))
    else:
        notes.append(
            f"In ℝ^{d} the plane orthogonal to 𝟏 has {d - 1} dimensions; the chart projects "
            "the tokens onto one 2-D plane inside it, so they appear at radius up to √d, not "
            "on it."
        )
    return notes


def gain_image_text(view: SphereView) -> str:
    """What γ makes of the circle (d = 3): semi-axes √3 × the singular values of diag(γ) on ⟂ 𝟏."""
    axes, shape = view.semi_axes, view.image_shape
    where = f"The gain γ = {vector(view.gamma, 3)} maps the circle onto "
    if shape == "point":
        return where + f"a single point, β = {vector(view.beta, 3)}."
    if shape == "segment":
        return where + (
            f"a segment of half-length {number(float(axes[0]), 3)} centred at β: γ keeps only "
            "one direction of the plane ⟂ 𝟏 and flattens the other."
        )
    if shape == "circle":
        return where + f"a circle of radius {number(float(axes[0]), 3)}."
    return where + (
        f"an ellipse with semi-axes {number(float(axes[0]), 3)} and "
        f"{number(float(axes[1]), 3)}: √3 times γ's largest and smallest stretch of the tilted "
        "plane ⟂ 𝟏."
    )


def attention_notes(raw: AttentionScan, normed: AttentionScan, sel: Selectability) -> list[str]:
    """Logits and entropy without and with QK-norm, the blended key, selectability after LN."""
    top = int(raw.weights[-1].argmax())
    hidden = [f"k{j + 1}" for j in np.flatnonzero(~sel.selectable)]
    name = "layer" if normed.qk_norm == "layer" else "RMS"
    d = raw.keys.shape[1]
    return [
        f"Without QK-norm the largest logit reaches {number(float(raw.max_abs_logit[-1]), 1)} "
        f"at s = {number(float(raw.scales[-1]))}; key k{top + 1} then takes weight "
        f"{number(float(raw.weights[-1, top]), 3)} and the entropy falls from "
        f"{number(float(raw.entropy[0]), 3)} to {number(float(raw.entropy[-1]), 3)} nats.",
        f"With QK-norm ({name} norm, τ = {number(normed.tau)}) the largest logit is "
        f"{number(float(normed.max_abs_logit.max()), 3)}, within the bound τ√{d} = "
        f"{number(normed.logit_bound, 3)}, and the entropy stays between "
        f"{number(float(normed.entropy.min()), 3)} and {number(float(normed.entropy.max()), 3)} "
        "nats for every s: growing q and k no longer sharpens attention; only τ does.",
        f"This query gives k₄ weight {number(float(raw.weights[-1, 3]), 3)} without QK-norm "
        f"(at the largest s) and {number(float(normed.weights[-1, 3]), 3)} with it.",
        "After layer norm "
        + ("every key can be selected." if not hidden else f"{', '.join(hidden)} cannot be."),
    ]


def tanh_notes(fit: TanhFit) -> list[str]:
    """The fitted curve against a line, per token against per element, the outliers."""
    low, high = slope_range(fit)
    tokens = fit.x.shape[0]
    with_outlier = int(fit.outlier.any(axis=1).sum())
    return [
        f"The best curve, {number(fit.gamma, 3)}·tanh({number(fit.alpha, 3)}·x) "
        f"{signed(fit.beta)}, explains r² = {number(fit.r2, 3)} of the variance; the best "
        f"straight line {number(fit.linear_r2, 3)}.",
        "What differs: layer norm acts per token, so each token's points lie on a line of "
        f"its own (slope 1/σ_t, from {number(low, 3)} to {number(high, 3)}); tanh acts per "
        "number, one curve for all.",
        f"{with_outlier} of {tokens} tokens carry outliers: their large σ_t squashes their "
        "other entries toward 0, bending the cloud."
        if with_outlier
        else "No outliers: only the tokens' different scales spread the cloud; move the "
        "slider to add outliers.",
    ]


def backward_notes(result: LayerNormBackward) -> list[str]:
    """The input gradient's mean, and its component along x̂ (0 only when ε = 0)."""
    along = float(result.along_x_hat[0])
    return [
        f"∂L/∂x is re-centred: its mean is {number(float(result.grad_mean[0]), 12)} (0 up to "
        "rounding), for every x, g and ε.",
        f"With ε = 0, x̂ · ∂L/∂x = {number(along, 12)}: the gradient is orthogonal to the output."
        if result.radial_removed
        else f"With ε = {eps_label(result.eps)}, x̂ · ∂L/∂x = {number(along, 6)}, the "
        f"formula's (g·x̂/σ)·ε/(q+ε) = {number(float(result.predicted_along[0]), 6)}: the "
        "part along x̂ is kept, shrunk by ε/(q+ε) = "
        f"{number(float(result.kept_fraction[0]), 6)}, not removed.",
    ]
