"""The gain-and-bias page's charts at every value of its live control (lnviz.figures.live).

Frame k is what the lesson's figures module draws with the dragged coordinate at its k-th value,
for the parts that move. In each stage chart (keys stage-input, stage-core, stage-output):
the bars and their labels (trace 0), the dashed mean (trace 1), the shaded band of one
standard deviation (shapes[0]), the y range and the title with the mean and variance. In
the moments chart: the mean and variance bars with their labels and the y range. Dragging
γ or β moves only the output and the moments; dragging z moves all four charts.
tests/figures/test_live_gain.py checks each frame against the builders.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lnviz.content.closed_forms import exact
from lnviz.content.text import short
from lnviz.core import Stage
from lnviz.figures.live import Frames
from lnviz.lessons.gain_and_bias.figures import STEPS, stage_title
from lnviz.lessons.gain_and_bias.live import STAGE_NAMES, GainGrid

STAGE_KEYS = ("stage-input", "stage-core", "stage-output")  # the page's chart keys
UNDEFINED_RANGE = [-1.0, 1.0]  # a panel whose stage is 0/0 at that value


def gain_frames(grid: GainGrid) -> list[dict[str, Any]]:
    """Frames for the stage charts that the dragged coordinate moves, then the moments."""
    first = 0 if grid.field == "z" else 2  # γ and β move the output only
    frames = [_stage(grid, i).payload() for i in range(first, 3)]
    frames.append(_moments(grid).payload())
    return frames


def _stage(grid: GainGrid, index: int) -> Frames:
    values, mean, var = grid.stages[index], grid.mean[:, index], grid.var[:, index]
    n = values.shape[0]
    sd = np.sqrt(var)  # (V,)
    with np.errstate(invalid="ignore"):
        lo = np.minimum(np.minimum(values.min(axis=1), mean - sd), 0.0)
        hi = np.maximum(np.maximum(values.max(axis=1), mean + sd), 0.0)
    span = hi - lo
    pad = 0.18 * np.where(span > 0, span, 1.0)
    ranges = [
        [float(a - p), float(b + p)] if math.isfinite(a - p) else UNDEFINED_RANGE
        for a, b, p in zip(lo, hi, pad, strict=True)
    ]
    name = STAGE_NAMES[index]
    titles = [  # bold, as Streamlit's chart theme draws a figure's title (it adds <b>)
        "<b>" + STEPS[index] + stage_title(Stage(name, row, float(m), float(v))) + "</b>"
        for row, m, v in zip(values, mean, var, strict=True)
    ]
    return (
        Frames(STAGE_KEYS[index], n)
        .trace(0, "y", [_sig7(row) for row in values])
        .trace(0, "text", [[_label(v) for v in row] for row in values])
        .trace(1, "y", [[_num(m), _num(m)] for m in mean])
        .layout("shapes[0].y0", [_num(v) for v in mean - sd])
        .layout("shapes[0].y1", [_num(v) for v in mean + sd])
        .layout("yaxis.range", ranges)
        .layout("title.text", titles)
    )


def _moments(grid: GainGrid) -> Frames:
    n = grid.values.size
    means, variances = grid.mean[:, 1:], grid.var[:, 1:]  # (V, 2): core, output
    frames = Frames("moments", n)
    for trace, values in enumerate((means, variances)):
        frames.trace(trace, "y", [_sig7(row) for row in values])
        frames.trace(trace, "text", [[exact(v) or short(v) for v in row] for row in values])
    both = np.concatenate([means, variances], axis=1)  # (V, 4)
    ranges = []
    for row in both:
        finite = [float(v) for v in row if math.isfinite(v)]
        lo, hi = min([0.0, *finite]), max([1.0, *finite])
        ranges.append([lo - 0.15 * (hi - lo), hi + 0.2 * (hi - lo)])
    return frames.layout("yaxis.range", ranges)


def _num(v: float) -> float | None:
    """A number for the browser: JSON has no NaN, so a value that does not exist is null."""
    return float(v) if math.isfinite(v) else None


def _sig7(row: np.ndarray) -> list[float | None]:
    """A row of bar heights to 7 significant digits (as value_bars draws them: more would
    only lengthen the data), null where the value does not exist (Plotly leaves a gap)."""
    return [float(f"{v:.7g}") if math.isfinite(v) else None for v in row]


def _label(v: float) -> str:
    return short(float(v), 3) if math.isfinite(v) else ""
