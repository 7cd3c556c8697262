"""The weighted-centering page's one-value computation (lnviz.weighted): the reference that
the live control's precomputed rows (tests/lessons) and frames (tests/figures) must equal."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from lnviz.weighted import WeightedCentering, two_weights, weighted_centering

W = np.arange(101) / 100  # the live control's weights w: 0, 0.01, ..., 1


def at_weight(w: float, x: ArrayLike) -> WeightedCentering:
    """What the page computes for the point x with the weights (w, 1 − w).

    >>> at_weight(0.5, (4.0, 2.0)).c
    3.0
    """
    return weighted_centering(two_weights(float(w)), x)
