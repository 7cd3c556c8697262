"""The batch-statistics page's stream charts at every shift step of their live control.

Frame k is what the lesson's figures module draws with the shift at step at_k for the parts
that move: on the running mean and variance charts (stat_figure) the batch values, the true
value and both running averages; on the gap chart (gap_figure) both gaps; on all three the
dotted "shift" rule (none when at_k is the last step + 1: no shift).
"""

from __future__ import annotations

from typing import Any

from lnviz.figures._palette import PURPLE
from lnviz.figures.live import Frames
from lnviz.lessons.batch_statistics.live import ShiftStepGrid


def _rule(grid: ShiftStepGrid, steps: int) -> tuple[list[list[dict]], list[list[dict]]]:
    """The shift rule's shapes and annotations at each grid value, as _style.vline draws it."""
    shapes, notes = [], []
    for k in (int(v) for v in grid.at):
        x = k - 0.5
        shapes.append(
            []
            if k >= steps
            else [
                {
                    "type": "line", "xref": "x", "yref": "y domain", "x0": x, "x1": x,
                    "y0": 0, "y1": 1, "line": {"dash": "dot", "color": PURPLE, "width": 1.5},
                }
            ]
        )  # fmt: skip
        notes.append(
            []
            if k >= steps
            else [
                {
                    "text": "shift", "showarrow": False, "xref": "x", "yref": "y domain",
                    "x": x, "y": 1, "xanchor": "right", "yanchor": "top",
                }
            ]
        )  # fmt: skip
    return shapes, notes


def shift_step_frames(grid: ShiftStepGrid) -> list[dict[str, Any]]:
    """Frames for the charts drawn with keys "run-mean", "run-var" and "gap"."""
    n, steps = grid.batch_mean.shape
    shapes, notes = _rule(grid, steps)
    charts = []
    for which, batch, true, run in (
        ("mean", grid.batch_mean, grid.true_mean, grid.running_mean),
        ("var", grid.batch_var, grid.true_var, grid.running_var),
    ):
        f = Frames(f"run-{which}", n).trace(0, "y", list(batch)).trace(1, "y", list(true))
        for c in range(run.shape[0]):  # PyTorch, then Keras
            f.trace(2 + c, "y", list(run[c]))
        charts.append(f.layout("shapes", shapes).layout("annotations", notes).payload())
    gap = Frames("gap", n)
    for c in range(grid.gap.shape[0]):
        gap.trace(c, "y", list(grid.gap[c]))
    charts.append(gap.layout("shapes", shapes).layout("annotations", notes).payload())
    return charts
