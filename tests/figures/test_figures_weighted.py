"""Figures of the weighted-centering page draw the engine's numbers and describe them."""

from __future__ import annotations

import numpy as np

from lnviz.lessons.weighted_centering import figures as figs
from lnviz.weighted import constant_fit, projection_checks, projection_view, weighted_centering

SEED = weighted_centering([0.25, 0.75], [4.0, 2.0])
SPACE = weighted_centering([1, 2, 5], [3.0, 1.0, 2.0])


def marker(fig, label: str) -> list[float]:
    t = next(t for t in fig.data if t.text == (label,))
    return [v[0] for v in (t.x, t.y, getattr(t, "z", None)) if v is not None]


def test_plane_figure_and_alt_text() -> None:
    view = projection_view(SEED)
    fig = figs.plane_figure(SEED, view)
    assert marker(fig, "Pₐx") == [1.5, -0.5]
    assert marker(fig, "Euclidean") == [3.0, -1.0]
    assert fig.layout.yaxis.scaleanchor == "x"
    alt = figs.plane_alt(SEED, view)
    for text in ("(4, 2)", "(1.5, −0.5)", "(3, −1)", "aᵀx = 2.5", "ordinary mean 0.5"):
        assert text in alt


def test_space_figure_plane_is_the_engine_patch() -> None:
    view = projection_view(SPACE)
    fig = figs.space_figure(SPACE, view)
    mesh = fig.data[0]
    np.testing.assert_allclose(
        np.column_stack([mesh.x, mesh.y, mesh.z]), view.plane, rtol=1e-4, atol=1e-6
    )
    assert marker(fig, "Pₐx") == [1.125, -0.875, 0.125]
    assert "(2.5, 0, −0.5)" in figs.space_alt(SPACE, view)


def test_objective_figure_marks_the_minimum() -> None:
    fit = constant_fit(SEED)
    fig = figs.objective_figure(fit)
    np.testing.assert_allclose(fig.data[0].y, fit.values, rtol=1e-4)
    assert (fig.data[2].x, fig.data[2].y) == ((2.5,), (0.75,))
    alt = figs.objective_alt(fit)
    assert "c = 2.5" in alt and "f = 0.75" in alt and "ordinary mean 3" in alt


def test_matrix_figure_and_latex() -> None:
    checks = projection_checks([0, 1])
    fig = figs.matrix_figure(checks)
    assert [list(row) for row in fig.data[0].z] == [[1.0, -1.0], [0.0, 0.0]]
    assert "−0" not in str(fig.data[0].text)  # -0 is shown as 0
    assert "not symmetric" in figs.matrix_alt(checks)
    assert figs.matrix_latex(checks.d_minus_aat) == r"\begin{bmatrix}0 & 0 \\ 0 & 0\end{bmatrix}"
