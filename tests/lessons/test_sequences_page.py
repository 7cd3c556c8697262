"""The sequences page's model (lnviz.lessons.sequences.analysis): tables and the noise checks."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lnviz.lessons import sequences
from lnviz.lessons.sequences import causality, leakage
from lnviz.lessons.sequences.analysis import (
    SEEDS,
    Settings,
    analyse,
    correlation_change,
    dependence_table,
    feature_table,
    inference,
    inference_table,
    shock,
    shock_table,
)

DEFAULT = Settings(batch=4, tokens=32, seed=0, window=5, leak=True, eps=1e-5)


def test_settings_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.batch = 2  # type: ignore[misc]
    assert hash(DEFAULT) == hash(dataclasses.replace(DEFAULT))


def test_analysis_is_the_engines() -> None:
    a = analyse(DEFAULT)
    m = sequences.market(4, 32, 0, 5, True)
    np.testing.assert_array_equal(a.market.x, m.x)
    dep = causality.dependence(
        causality.normalize(m.x, "sequence", 1e-5), sequences.feature_jacobian(m), m.first_read
    )
    assert a.deps["returns"]["sequence"].future_pairs == dep.future_pairs
    assert a.leaks.value("next return", "token") == leakage.leak_table(m).value(
        "next return", "token"
    )


def test_tables_have_one_tuple_per_column() -> None:
    ft = feature_table(5, True)
    assert ft.feature[-1] == "next return" and ft.reads[1] == "t−4 … t"
    assert len(feature_table(5, False).feature) == 4
    dt = dependence_table(analyse(DEFAULT).deps["x"])
    assert dt.scheme == ("token-wise", "sequence", "causal", "batch")
    assert dt.future_pairs == (0, 32 * 31 // 2, 0, 32 * 31 // 2)
    assert dt.other_examples == (0, 0, 0, 4 * 3)
    st = shock_table(shock(DEFAULT, 24, 2.0, 0))
    assert st.token == 24 and st.first_moved == (23, 0, 23, 0)  # the leak: r(24) sits at 23
    assert st.other_series[0] == 0.0 and st.other_series[3] > 0.0


def test_inference_table_has_no_mates_in_a_batch_of_one() -> None:
    t = inference_table(inference(dataclasses.replace(DEFAULT, batch=1), 0, 5))
    assert t.setting == ("alone", "other mates", "token by token")
    assert t.layer_norm[1] is None and t.batch_norm[1] is None
    assert t.layer_norm[0] == 0.0 and t.batch_norm[0] == 0.0  # alone is the whole batch
    full = inference_table(inference(DEFAULT, 0, 20))
    assert full.layer_norm == (0.0, 0.0, 0.0) and min(full.batch_norm) > 0.01


def test_correlation_change_averages_over_seeds() -> None:
    c = correlation_change(DEFAULT, "level", "sequence")
    changes = []
    for seed in range(SEEDS):
        t = leakage.leak_table(sequences.market(4, 32, seed, 5, True), 1e-5)
        changes.append(t.value("level", "sequence") - t.value("level", "raw"))
    assert c.mean_change == pytest.approx(np.mean(changes), abs=1e-12)
    assert c.band == pytest.approx(2 / np.sqrt(4 * 32))
    assert c.before == pytest.approx(
        leakage.leak_table(analyse(DEFAULT).market).value("level", "raw")
    )


def test_a_change_within_chance_is_not_an_effect_of_this_state() -> None:
    """At the page's default state 'level' moves by 0.02 under sequence pooling, within the
    ±0.18 chance band: the effect is only clear averaged over seeds."""
    c = correlation_change(DEFAULT, "level", "sequence")
    assert abs(c.change) < c.band and not c.clear
    assert c.clear_on_average and c.mean_change < 0
    assert c.verdict == "average"
    big = correlation_change(dataclasses.replace(DEFAULT, batch=8, tokens=64), "level", "sequence")
    assert big.verdict == "clear"


@pytest.mark.parametrize(("batch", "scheme"), [(1, "sequence"), (3, "batch"), (1, "batch")])
def test_one_affine_map_leaves_correlations_unchanged(batch: int, scheme: str) -> None:
    c = correlation_change(dataclasses.replace(DEFAULT, batch=batch), "level", scheme)
    assert c.verdict == "unchanged"
    assert c.after == pytest.approx(c.before, abs=1e-9)


def test_a_tiny_sample_shows_no_clear_effect() -> None:
    """Four tokens of one series: changes of a whole unit happen by chance."""
    c = correlation_change(Settings(1, 4, 0, 5, True, 1e-5), "mean", "token")
    assert c.band == 1.0
    assert c.verdict == "noise"
