"""Questions of the opening page (why normalize)."""

from __future__ import annotations

import numpy as np

import lnviz
from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import short
from lnviz.lessons.why_normalize import Drift, activation_drift, expected_factor

Z = (1.0, 3.0, 5.0, 3.0)  # mean 3, variance 2: the entry 5 normalizes to √2


def questions(
    depth: int = 32, gain: float = 2.0, activation: str = "relu", drift: Drift | None = None
) -> tuple[Question, ...]:
    """Compounding factor, layer norm at depth, one token; `drift` reuses the page's run if any."""
    factor = expected_factor(1.2, "linear") ** 10
    core = lnviz.normalized_core(np.array(Z), 0.0)
    if drift is None:
        drift = activation_drift(depth=depth, gain=gain, activation=activation)
    grows = drift.plain.spread[-1] > drift.plain.spread[0]
    return (
        number(
            "compound",
            "A linear layer with weight scale 1.2 multiplies the spread of its activations by "
            "about 1.2. By about how much is the spread multiplied after **10** such layers?",
            factor,
            link("why-normalize", "Show 10 linear layers at scale 1.2", depth="10",
                 gain="1.2", act="linear"),
            hint="The factors multiply: one factor of 1.2 per layer.",
            explanation=f"1.2¹⁰ ≈ {short(factor)}: a small excess per layer compounds.",
            rel_tol=0.05,
        ),
        choice(
            "depth",
            f"In the stack on this page ({depth} {activation} layers, weight scale "
            f"{gain:g}), what happens to the spread at the last layer **with layer norm "
            "after every layer**?",
            (
                "It " + ("grows" if grows else "shrinks") + " just as without normalization",
                "It stays close to 1",
                "It becomes exactly 0",
            ),
            1,
            link("why-normalize", "Show this stack", depth=str(depth), gain=f"{gain:g}",
                 act=activation),
            hint="Layer norm rescales each token by its own standard deviation.",
            explanation=(
                "Every token leaves a layer norm with mean 0 and variance q/(q+ε), which is "
                f"almost exactly 1; here the last layer's spread is "
                f"{short(drift.normalized.spread[-1])}."
            ),
        ),
        number(
            "token",
            "A token has the activations z = (1, 3, 5, 3): mean 3, variance 2. With ε = 0, "
            "what does layer norm make of the entry 5?",
            float(core[2]),
            link("gain-and-bias", "Open this token on the next page", z="1, 3, 5, 3",
                 gamma="1, 1, 1, 1", beta="0, 0, 0, 0"),
            hint="Subtract the mean, then divide by the square root of the variance.",
            explanation="(5 − 3)/√2 = √2 ≈ 1.4142.",
        ),
    )  # fmt: skip
