"""What the transformer page adds to its figures: the placement in bold, the circled depth."""

from __future__ import annotations

import numpy as np

from lnviz.figures import transformer as figs
from lnviz.lessons import transformer_page as tp
from lnviz.lessons.transformer import compare_placements


def test_the_focus_placement_is_drawn_thicker_and_named_in_the_alt() -> None:
    cmp = compare_placements(6, 8)
    fig = figs.GRADIENT.figure(cmp, "post")
    widths = {t.name: t.line.width for t in fig.data}
    assert widths["Post-LN"] > widths["Pre-LN"]
    assert figs.GRADIENT.alt(cmp, "post").endswith("Post-LN is drawn in bold.")
    assert figs.STREAM.alt(cmp, None).endswith(".") and "bold" not in figs.STREAM.alt(cmp)


def test_the_depth_of_the_stack_above_is_circled() -> None:
    cmp = compare_placements(12, 8)
    sweep = tp.last_block_sweep(cmp, (1, 6, 12))
    fig = figs.DEPTH.figure(sweep, 6)
    circled = fig.data[-1]
    assert list(circled.x) == [6, 6, 6]
    np.testing.assert_allclose(circled.y, [sweep.last[p][1] for p in ("pre", "post", "scaled")])
    assert "Circled: L = 6" in figs.DEPTH.alt(sweep, 6)
    assert len(figs.DEPTH.figure(sweep, 7).data) == 3  # a depth not in the sweep: no circle
