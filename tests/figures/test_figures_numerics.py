"""The numerics lab's error charts: every finite error inside the sweep's axis, and cells
with no finite output apart from the colour scale of the heatmap."""

from __future__ import annotations

import math

import numpy as np

from lnviz.lessons.numerics import figures as figs
from lnviz.lessons.numerics.sweep import offset_sweep, sample

OFFSETS = np.logspace(0, 8, 17)  # (17,) as far as the page's sweep goes


def _sweep() -> object:
    return offset_sweep(sample("noise", 256, 0), OFFSETS, 1e-5)


def test_the_sweep_axis_holds_every_finite_error_and_the_no_output_row_on_top() -> None:
    s = _sweep()
    finite = s.rel_error[np.isfinite(s.rel_error)]
    assert finite.max() > 10**3.5  # the case that ran off the old fixed axis
    fig = figs.sweep_figure(s)
    low, high = fig.layout.yaxis.range
    assert low < math.log10(max(finite.min(), figs.FLOOR))
    assert high > math.log10(finite.max())
    crosses = [t for t in fig.data if t.marker.symbol == "x-thin"]
    assert crosses  # float16 overflows far from 0
    tops = {y for t in crosses for y in t.y}
    assert len(tops) == 1 and math.log10(tops.pop()) < high  # one row, inside the axis


def test_heatmap_cells_with_no_finite_output_are_grey_not_the_worst_colour() -> None:
    s = _sweep()
    k = int(np.argmax(~np.isfinite(s.rel_error).all(axis=(0, 1))))  # an offset with a NaN
    rel = s.rel_error[:, :, k].T  # (P, A)
    assert not np.isfinite(rel).all()
    fig = figs.heatmap_figure(s, k)
    scale, grey = fig.data
    z = np.asarray(scale.z, dtype=float)
    assert np.array_equal(np.isnan(z), ~np.isfinite(rel))  # no colour from the scale there
    marks = np.asarray(grey.z, dtype=float)
    assert np.array_equal(~np.isnan(marks), ~np.isfinite(rel))  # drawn by the grey trace
    assert {c for _, c in grey.colorscale} == {figs.GRAY} and grey.showscale is False
    assert "grey: no finite output" in fig.layout.title.text


def test_a_heatmap_without_bad_cells_has_one_trace() -> None:
    s = _sweep()
    k = 0  # offset 1: every format gives a finite output
    assert np.isfinite(s.rel_error[:, :, k]).all()
    fig = figs.heatmap_figure(s, k)
    assert len(fig.data) == 1 and "grey" not in fig.layout.title.text


def test_the_grey_trace_labels_only_its_own_cells() -> None:
    """Plotly writes a heatmap's label on its empty (NaN) cells too: the grey trace's labels
    on the finite cells doubled the first trace's, in another colour."""
    s = _sweep()
    k = int(np.argmax(~np.isfinite(s.rel_error).all(axis=(0, 1))))  # an offset with a NaN
    finite = np.isfinite(s.rel_error[:, :, k].T)  # (P, A)
    scale, grey = figs.heatmap_figure(s, k).data
    assert all(t for t in np.asarray(scale.text).ravel())  # every cell's value, as before
    labels = np.asarray(grey.text)
    assert (labels[finite] == "").all() and (labels[~finite] != "").all()
