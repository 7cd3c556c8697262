"""The framework-parity page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.frameworks import DEFAULT_BACKEND, KERAS_BACKENDS
from lnviz.lessons.spec import SEED, Options, State, Toggle, Whole

SCHEME_LABELS = {
    "layer": "layer",
    "rms": "RMS",
    "group": "group",
    "instance": "instance",
    "batch": "batch",
}  # also the URL values
LAYOUT_LABELS = {"btf": "BTF", "nchw": "NCHW", "nhwc": "NHWC"}  # also the URL values
LOCS = (0.0, 1.0, 10.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0)  # mean of the input
SPREADS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # its standard deviation
# batch norm training steps, as numbers on a slider (its link reads "10", not "10.0")
STEPS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)
PAIR_KEYS = {"keras-pytorch": 0, "flax-pytorch": 1, "keras-flax": 2}  # fd.PAIRS, by index
MAX_C = 32  # features F / channels C

STATE = State(
    Options("scheme", "Scheme", "layer", options=tuple(SCHEME_LABELS)),
    Options("layout", "Layout", "btf", options=tuple(LAYOUT_LABELS)),
    Whole("n", "batch N", 2, lo=1, hi=4),
    Whole("h", "tokens T / height H", 4, lo=1, hi=16),
    Whole("w", "width W", 3, lo=1, hi=6, help="Used by the image layouts only."),
    Whole("c", "features F / channels C", 8, lo=1, hi=MAX_C),
    Options("loc", "input mean", 0.0, options=LOCS),
    Options("sd", "input spread (sd)", 1.0, options=SPREADS),
    # the divisors of C (the page offers those of its C), 2 where C is even
    Options("g", "groups G (group norm)", 2, options=tuple(range(1, MAX_C + 1))),
    SEED,
    Options("backend", "Keras backend", DEFAULT_BACKEND, options=KERAS_BACKENDS,
            help="Keras's numbers depend on its backend: JAX and TensorFlow compute a two-pass "
            "variance, torch and NumPy E[x²] − E[x]²; on torch, layer norm is PyTorch's own "
            "kernel. TensorFlow was read in the source, not run."),
    Toggle("match", "Write Keras and Flax with PyTorch's ε",
           help="The port's fix: explicit epsilon (and momentum), and for Flax the two-pass "
           "variance. On the NumPy and torch backends Keras's E[x²] − E[x]² has no switch; on "
           "JAX and TensorFlow Keras is two-pass already."),
    Options("pair", "Difference shown", "keras-pytorch", options=tuple(PAIR_KEYS)),
    Options("steps", "training steps", 10.0, options=STEPS),
    Whole("ch", "channel shown", 0, lo=0, hi=MAX_C - 1),  # the page's C - 1 at most
)  # fmt: skip

EPS_PRESET = "ε matters (small variance)"  # preset names the notes and questions point to
MOMENTUM_PRESET = "Batch norm momentum"
PRESETS = {
    EPS_PRESET: {"scheme": "layer", "layout": "btf", "loc": 0.0, "sd": 0.03, "match": False},
    "Large mean in float32": {"scheme": "layer", "layout": "btf", "loc": 1000.0, "sd": 1.0,
                        "match": False, "backend": "numpy"},
    "Channels-last group norm": {"scheme": "group", "layout": "nhwc", "n": 2, "h": 4, "w": 4,
                                 "c": 8, "g": 2, "loc": 0.0, "sd": 0.1},
    MOMENTUM_PRESET: {"scheme": "batch", "layout": "btf", "n": 2, "h": 4, "c": 8,
                      "loc": 1.0, "sd": 1.0, "steps": 10},
}  # fmt: skip
