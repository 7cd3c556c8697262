"""Questions of the batch-statistics page: momentum, the biased running variance, two examples."""

from __future__ import annotations

import numpy as np

from lnviz.content.questions import Question, choice, link, number, twice_or_half
from lnviz.content.text import number as num
from lnviz.content.text import short, with_exact
from lnviz.lessons.batch_statistics.analysis import KERAS_EPS, TORCH_EPS, batch_sizes
from lnviz.lessons.batch_statistics.running import (
    MAX_BATCH,
    keras_running,
    sample_stream,
    variance_ratio,
)


def questions(
    batch: int = 8, keras_momentum: float = 0.99, features: int = 3, seed: int = 0
) -> tuple[Question, ...]:
    """Questions off the page's own state (its table works out its momentum and batch size)."""
    other = 0.95 if keras_momentum != 0.95 else 0.99  # both are options of the page's control
    return (
        _weight(other),
        _limit(twice_or_half(max(batch, 2), MAX_BATCH), keras_momentum),
        _pair(features, seed),
    )


def _weight(momentum: float) -> Question:
    """w = 1 − momentum, as Keras's running average applies it."""
    run = keras_running(sample_stream(1, 2, 1, seed=0).x, momentum, KERAS_EPS)
    m = f"{momentum:g}"
    return number(
        "weight",
        f"Set Keras's momentum to {m}. In r ← (1 − w)·r + w·b, what weight w does each new "
        "batch b get?",
        run.weight_new,
        link("batch-statistics", f"Show Keras's momentum {m}", mk=m),
        hint="Keras's momentum is the weight of the old average, not of the new batch.",
        explanation=f"w = 1 − {m} = {with_exact(run.weight_new)}. PyTorch's momentum is w "
        "itself: the same word, opposite meanings.",
    )


def _limit(batch: int, momentum: float) -> Question:
    """Where the biased feed's running variance settles: (B − 1)/B of the true one."""
    stream = sample_stream(4, batch, 1, seed=0)
    limit = variance_ratio(keras_running(stream.x, momentum, KERAS_EPS), stream)[1]
    return number(
        "limit",
        f"Keras feeds its running variance the biased batch variance (divide by B). With "
        f"B = {batch}, at what fraction of the true variance does it settle?",
        limit,
        link("batch-statistics", f"Show batches of {batch}", b=str(batch)),
        hint="On average, the biased variance of B values falls short of the true variance "
        "by one part in B.",
        explanation=f"(B − 1)/B = {with_exact(limit)}. PyTorch feeds the unbiased variance "
        "(divide by B − 1) and settles at 1.",
    )


def _pair(features: int, seed: int) -> Question:
    """Batch norm on two examples: each feature becomes ±1, up to ε."""
    z = batch_sizes(features, seed, TORCH_EPS)
    off = z.pair.largest_off_one
    pair, population = z.sizes.pair, z.sizes.population  # (2, F), (F,) or None
    far = (  # how far the batch-norm outputs lie from what each option says
        off,
        float(np.abs(pair[0] - population).max()) if population is not None else np.inf,
        float(np.abs(pair).max()),
    )
    right = int(np.argmin(far))
    return choice(
        "pair",
        "Batch norm in training mode gets a batch of just **two** examples. What does it "
        "output for each feature?",
        (
            "about ±1, unless the two inputs are (nearly) equal",
            "each input's distance from the true mean, in true standard deviations",
            "0 for both examples",
        ),
        right,
        link("batch-statistics", "Show a batch of two", f=str(features), seed=str(seed)),
        hint="Two values sit at μ − d and μ + d. What is their variance?",
        explanation=f"The variance of the pair is d², so each value becomes ±d/√(d² + ε): "
        f"with ε = {num(TORCH_EPS)} at most {short(off, 2)} off ±1 here. Only when the two "
        "inputs are nearly equal (d not large next to √ε) does the output fall toward 0, and "
        "two equal inputs give exactly 0. The outputs only say which example is larger.",
    )
