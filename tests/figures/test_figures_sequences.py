"""Figures of the sequences page: they draw the engine's data and describe it in alt text."""

from __future__ import annotations

import numpy as np
import pytest

from lnviz.lessons import sequences
from lnviz.lessons.sequences import analysis as sequences_page
from lnviz.lessons.sequences import causality, leakage
from lnviz.lessons.sequences import figures as figs
from lnviz.lessons.sequences import figures_checks as seqchecks
from lnviz.lessons.sequences.causality import SCHEMES


@pytest.fixture(scope="module")
def state():
    m = sequences.market(3, 12, seed=1, window=4)
    norms = {s: causality.normalize(m.x, s, 1e-5) for s in SCHEMES}
    g = sequences.feature_jacobian(m)
    deps = {s: causality.dependence(n, g, m.first_read) for s, n in norms.items()}
    return m, norms, deps


@pytest.mark.parametrize("scheme", SCHEMES)
def test_dependence_map_splits_past_and_future_cells(state, scheme: str) -> None:
    _, _, deps = state
    dep = deps[scheme]
    fig = figs.dependence_figure(dep)
    past, future = (np.array(t.z, dtype=float) for t in fig.data)  # None -> nan
    assert np.array_equal(~np.isnan(past), dep.depends & ~dep.future)
    assert np.array_equal(~np.isnan(future), dep.depends & dep.future)
    assert np.nanmax(np.fmax(past, future)) == 0.0  # relative to the largest entry
    assert f"{dep.future_pairs} in the future" in fig.layout.title.text
    assert f"{dep.future_pairs} of them on a later input" in figs.dependence_alt(dep)


def test_examples_figure_follows_the_engine(state) -> None:
    _, _, deps = state
    fig = figs.examples_figure(list(deps.values()))
    assert [np.array(t.z).sum() for t in fig.data] == [3, 3, 3, 9]
    assert "batch: 6" in figs.examples_alt(list(deps.values()))


def test_leak_and_scatter_figures_show_the_correlations(state) -> None:
    m, norms, _ = state
    t = leakage.leak_table(m)
    fig = figs.leak_figure(t)
    assert np.allclose(np.array(fig.data[0].z, dtype=float), t.corr, atol=1e-3)
    assert fig.data[0].text[-1][0] == "1"  # the page's number style: no padded zeros
    assert all("-" not in cell for row in fig.data[0].text for cell in row)  # true minus signs
    raw, normed = m.x[..., -1], norms["token"].y[..., -1]
    alt = figs.scatter_alt(raw, normed, m.next_return, "next return")
    assert "correlation 1" in alt and "36 tokens" in alt


def test_shock_and_inference_figures(state) -> None:
    m, _, _ = state
    s = leakage.future_shock(m, 1e-5, 8, 2.0)
    fig = seqchecks.shock_figure(s)
    assert [t.name for t in fig.data] == [sequences_page.scheme_label(x) for x in SCHEMES]
    assert "first change at token 7" in seqchecks.shock_alt(s)  # the leak: r(8) sits at 7
    inf = leakage.inference_check(m, 1e-5, 1, 5)
    fig = seqchecks.inference_figure(inf, 0, "return")
    assert len(fig.data) == 5
    assert np.allclose(np.array(fig.data[0].y, dtype=float), inf.ln_batch[:, 0], atol=1e-4)
    assert "largest gap 0" in seqchecks.inference_alt(inf, 0, "return")


def test_prices_figure_has_one_line_per_series(state) -> None:
    m, _, _ = state
    fig = figs.prices_figure(m)
    assert len(fig.data) == 3 and fig.data[0].y[0] == 0.0
    assert "3 simulated log-price paths over 12 tokens" in figs.prices_alt(m)
