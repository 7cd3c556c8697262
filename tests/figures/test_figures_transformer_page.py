"""What the transformer page adds to its figures: the placement in bold, the circled depth."""

from __future__ import annotations

import numpy as np

from lnviz.lessons.transformer import analysis as tp
from lnviz.lessons.transformer import compare_placements
from lnviz.lessons.transformer import figures as figs


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


def test_log_ticks_are_short_1_2_5_steps_around_the_data() -> None:
    assert figs._log_ticks(2.06, 21.3) == [2.0, 5.0, 10.0, 20.0, 50.0]
    assert figs._log_ticks(0.3, 0.9) == [0.2, 0.5, 1.0]
    cmp = compare_placements(12, 8)
    fig = figs.DEPTH.figure(tp.last_block_sweep(cmp, (1, 2, 3, 6, 12)), 12)
    assert list(fig.layout.xaxis.tickvals) == [1, 2, 6, 12]
    grad = figs.GRADIENT.figure(cmp)
    ticks = list(grad.layout.yaxis.tickvals)
    assert ticks[0] <= float(cmp.scaled.grad_norm.min()) and ticks[-1] >= float(
        cmp.post.grad_norm.max()
    )


def test_attention_charts_draw_the_scans_and_the_keys() -> None:
    from lnviz.lessons.transformer import attention_scan, hidden_key_example, selectable_keys

    q, k = hidden_key_example()
    raw = attention_scan(q, k, (1.0, 10.0, 100.0))
    normed = attention_scan(q, k, (1.0, 10.0, 100.0), qk_norm="layer", tau=2.0)
    weights = figs.WEIGHTS.figure(raw, normed)
    k4 = next(t for t in weights.data if t.name == "k4, QK-norm")
    np.testing.assert_allclose(k4.y, normed.weights[:, 3], atol=1e-5)
    entropy = figs.ENTROPY.figure(raw, normed)
    np.testing.assert_allclose(entropy.data[0].y, raw.entropy, atol=1e-5)
    assert "QK-norm it stays between" in figs.ENTROPY.alt(raw, normed)
    before = selectable_keys(k[:, :2])
    assert figs.KEYS.alt(before).endswith("(hollow): k4.")
    assert figs.KEYS.alt(selectable_keys(k, layer_norm=True)).endswith("(hollow): none.")
    markers = figs.KEYS.figure(before).data[-1].marker.color
    assert markers[3] == "rgba(0,0,0,0)"
