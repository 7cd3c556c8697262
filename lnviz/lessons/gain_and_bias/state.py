"""The gain-and-bias page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.spec import Eps, Options, State, Vector

Z, GAMMA, BETA = "1, 2, 3", "1, 2, 1", "0, 1, 0"  # the worked example

# A coordinate of z, γ or β to drag: z1…z8, then γ and β (the page offers those of its z).
COORDINATES = tuple(f"{field}{i}" for field in ("z", "gamma", "beta") for i in range(1, 9))

STATE = State(
    Vector("z", "z (input vector)", Z, lo=-1000, hi=1000, min_len=2),
    Vector("gamma", "γ (gain)", GAMMA, lo=-100, hi=100),
    Vector("beta", "β (bias)", BETA, lo=-100, hi=100),
    Eps(
        default=0.0,
        allow_zero=True,
        help="0 or a log scale from 10⁻⁶ to 10. The worked example uses ε = 0 so its numbers "
        "have closed forms; real implementations use ε > 0 (PyTorch's layer norm: 10⁻⁵ by "
        "default).",
    ),
    Options(
        "drag",
        "Coordinate to drag",
        "gamma1",  # γ₂ would multiply u₂ = 0: no move
        options=COORDINATES,
        help="Choose one entry of z, γ or β, then drag it. Releasing writes the value "
        "into its text box above.",
    ),
)

PLAIN_PRESET = "No affine (γ = 1, β = 0)"  # preset names the notes point to
WORKED_EPS_PRESET = "Worked example, ε = 1/3"
PRESETS = {
    "Worked example (ε = 0)": {"z": Z, "gamma": GAMMA, "beta": BETA, "eps": 0.0},
    WORKED_EPS_PRESET: {"z": Z, "gamma": GAMMA, "beta": BETA, "eps": 1 / 3},
    PLAIN_PRESET: {"z": Z, "gamma": "1, 1, 1", "beta": "0, 0, 0", "eps": 0.0},
    "Constant input, ε = 0.01": {"z": "2, 2, 2", "gamma": GAMMA, "beta": BETA, "eps": 0.01},
    "Constant input, ε = 0": {"z": "2, 2, 2", "gamma": GAMMA, "beta": BETA, "eps": 0.0},
}
