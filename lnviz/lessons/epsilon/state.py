"""The ε page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Eps, Options, State, Vector

STATE = State(
    Eps(
        help="Log scale from 10⁻⁶ to 10. With z = (1, 2, 3), ε = 1/3 and 4/3 give cores "
        "with closed forms."
    ),
    Vector("z", "z (input vector)", "1, 2, 3", lo=-1000, hi=1000, min_len=2),
    Options(
        "a",
        "a (scale factor)",
        10.0,
        options=(0.01, 0.03, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 30.0, 100.0),
    ),
)

CONSTANT_PRESET = "Constant input"  # the preset with a constant z (the notes point to it)
PRESETS = {
    "ε = 1/3, z = (1, 2, 3)": {"eps": 1 / 3, "z": "1, 2, 3"},
    "ε = 4/3, z = (1, 2, 3)": {"eps": 4 / 3, "z": "1, 2, 3"},
    "Tiny ε = 1e-6": {"eps": 1e-6},
    CONSTANT_PRESET: {"z": "2, 2, 2", "eps": 0.01},
}
