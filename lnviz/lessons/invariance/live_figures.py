"""The invariance page's common-shift and scaling charts at every value of their live controls.

Frame k of `shift_frames` is what lnviz.lessons.invariance.figures.pair_figure draws for the common
shift c = c_k: the bars of u_ε(z + c) with their text, and the title with the largest change
(the bars stay put: that is the lesson; rounding can show in the title at large |c|).

Frame k is what lnviz.lessons.invariance.figures.scale_figure draws at a = a_k for the parts that
move: the bars of u_ε(a·z) with their name, the crosses at u_(ε/a²)(z) and the title with
the largest change (tests/figures/test_live_invariance.py checks them against the builder).
"""

from __future__ import annotations

from typing import Any

from lnviz.content.text import short
from lnviz.figures._style import r
from lnviz.figures.live import Frames
from lnviz.lessons.invariance.live import ScaleGrid, ShiftGrid


def shift_frames(grid: ShiftGrid, key: str = "shift") -> dict[str, Any]:
    """Frames for the layer-norm pair chart of the common shift, drawn with key `key`."""
    rows = list(grid.ln_moved)
    frames = (
        Frames(key, len(rows))
        .trace(1, "y", [r(row, 7) for row in rows])
        .trace(1, "text", [[short(float(v), 4) for v in row] for row in rows])
        .layout(
            "title.text",
            [
                # in bold, as Streamlit's chart theme draws every title
                f"<b>layer norm before and after z + c: largest change {short(float(c), 3)}</b>"
                for c in grid.ln_change
            ],
        )
    )
    return frames.payload()


def scale_frames(grid: ScaleGrid, key: str = "scale") -> dict[str, Any]:
    """Frames for the chart drawn with Streamlit key `key`."""
    a = [float(v) for v in grid.a]
    frames = (
        Frames(key, len(a))
        .trace(1, "y", list(grid.core_az))
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
