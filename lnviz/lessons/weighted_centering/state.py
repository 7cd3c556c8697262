"""The weighted-centering page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Number, Options, State, Vector

A3_DEFAULT = "1, 2, 5"  # n = 3 start: a = (1, 2, 5)/8

STATE = State(
    Number(
        "w",
        "w (weight of the first coordinate)",
        0.25,
        lo=0.0,
        hi=1.0,
        step=0.01,
        help="a = (w, 1 − w). The worked example uses w = 0.25; w = 0.5 is ordinary centering.",
    ),
    Vector("x", "x (a point in the plane)", "4, 2", lo=-100, hi=100, min_len=2, max_len=2),
    Vector("a3", "a (three weights ≥ 0)", A3_DEFAULT, lo=0, hi=1000, min_len=3, max_len=3),
    Vector("x3", "x (a point in space)", "3, 1, 2", lo=-100, hi=100, min_len=3, max_len=3),
    Options(
        "m",
        "Use the weights of the picture with n =",
        "2",
        options=("2", "3"),
        help="2: a = (w, 1 − w) from the plane picture; 3: the weights typed above.",
    ),
)

PRESETS = {
    "Worked example: a = (¼, ¾), x = (4, 2)": {"w": 0.25, "x": "4, 2", "m": "2"},
    "Equal weights: the usual centering": {"w": 0.5, "a3": "1, 1, 1"},
    "A zero weight: degenerate D": {"w": 0.0, "a3": "0, 1, 1"},
}
