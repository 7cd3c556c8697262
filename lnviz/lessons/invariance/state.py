"""The invariance page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Eps, Options, State, Vector, Whole

S_DEFAULT = "0, 0, 1"  # with z = (1, 2, 3) this gives the worked example's (1, 2, 4)
S_SPLIT = "5, 5, 6"  # = 5 + (0, 0, 1): the same core as S_DEFAULT, its common part removed
LAYER_INPUTS = 3  # entries of the layer's input x (lnviz.lessons.symmetry.seeded_layer)

STATE = State(
    Vector("z", "z (input vector)", "1, 2, 3", lo=-1000, hi=1000, min_len=2),
    Eps(
        allow_zero=True,
        help="0 or a log scale from 10⁻⁶ to 10; the shift examples use ε = 1/3.",
    ),
    Options(
        "c",
        "c (added to every coordinate)",
        100.0,
        options=(-1000.0, -100.0, -10.0, -1.0, -0.5, 0.0, 0.5, 1.0, 10.0, 100.0, 1000.0),
    ),
    Vector("s", "s (shift, one entry per coordinate of z)", S_DEFAULT, lo=-1000, hi=1000),
    Options("a", "a (scale factor)", 10.0, options=(0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0)),
    Whole("seed", "layer seed (draws W, b and five inputs x)", 0, lo=0, hi=999),
    Options(
        "cb",
        "c (added to every entry of b)",
        5.0,
        options=(-10.0, -1.0, 0.0, 1.0, 5.0, 10.0, 100.0),
    ),
    *(
        Vector(name, label, default, lo=-100, hi=100, min_len=LAYER_INPUTS, max_len=LAYER_INPUTS)
        for name, label, default in (
            ("r", "r (added to each row of W)", "1, -2, 0.5"),
            ("dx", "Δx (shift of the raw input x)", "1, 0, 0"),
        )
    ),
)

EXACT_SCALING_PRESET = "Scaling at ε = 0 (exact)"  # a preset the notes point to
PRESETS = {
    "Worked example: (1, 2, 3), ε = 1/3": {
        "z": "1, 2, 3",
        "c": 100.0,
        "s": S_DEFAULT,
        "eps": 1 / 3,
    },
    "Shift by (5, 5, 6)": {"z": "1, 2, 3", "s": S_SPLIT, "eps": 1 / 3},
    EXACT_SCALING_PRESET: {"z": "1, 2, 3", "a": 10.0, "eps": 0.0},
    "Scaling at ε = 1 (broken)": {"z": "1, 2, 3", "a": 10.0, "eps": 1.0},
}
