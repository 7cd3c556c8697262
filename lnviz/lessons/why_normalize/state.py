"""The why-normalize page's URL keys (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Options, State
from lnviz.lessons.why_normalize import ACTIVATIONS

STATE = State(
    Options(
        "gain",
        "weight scale g",
        2.0,
        options=(0.5, 0.8, 1.0, 1.2, 1.414, 1.6, 2.0),  # W ~ N(0, g²/d)
        help="Weights are drawn with standard deviation g/√d. g = √2 ≈ 1.414 is the scale "
        "that keeps ReLU layers steady (He et al. 2015).",
    ),
    Options("depth", "layers", 32, options=(4, 8, 10, 16, 32, 64)),
    Options("act", "activation", "relu", options=ACTIVATIONS),
)
