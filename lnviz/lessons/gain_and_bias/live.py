"""The values one coordinate of z, γ or β takes under the gain-and-bias page's live control."""

from __future__ import annotations

import numpy as np


def drag_values(
    value: float, lo: float, hi: float, half: float = 5.0, step: float = 0.1
) -> np.ndarray:
    """−half…half by `step` (around round(value) if |value| > half, inside [lo, hi]) and `value`."""
    v = float(value)
    if not (np.isfinite(v) and lo <= v <= hi and lo < hi and 0 < step <= half):
        raise ValueError("need lo <= value <= hi (finite), lo < hi and 0 < step <= half")
    centre = 0.0 if abs(v) <= half else float(round(v))
    if hi - lo >= 2 * half:  # the whole window inside the bounds
        centre = min(max(centre, lo + half), hi - half)
    n = round(half / step)
    grid = np.round(centre + step * np.arange(-n, n + 1), 10)  # (2n+1,)
    grid = grid[(grid >= lo) & (grid <= hi)]
    if not np.any(np.abs(grid - v) <= 1e-9 * max(1.0, abs(v))):
        grid = np.sort(np.append(grid, v))
    return grid
