"""The numerics lab's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.numerics import MAX_N
from lnviz.lessons.numerics.precision import PRECISIONS, SUMMATIONS
from lnviz.lessons.numerics.sweep import SAMPLES
from lnviz.lessons.spec import SEED, Eps, Options, State, Toggle, Vector, Whole

# The offset slider's values: 0 and 1-2-5 steps up to 1e8 (also what a link may write).
OFFSETS = (0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1e3, 2e3, 5e3)
OFFSETS += (*(m * 10.0**e for e in range(4, 8) for m in (1, 2, 5)), 1e8)

STATE = State(
    Options("off", "mean offset c (added to every value)", 2000.0, options=OFFSETS,
            help="The sample is x = c + base; the base has mean about 0."),
    Options("data", "base sample", "noise", options=SAMPLES,
            help="noise: n standard normal values. grid: 16 values spaced 10⁻³, from +0.007 "
            "down to −0.008."),
    Whole("n", "n (sample size)", 1000, lo=4, hi=MAX_N),
    SEED,
    Eps(default=1e-5, help="Defaults: 1e-5 PyTorch, 1e-6 Flax's LayerNorm (its BatchNorm: "
        "1e-5), 1e-3 Keras's LayerNormalization."),
    Options("sum", "summation order", SUMMATIONS[0], options=SUMMATIONS,
            help="sequential: a plain loop, left to right. pairwise: a balanced tree of sums."),
    Toggle("clamp", "clamp negative variances at 0 (as Flax does by default)", True),
    Options("prec", "precision", "float32", options=PRECISIONS),
    Vector("x", "x (input vector)", "1, 0, 0, 0", lo=-1e6, hi=1e6, min_len=2, max_len=16),
)  # fmt: skip

BFLOAT16_PRESET = "bfloat16"  # the preset the clamping notes point to
PRESETS = {
    "noise + 2000": {"data": "noise", "n": 1000, "seed": 0, "off": 2000.0, "prec": "float32"},
    "16 values around 1e4": {"data": "grid", "off": 1e4, "prec": "float32"},
    "(1, 0, 0, 0)": {"x": "1, 0, 0, 0", "eps": 1e-6},
    BFLOAT16_PRESET: {"data": "noise", "n": 1000, "seed": 0, "off": 10.0, "prec": "bfloat16"},
}
