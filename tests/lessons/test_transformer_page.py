"""The transformer page's prepared numbers (lnviz.lessons.transformer.analysis)."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.errors import LnvizError
from lnviz.lessons.transformer import (
    PLACEMENTS,
    compare_placements,
    depth_sweep,
    layer_norm_backward,
    tanh_fit,
)
from lnviz.lessons.transformer import analysis as tp


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_last_block_sweep_equals_one_stack_per_depth(activation: str) -> None:
    cmp = compare_placements(24, 16, hidden=32, seed=4, activation=activation)
    sweep = tp.last_block_sweep(cmp, (1, 6, 24))
    direct = depth_sweep((1, 6, 24), 16, hidden=32, seed=4, activation=activation)
    for p in PLACEMENTS:
        np.testing.assert_allclose(sweep.last[p], direct.last[p], rtol=1e-12)
        np.testing.assert_allclose(sweep.output_stream_norm[p], direct.output_stream_norm[p])


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_sweep_read_on_the_way_back_equals_the_separate_one(
    activation: str, precision: str
) -> None:
    depths = (1, 2, 6, 11, 12)
    args = {"hidden": 48, "seed": 7, "activation": activation, "precision": precision}
    along = compare_placements(12, 16, sweep_depths=depths, **args)
    alone = compare_placements(12, 16, **args)
    assert along.pre.sweep_depths == depths and alone.pre.sweep_depths == ()
    read = tp.last_block_sweep(along, (12, 2, 6))  # any order, any subset
    separate = tp.last_block_sweep(alone, (12, 2, 6))
    direct = depth_sweep((12, 2, 6), 16, **args)
    rtol = 1e-12 if precision == "float64" else 1e-6
    for p in PLACEMENTS:
        np.testing.assert_allclose(read.last[p], separate.last[p], rtol=rtol)
        np.testing.assert_allclose(read.last[p], direct.last[p], rtol=max(rtol, 1e-12))
        np.testing.assert_array_equal(read.output_stream_norm[p], separate.output_stream_norm[p])
        np.testing.assert_array_equal(along.run(p).grad_norm, alone.run(p).grad_norm)


@pytest.mark.parametrize("bad", [(0,), (13,), (1.5,), "12", tuple(range(1, 13)) + (1,) * 5])
def test_sweep_depths_outside_the_stack_are_refused(bad: object) -> None:
    with pytest.raises(LnvizError, match="sweep_depths"):
        compare_placements(12, 8, sweep_depths=bad)  # type: ignore[arg-type]


def test_float32_sweep_agrees_with_float64() -> None:
    cmp32 = compare_placements(12, 32, hidden=64, precision="float32")
    single = tp.last_block_sweep(cmp32, tp.SWEEP_DEPTHS[:7])
    double = tp.last_block_sweep(compare_placements(12, 32, hidden=64), tp.SWEEP_DEPTHS[:7])
    for p in PLACEMENTS:
        np.testing.assert_allclose(single.last[p], double.last[p], rtol=1e-4)


def test_sweep_depths_beyond_the_stack_are_refused() -> None:
    cmp = compare_placements(6, 8)
    with pytest.raises(LnvizError, match="depths"):
        tp.last_block_sweep(cmp, (4, 12))
    with pytest.raises(LnvizError, match="depths"):
        tp.last_block_sweep(cmp, ())


def test_placement_facts_read_the_runs() -> None:
    cmp = compare_placements(48, 32, hidden=64, precision="float32")
    facts = tp.placement_facts(cmp, tp.last_block_sweep(cmp))
    assert facts.last["post"] == pytest.approx(float(cmp.post.grad_norm[-1]))
    assert facts.post_over_pre == pytest.approx(facts.last["post"] / facts.last["pre"])
    assert facts.sweep_depths == (1, 48)
    # Xiong et al.'s Theorem 1 at the page's sizes: Post-LN's last block does not shrink with
    # depth, Pre-LN's does, like 1 / |x_L|.
    assert facts.post_flat_in_depth and facts.pre_falls and facts.post_over_pre > 2
    assert facts.pre_times_stream_spread < 1.25
    assert facts.pre_first_over_last == pytest.approx(facts.pre_stream_ratio, rel=0.25)


def test_backward_rows_are_one_token_of_the_result() -> None:
    res = layer_norm_backward([[1.0, 2.0, 3.0], [0.0, 4.0, 1.0]], [[2.0, 0.0, 1.0]] * 2, eps=0.1)
    rows = tp.backward_rows(res, token=1)
    assert rows.coordinate == (1, 2, 3)
    np.testing.assert_allclose(rows.grad_x, res.grad_x[1])
    np.testing.assert_allclose(rows.centred_g, np.array([1.0, -1.0, 0.0]))
    with pytest.raises(LnvizError, match="token"):
        tp.backward_rows(res, token=2)


def test_read_only_arrays_cannot_be_changed() -> None:
    cmp = tp.read_only(compare_placements(2, 8))
    with pytest.raises(ValueError):
        cmp.post.grad_w1_norm[0] = 1.0


def test_slope_range_and_match_length() -> None:
    fit = tanh_fit(tokens=32, width=8, seed=1)
    lo, hi = tp.slope_range(fit)
    assert lo == pytest.approx(float((1 / fit.token_sigma).min()))
    assert hi == pytest.approx(float((1 / fit.token_sigma).max()))
    assert tp.match_length(np.array([1.0, 2.0]), 3).tolist() == [1.0, 2.0, 0.0]
