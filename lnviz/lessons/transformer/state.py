"""The transformer page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from dataclasses import replace

from lnviz.lessons.spec import SEED, Eps, Options, State, Vector
from lnviz.lessons.transformer import PLACEMENTS
from lnviz.lessons.transformer.analysis import DEPTHS, WIDTHS

X_DEFAULT, G_DEFAULT = "1, 2, 3", "2, 0, 1"  # the backward pass's token and gradient

STATE = State(
    Options("depth", "depth L (blocks)", 12, options=DEPTHS),
    Options(
        "width",
        "width d (features per token)",
        64,
        options=WIDTHS,
        help="Each block's MLP maps d → 2d → d.",
    ),
    replace(SEED, help="Draws the weights, tokens and loss."),
    Options(
        "placement",
        "placement (drawn in bold)",
        PLACEMENTS[0],
        options=PLACEMENTS,
        help="pre: Pre-LN. post: Post-LN. scaled: Pre-LN with block l's normalized input "
        "divided by √l. The link keeps these short names.",
    ),
    Options("d", "d (features)", 3, options=(3, 8, 64)),  # the sphere's dimension
    Eps(
        default=1e-5,
        allow_zero=True,
        help="1e-5 is PyTorch's default. Raise it and watch tokens of small variance "
        "fall inside the sphere.",
    ),
    Vector("gamma", "γ (gain)", "2, 1, 0.5", lo=-10, hi=10, min_len=3, max_len=3),  # d = 3 only
    Options(
        "qk",
        "QK-norm (normalizing q and k)",
        "layer",
        options=("layer", "rms"),
        help="layer: layer norm (centre, then scale). rms: RMS norm (scale only).",
    ),
    Options("tau", "τ (learned logit scale)", 2.0, options=(0.5, 1.0, 2.0, 4.0, 8.0, 16.0)),
    Options(
        "outliers",
        "share of tokens with an outlier",
        0.1,
        options=(0.0, 0.02, 0.05, 0.1, 0.2, 0.5),
    ),
    Vector("x", "x (token)", X_DEFAULT, lo=-1000, hi=1000, min_len=2),
    Vector(
        "g",
        "g (gradient arriving at the output)",
        G_DEFAULT,
        lo=-1000,
        hi=1000,
        min_len=2,
        help="As many numbers as x; the gain is 1.",
    ),
    Eps("beps", "ε (added to the variance, here)", default=1 / 3, allow_zero=True),
)

PRESETS = {
    "Deep stack: L = 48": {"depth": 48, "placement": "post"},
    "Shallow stack: L = 6": {"depth": 6, "placement": "pre"},
    "ε = 0: exactly on the sphere": {"eps": 0.0, "beps": 0.0},
}
