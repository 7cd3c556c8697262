"""The batch-statistics page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.batch_statistics.running import MAX_BATCH, MAX_FEATURES, MAX_STEPS
from lnviz.lessons.spec import SEED, Eps, Options, State, Whole

STATE = State(
    # The stream's length, the batch's shape (B, F) and the seed of its values.
    Whole("steps", "steps", 200, lo=10, hi=MAX_STEPS),
    Whole("b", "batch size B", 8, lo=1, hi=MAX_BATCH),
    Whole("f", "features F", 3, lo=2, hi=MAX_FEATURES),
    SEED,
    # The distribution shift: from which step (the page narrows hi to its steps), how far
    # the mean moves (−5 to 5 standard deviations) and the factor on the spread.
    Whole("at", "shift at step", 100, lo=0, hi=MAX_STEPS),
    Options(
        "shift",
        "mean shift (in standard deviations)",
        3.0,
        options=tuple(k / 2 for k in range(-10, 11)),
    ),
    Options(
        "spread",
        "spread factor after the shift",
        2.0,
        options=(0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0),
        help="Each feature's standard deviation is multiplied by this from the shift on.",
    ),
    Options(
        "mt",
        "PyTorch momentum (= w)",
        0.1,
        options=(0.0, 0.001, 0.01, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.9, 1.0),
    ),
    Options(
        "mk",
        "Keras momentum",
        0.99,
        options=(0.0, 0.1, 0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 0.995, 0.999, 1.0),
        help="The weight Keras keeps for the old average: 1 − w.",
    ),
    Whole("feat", "feature shown", 1, lo=1, hi=MAX_FEATURES),  # the page narrows hi to F
    Eps(default=1e-5, help="ε of this section's batch norm and layer norm."),
    Whole("sets", "batches (companion sets)", 5, lo=2, hi=8),
)

BASE = {"steps": 200, "b": 8, "f": 3, "seed": 0, "at": 100, "shift": 3.0, "spread": 2.0}
BASE |= {"mt": 0.1, "mk": 0.99, "feat": 1}
PRESETS = {
    "PyTorch vs Keras momentum": BASE | {"at": 200, "shift": 0.0, "spread": 1.0},
    "A distribution shift": BASE | {"b": 16, "at": 80},
    "Batch of two": BASE | {"b": 2, "steps": 300, "at": 300, "shift": 0.0, "mk": 0.9},
    "New batch companions": BASE | {"b": 4, "steps": 100, "at": 50, "sets": 6},
}
