"""The sequences page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.lessons.sequences import FEATURES, MAX_BATCH, MAX_TOKENS, MAX_WINDOW, MIN_TOKENS
from lnviz.lessons.spec import SEED, Eps, Options, State, Toggle, Whole

WRT = {"x": "hidden tensor x", "returns": "market returns"}  # labels are the URL values

STATE = State(
    Whole("b", "series B", 4, lo=1, hi=MAX_BATCH, help="Examples in the batch."),
    Whole("t", "tokens T", 32, lo=MIN_TOKENS, hi=MAX_TOKENS, help="Days per series."),
    SEED,
    Whole("w", "window w", 5, lo=2, hi=MAX_WINDOW, help="Rolling-window length."),
    Toggle(
        "leak",
        "include the leaky feature (tomorrow's return)",
        True,
        help="r(t+1) as a feature: look-ahead bias (using at t what is known only later), "
        "as a shifted join makes.",
    ),
    Eps(default=1e-5, help="Added to every variance."),
    Options("wrt", "Inputs", "x", options=tuple(WRT)),
    # The scatter's feature: one of the market's (the page offers those it has).
    Options("sf", "Feature in the scatter", FEATURES[-1], options=FEATURES),
    # The shocked token: 1 … T − 1 (the page offers those of its T; default 3T/4).
    Options("at", "shocked token", 24, options=tuple(range(1, MAX_TOKENS))),
    Options("size", "shock (% log return)", 2.0, options=(0.5, 1.0, 2.0, 5.0, 10.0)),
    Whole("ser", "series", 0, lo=0, hi=MAX_BATCH - 1),  # the page narrows hi to B − 1
    Whole("ex", "example", 0, lo=0, hi=MAX_BATCH - 1),
    # Training batches seen by batch norm's running statistics.
    Options("steps", "training batches seen", 20, options=(0, 1, 5, 20, 100)),
    Options("feat", "feature", "return", options=FEATURES[:4]),
)

PRESETS = {
    "The leak survives": {"leak": True, "wrt": "returns", "b": 8, "t": 64},
    "Pooling leaks the future": {"leak": False, "wrt": "returns", "b": 8, "t": 64},
    "Causal statistics": {"leak": False, "wrt": "x", "b": 2, "t": 16},
    "Batch of one": {"b": 1, "wrt": "x", "ex": 0},
}
