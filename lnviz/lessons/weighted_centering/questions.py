"""Questions of the weighted-centering page, on a = (w, 1 − w) and x of its 2-D picture."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lnviz.content import text
from lnviz.content.questions import Question, choice, link, number
from lnviz.weighted import WeightedCentering, projection_checks, two_weights, weighted_centering

DEFAULT_X = (4.0, 2.0)  # the page's default point


def _num(v: float) -> str:
    """A number as a link writes it (15 significant digits: the state, not a rounding)."""
    return f"{float(v):.15g}"


def practice_point(x: Sequence[float]) -> tuple[np.ndarray, str]:
    """x doubled (halved near the ±100 box) so the page's own table of x does not answer it."""
    big = float(np.max(np.abs(x))) > 50
    return np.asarray(x, dtype=np.float64) * (0.5 if big else 2.0), "Halve" if big else "Double"


def questions(w: float = 0.25, x: Sequence[float] = DEFAULT_X) -> tuple[Question, ...]:
    """Four questions at a new point: what Pₐ subtracts, the mean left, Pₐ twice, Pₐ symmetric."""
    new, verb = practice_point(x)
    r = weighted_centering(two_weights(float(w)), new)
    state = {"w": _num(w), "x": ", ".join(_num(v) for v in r.x)}
    return (_subtracted(r, state, verb), _plain_mean(r, state), _twice(r, state),
            _symmetric(r, state))  # fmt: skip


def _factor(v: float) -> str:
    """A factor of a product: a negative number in brackets."""
    return f"({text.number(v)})" if v < 0 else text.number(v)


def _weights(r: WeightedCentering) -> str:
    return f"a = {text.vector(r.a)}, x = {text.vector(r.x)}"


def _subtracted(r: WeightedCentering, state: dict[str, str], verb: str) -> Question:
    (a1, a2), (x1, x2) = r.a, r.x
    return number(
        "subtracted",
        f"Your turn, on a new point: {verb.lower()} your x and keep the weights. With "
        f"{_weights(r)}: which single number does Pₐ subtract from every coordinate of x?",
        r.c,
        link("weighted-centering", "Show this point and these weights", **state),
        hint=f"The weighted mean aᵀx = a₁x₁ + a₂x₂ is linear in x: {verb.lower()} x and it "
        f"{'halves' if verb == 'Halve' else 'doubles'}.",
        explanation=f"aᵀx = {text.number(a1)}·{_factor(x1)} + {text.number(a2)}·"
        f"{_factor(x2)} = {text.number(r.c)}, so Pₐx = x − (aᵀx)𝟏 = "
        f"{text.vector(r.centered)}.",
    )


def _plain_mean(r: WeightedCentering, state: dict[str, str]) -> Question:
    return number(
        "plain-mean",
        f"Still at {_weights(r)}: Pₐx has weighted mean 0. What is its **ordinary** "
        "average, (first + second)/2?",
        r.ordinary_mean,
        link("weighted-centering", "Show the two means of Pₐx", **state),
        hint="Compute Pₐx = x − (aᵀx)𝟏 first, then average its two entries without weights.",
        explanation=f"Pₐx = {text.vector(r.centered)}, whose ordinary average is "
        f"{text.number(r.ordinary_mean)}: the ordinary mean of x minus aᵀx. It is 0 exactly when "
        "x's ordinary mean equals aᵀx, as it always does for equal weights.",
    )


def _twice(r: WeightedCentering, state: dict[str, str]) -> Question:
    p = r.matrix
    n = p.shape[0]
    options = (
        ("Pₐ² = Pₐ: the second pass moves nothing", p),
        ("Pₐ² = 0: the second pass sends everything to 0", np.zeros((n, n))),
        ("Pₐ² = I: the second pass undoes the first", np.eye(n)),
        ("Pₐ² = 2Pₐ: the mean is subtracted again", 2 * p),
    )
    square = p @ p
    hits = [i for i, (_, m) in enumerate(options) if np.allclose(square, m, rtol=0, atol=1e-12)]
    if len(hits) != 1:
        raise AssertionError(f"Pₐ² matches {len(hits)} options")
    return choice(
        "twice",
        f"Apply Pₐ twice, at a = {text.vector(r.a)}. What is Pₐ²?",
        tuple(label for label, _ in options),
        hits[0],
        link("weighted-centering", "Show Pₐ and its properties for these weights",
             w=state["w"], m="2"),
        hint="After one pass the weighted mean is already 0. How much does the second pass "
        "subtract?",
        explanation="Pₐx already has weighted mean 0, so the second pass subtracts 0·𝟏: Pₐ "
        "is idempotent, a projection. Measured on these weights, the largest entry of "
        f"|Pₐ² − Pₐ| is {_residue(float(np.abs(square - p).max()))}.",
    )  # fmt: skip


def _residue(v: float) -> str:
    return "0" if v == 0 else f"{text.short(v, 2)} (0 up to rounding)"


def _symmetric(r: WeightedCentering, state: dict[str, str]) -> Question:
    checks = projection_checks(r.a)
    (p11, p12), (p21, p22) = checks.matrix
    return choice(
        "symmetric",
        f"At a = {text.vector(r.a)}, is the matrix Pₐ = I − 𝟏aᵀ symmetric (Pₐᵀ = Pₐ)?",
        ("Yes, Pₐᵀ = Pₐ", "No, Pₐᵀ ≠ Pₐ"),
        0 if checks.symmetric else 1,
        link("weighted-centering", "Show Pₐ for these weights", w=state["w"], m="2"),
        hint="Row i of 𝟏aᵀ is aᵀ itself, so the entry off the diagonal in row 1 is −a₂ and "
        "in row 2 it is −a₁.",
        explanation=f"Pₐ = [[{text.number(p11)}, {text.number(p12)}], [{text.number(p21)}, "
        f"{text.number(p22)}]]: the two entries off the diagonal are −a₂ and −a₁, equal only "
        "when the weights are equal. "
        + ("Here they are, and Pₐ is the usual symmetric centering matrix."
           if checks.symmetric else "Here they are not: Pₐ is an oblique projection."),
    )  # fmt: skip
