"""The shift steps the batch-statistics page's live control moves over.

Each step's frames redraw the stream's charts, so the number of frames times the number of
steps is capped: a long stream gets a coarser stride.
"""

from __future__ import annotations

MAX_POINTS = 10_000  # frames x steps: the frames of a 200-step stream stay near 0.5 MB
STRIDES = (1, 2, 5, 10, 20, 25, 50, 100)


def shift_steps(steps: int, at: int, max_points: int = MAX_POINTS) -> tuple[int, ...]:
    """The live control's shift steps: 0 to `steps` (no shift) in the finest stride of
    STRIDES that keeps (number of frames) × steps within `max_points`; `steps` itself and
    the page's step `at` are always in.

    >>> shift_steps(200, 100)[:3], len(shift_steps(200, 100)), shift_steps(300, 77)[7:10]
    ((0, 5, 10), 41, (70, 77, 80))
    """
    if steps < 1 or not 0 <= at <= steps:
        raise ValueError("need steps >= 1 and 0 <= at <= steps")
    fits = [k for k in STRIDES if (steps // k + 1) * steps <= max_points]
    stride = fits[0] if fits else max(1, steps // 2)
    grid = set(range(0, steps + 1, stride)) | {steps, at}
    return tuple(sorted(grid))
