"""Whole-number boxes: one box's specification, the pages' seed box, a row of boxes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from lnviz.app.controls import int_input
from lnviz.app.layout import side_by_side
from lnviz.app.state import control
from lnviz.lessons import spec

__all__ = ["SEED", "Whole", "int_row"]


@dataclass(frozen=True)
class Whole:
    """One whole-number box: label, range, default, URL key, help."""

    label: str
    lo: int
    hi: int
    default: int
    key: str
    help: str | None = None

    def draw(self) -> int:
        """The box, bound to the URL and validated (int_input); its value."""
        return int_input(self.label, self.lo, self.hi, self.default, key=self.key, help=self.help)


SEED = Whole("random seed", 0, 9999, 0, "seed")  # every page's random-number seed box


def int_row(*boxes: Whole | spec.Whole) -> list[int]:
    """Whole-number boxes side by side (a phone shows them two to a line: lnviz.app.layout)."""
    return side_by_side(*(b.draw if isinstance(b, Whole) else partial(control, b) for b in boxes))
