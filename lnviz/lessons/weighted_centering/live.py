"""The lattice x can be dragged to: it covers the fixed view, as coarse as a drag allows."""

from __future__ import annotations

import math

import numpy as np

X_LIMIT = 100.0  # the page's x box accepts coordinates in [−100, 100]
CELLS = 10  # lattice steps from the origin to the edge of the view, at least


def lattice_step(half: float, cells: int = CELLS) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10ᵏ that is at least half / cells."""
    if not (math.isfinite(half) and half > 0):
        raise ValueError("half must be a number > 0")
    target = half / cells
    power = 10.0 ** math.floor(math.log10(target))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * power >= target * (1 - 1e-12):
            return m * power
    raise AssertionError("unreachable")  # pragma: no cover


def lattice_axis(half: float, cells: int = CELLS) -> np.ndarray:
    """Where x can be dragged: multiples of lattice_step(half) in [−half, half] and the x box."""
    step = lattice_step(half, cells)
    edge = min(half, X_LIMIT)
    k = np.arange(math.ceil(-edge / step - 1e-9), math.floor(edge / step + 1e-9) + 1)
    return np.round(k * step, 10) + 0.0  # (n,) exact decimals such as 4.25, no −0
