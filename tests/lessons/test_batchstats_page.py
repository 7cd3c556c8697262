"""The batch-statistics page's model (lnviz.lessons.batch_statistics.analysis)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lnviz.lessons.batch_statistics.analysis import (
    KERAS_EPS,
    TORCH_EPS,
    StreamSettings,
    batch_sizes,
    companion_summary,
    conventions,
    gaps,
    stream_runs,
)
from lnviz.lessons.batch_statistics.running import (
    keras_running,
    pytorch_running,
    sample_stream,
    variance_ratio,
)

DEFAULT = StreamSettings(200, 8, 3, 0, 100, 3.0, 2.0, 0.1, 0.99)
NO_SHIFT = dataclasses.replace(DEFAULT, at=200, shift=0.0, spread=1.0)
BATCH_OF_TWO = dataclasses.replace(NO_SHIFT, steps=300, batch=2, at=300, keras_momentum=0.9)


def test_stream_runs_are_both_frameworks_with_their_own_eps() -> None:
    r = stream_runs(DEFAULT)
    s = sample_stream(200, 8, 3, seed=0, shift_step=100, shift=3.0, spread=2.0)
    np.testing.assert_array_equal(r.stream.x, s.x)
    torch, keras = r.runs
    assert (torch.eps, keras.eps) == (TORCH_EPS, KERAS_EPS)
    np.testing.assert_array_equal(torch.running_var, pytorch_running(s.x).running_var)
    np.testing.assert_array_equal(keras.running_var, keras_running(s.x).running_var)
    assert stream_runs(dataclasses.replace(DEFAULT, batch=1)).runs is None


def test_conventions_label_their_steps_from_the_stream() -> None:
    """The table's 'steps lo–hi' come from the stream, not from a loop's last run."""
    r = stream_runs(DEFAULT)
    c = conventions(r.stream, r.runs, 1)
    for run in r.runs:
        assert (c.first, c.last) == variance_ratio(run, r.stream, 1)[2:]
    torch, keras = c.columns
    assert (torch.close, keras.close) == (22, 230)
    assert torch.limit == 1.0 and keras.limit == 7 / 8
    assert torch.took is not None and keras.took is None  # Keras has not caught up in time


def test_variance_ratios_show_the_biased_feed_only_beyond_their_noise() -> None:
    r = stream_runs(DEFAULT)
    c = conventions(r.stream, r.runs, 0)
    assert not c.columns[1].settled  # Keras at 0.99 after 100 steps
    assert not c.limits_differ
    r = stream_runs(BATCH_OF_TWO)
    c = conventions(r.stream, r.runs, 0)
    assert all(col.settled for col in c.columns) and c.limits_differ


def test_gaps_before_and_after_the_shift() -> None:
    r = stream_runs(DEFAULT)
    torch, keras = gaps(r.stream, r.runs)
    assert torch.shift_shows and keras.shift_shows
    assert torch.max_after > torch.max_before >= torch.median_before
    r = stream_runs(NO_SHIFT)
    assert all(g.max_after is None and not g.shift_shows for g in gaps(r.stream, r.runs))
    r = stream_runs(dataclasses.replace(DEFAULT, at=0))
    assert all(g.median_before is None and g.shift_shows for g in gaps(r.stream, r.runs))


def test_a_small_shift_stays_within_the_batch_noise() -> None:
    r = stream_runs(dataclasses.replace(DEFAULT, shift=0.5, spread=1.0))
    assert not any(g.shift_shows for g in gaps(r.stream, r.runs))


def test_batch_sizes_pair_table() -> None:
    z = batch_sizes(3, 0, 1e-5)
    assert z.pair.rows[:2] == ("input 1", "input 2") and len(z.pair.features) == 3
    for col in z.pair.features:
        assert col[2] == pytest.approx(-col[3]) and abs(abs(col[2]) - 1) < 1e-3
    assert z.pair.largest_off_one < 1e-3
    assert batch_sizes(3, 0, 10.0).pair.largest_off_one > 0.1  # ε pulls them toward 0


def test_companions_move_most_after_a_shift_only_if_there_is_one() -> None:
    r = stream_runs(DEFAULT)
    cs = companion_summary(r.stream, 5, TORCH_EPS)
    assert cs.most_after_shift and cs.bn_spread > 0.5 and cs.ln_spread < 1e-14
    r = stream_runs(NO_SHIFT)
    assert not companion_summary(r.stream, 5, TORCH_EPS).most_after_shift
