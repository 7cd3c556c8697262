"""The invariance page's scaling chart at every scale factor of its live control.

Frame k is what lnviz.figures.invariance.scale_figure draws at a = a_k for the parts that
move: the bars of u_ε(a·z) with their name, the crosses at u_(ε/a²)(z) and the title with
the largest change (tests/figures/test_live_invariance.py checks them against the builder).
"""

from __future__ import annotations

from typing import Any

from lnviz.content.text import short
from lnviz.figures.live import Frames
from lnviz.lessons.live_invariance import ScaleGrid

__all__ = ["scale_frames"]


def scale_frames(grid: ScaleGrid, key: str = "scale") -> dict[str, Any]:
    """Frames for the chart drawn with Streamlit key `key`."""
    a = [float(v) for v in grid.a]
    frames = (
        Frames(key, len(a))
        .trace(1, "y", list(grid.core_az))
        .trace(1, "name", [f"u_ε(a·z), a = {short(v)}" for v in a])
        .trace(2, "y", list(grid.rescaled))
        .layout(
            "title.text",
            [
                f"Scaling by a = {short(v)}: largest change {short(float(c), 3)}"
                for v, c in zip(a, grid.change, strict=True)
            ],
        )
    )
    return frames.payload()
