"""A row of whole-number boxes (lnviz.lessons.spec.Whole keys) side by side."""

from __future__ import annotations

from functools import partial

from lnviz.app.layout import side_by_side
from lnviz.app.state import control
from lnviz.lessons import spec


def int_row(*boxes: spec.Whole) -> list[int]:
    """Whole-number boxes side by side (a phone shows them two to a line: lnviz.app.layout)."""
    return side_by_side(*(partial(control, box) for box in boxes))
