"""The live control's shift steps, strided so that frames × steps stays within a cap."""

from __future__ import annotations

MAX_POINTS = 10_000  # frames x steps: the frames of a 200-step stream stay near 0.5 MB
STRIDES = (1, 2, 5, 10, 20, 25, 50, 100)


def shift_steps(steps: int, at: int, max_points: int = MAX_POINTS) -> tuple[int, ...]:
    """0..steps in the finest STRIDES stride keeping frames × steps <= max_points, plus `at`."""
    if steps < 1 or not 0 <= at <= steps:
        raise ValueError("need steps >= 1 and 0 <= at <= steps")
    fits = [k for k in STRIDES if (steps // k + 1) * steps <= max_points]
    stride = fits[0] if fits else max(1, steps // 2)
    grid = set(range(0, steps + 1, stride)) | {steps, at}
    return tuple(sorted(grid))
