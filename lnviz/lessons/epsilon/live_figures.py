"""The epsilon page's charts at every ε of the live control (lnviz.figures.live frames).

Each frame holds what lnviz.lessons.epsilon.figures would draw at that ε for the parts that move:
the bold curves of h_ε and h'_ε with their names and the slope's peak marker, the input's
marker on the variance curve, the Jacobian heatmap and the eigenvalue bars with the bound.
The faint comparison curves stay as drawn for the page's ε. The trace indices follow the
builders' order; tests/figures/test_live_epsilon.py checks each frame against the builder.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lnviz.content.text import eps_label, short
from lnviz.figures.live import Frames
from lnviz.lessons.epsilon.figures import DH_LABEL, H_LABEL, bound_text, peak_text
from lnviz.lessons.epsilon.live import EpsilonGrid

CHART_KEYS = ("h", "dh", "variance", "jacobian", "eigen")  # the page's chart keys


def epsilon_frames(grid: EpsilonGrid, n_others: int, d: int) -> list[dict[str, Any]]:
    """Frames for the page's charts: `n_others` faint curves precede the bold one in h and
    h'; `d` is the length of z."""
    n = grid.eps.size
    labels = [eps_label(float(e)) for e in grid.eps]
    bold = n_others  # index of the chosen ε's curve
    h = (
        Frames("h", n)
        .trace(bold, "y", list(grid.h))
        .trace(bold, "name", [f"{H_LABEL}, ε = {lab}" for lab in labels])
    )
    dh = (
        Frames("dh", n)
        .trace(bold, "y", list(grid.dh))
        .trace(bold, "name", [f"{DH_LABEL}, ε = {lab}" for lab in labels])
        .trace(bold + 1, "y", [[float(p)] for p in grid.peak])
        .trace(bold + 1, "text", [[peak_text(float(p))] for p in grid.peak])
    )
    frames = [h.payload(), dh.payload()]
    if grid.q > 0:  # a constant input has no marker on the variance curve
        ratio = grid.q_over_eps
        variance = (
            Frames("variance", n)
            .trace(2, "x", [[float(r)] for r in ratio])
            .trace(2, "y", [[float(r / (r + 1))] for r in ratio])
        )
        frames.append(variance.payload())
    lim = np.abs(grid.jacobian).max(axis=(1, 2))  # (E,)
    lim = np.where(lim > 0, lim, 1.0)
    text = [[[short(v, 3) for v in row] for row in mat] for mat in grid.jacobian]
    jacobian = (
        Frames("jacobian", n)
        .trace(0, "z", list(grid.jacobian))
        .trace(0, "zmin", [-float(v) for v in lim])
        .trace(0, "zmax", [float(v) for v in lim])
    )
    if d <= 8:
        jacobian.trace(0, "text", text)
    frames.append(jacobian.payload())
    frames.append(_eigen(grid, d, labels).payload())
    return frames


def _eigen(grid: EpsilonGrid, d: int, labels: list[str]) -> Frames:
    """Bars 0 (common offset, always 0), radial (when q > 0), tangential (when d allows)."""
    n = grid.eps.size
    eigen = Frames("eigen", n)
    index = 1
    values = []
    if grid.q > 0:
        values.append(grid.radial)
    if d > 1 + (grid.q > 0):
        values.append(grid.tangential)
    for value in values:
        eigen.trace(index, "y", [[float(v)] for v in value])
        eigen.trace(index, "text", [[short(float(v))] for v in value])
        index += 1
    bound = [float(b) for b in grid.bound]
    top = np.maximum(grid.bound, np.max(values, axis=0) if values else 0.0)
    return (
        eigen.layout("shapes[0].y0", bound)
        .layout("shapes[0].y1", bound)
        .layout("annotations[0].y", bound)
        .layout("annotations[0].text", [bound_text(b) for b in bound])
        .layout("yaxis.range", [[0, 1.25 * float(t)] for t in top])
    )
