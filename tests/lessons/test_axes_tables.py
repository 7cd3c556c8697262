"""Tables of the reduction-axes page (lnviz.lessons.reduction_axes.tables): the engine's
numbers, exactly."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

import lnviz
from lnviz.lessons.reduction_axes import tables as tables


def read_csv(text: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(text)))
    return {name: [r[i] for r in rows[1:]] for i, name in enumerate(rows[0])}


@pytest.mark.parametrize("scheme", lnviz.SCHEMES)
def test_entry_table_round_trips_through_csv(scheme: str) -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 3, 4), 5), scheme, num_groups=2)
    table = read_csv(tables.csv_text(tables.entry_table(red).columns()))
    assert len(table["batch"]) == red.x.size
    idx = tuple(np.array(table[k], dtype=int) for k in ("batch", "token", "feature"))
    np.testing.assert_array_equal(np.array(table["group"], dtype=int), red.labels[idx])
    np.testing.assert_array_equal(np.array(table["output"], dtype=float), red.output[idx])
    column = "group variance" if red.centered else "group mean square"
    np.testing.assert_array_equal(np.array(table[column], dtype=float), red.second[red.labels[idx]])
    assert ("group mean" in table) is red.centered


def test_group_table_counts_every_entry_once() -> None:
    red = lnviz.reduce_tensor(lnviz.sample_tensor((2, 4, 6), 0), "group", num_groups=3)
    table = tables.group_table(red)
    assert sum(table.entries) == red.x.size
    assert table.group == tuple(range(red.group_count))
    assert table.mean == tuple(red.mean.tolist())
    names = ["group", "first entry (b, t, f)", "entries", "mean", "variance"]
    assert list(table.columns()) == names


def test_rms_tables_have_no_mean_and_no_beta() -> None:
    """RMS norm subtracts no mean and has no β: no mean column, no variance, no β."""
    results = lnviz.compare_schemes(lnviz.sample_tensor((2, 4, 6), 0), num_groups=2)
    rms = results["rms"]
    assert list(tables.group_table(rms).columns()) == [
        "group",
        "first entry (b, t, f)",
        "entries",
        "mean square",
    ]
    assert "group mean" not in tables.entry_table(rms).columns()
    scheme = tables.scheme_table(results).columns()
    params = dict(zip(scheme["scheme"], scheme["parameters"], strict=True))
    assert params["RMS norm, token-wise"] == "γ: (6,), no β"
    assert params["Layer norm, token-wise"] == "γ, β: (6,)"
    assert params["Layer norm over token and feature"] == "γ, β: (4, 6)"


def test_scheme_table_follows_compare_schemes() -> None:
    results = lnviz.compare_schemes(lnviz.sample_tensor((1, 1, 4), 0), num_groups=2)
    table = tables.scheme_table(results)
    assert "Batch norm (training)" not in table.scheme  # B * T = 1: left out
    assert table.groups == tuple(r.group_count for r in results.values())
    assert table.entries_per_group == tuple(r.group_size for r in results.values())


def test_csv_writes_floats_exactly() -> None:
    text = tables.csv_text({"v": (0.1 + 0.2, 1 / 3)})
    assert [float(v) for v in read_csv(text)["v"]] == [0.1 + 0.2, 1 / 3]
