"""The weighted-centering page's text, chosen by state so no bullet describes an unseen picture."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from lnviz.content import text
from lnviz.weighted import ConstantFit, Orthogonality, ProjectionChecks, WeightedCentering

DOT_FORM = r"$\langle\cdot,\cdot\rangle_D$"  # the D-form, inline LaTeX for markdown text
D_FORM = r"$\langle u,v\rangle_D=\sum_i a_iu_iv_i$"
_TOL = 1e-12  # below this a measured residual is rounding (entries are of order 1)

Rows = tuple[tuple[str, str], ...]


def _sub(i: int) -> str:
    return chr(0x2080 + i)  # subscript digit


def zero_names(zero_weights: Sequence[int]) -> str:
    """'a₁, a₃' for the 1-based positions (1, 3)."""
    return ", ".join(f"a{_sub(i)}" for i in zero_weights)


def residual(v: float) -> str:
    """A measured value that is 0 in exact arithmetic: 0, or its size and 'up to rounding'."""
    if v == 0:
        return "0"
    if abs(v) <= _TOL:
        return f"{text.short(v, 2)} (0 up to rounding)"
    return text.number(v)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A markdown table: the header, then a line per row, its label plain and its values bold."""
    head = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    body = "\n".join(
        "| " + " | ".join((label, *(f"**{v}**" for v in values))) + " |" for label, *values in rows
    )
    return head + body


def number_table(rows: Rows) -> str:
    """Label-value pairs as a two-column markdown table (vectors do not fit in metrics)."""
    return markdown_table(("quantity", "value"), rows)


def _vector(v: Sequence[float]) -> str:
    """A vector; when its decimals are rounded, followed by its exact form if it has one."""
    shown = text.vector(v)
    form = text.exact_vec(v) if shown != text.vector(v, 12) else None
    return f"{shown} = {form}" if form else shown


def centring_rows(r: WeightedCentering, weights_label: str) -> Rows:
    """The numbers of one centring: weights, weighted mean, Pₐx, its two means, Euclidean."""
    return (
        (weights_label, _vector(r.a)),
        ("aᵀx, the weighted mean of x", text.number(r.c)),
        ("Pₐx = x − (aᵀx)𝟏", text.vector(r.centered)),
        ("weighted mean of Pₐx", residual(r.weighted_mean)),
        ("ordinary mean of Pₐx", text.number(r.ordinary_mean)),
        ("Euclidean projection", text.vector(r.euclidean)),
    )


def fit_rows(fit: ConstantFit, r: WeightedCentering) -> Rows:
    """The least-squares fit beside the formula: ĉ from a solver, aᵀx, residual and f."""
    return (
        ("fitted constant ĉ (solver)", text.number(fit.c)),
        ("aᵀx", text.number(r.c)),
        ("residual x − ĉ𝟏", text.vector(fit.residual)),
        ("Pₐx", text.vector(r.centered)),
        ("f at the minimum", text.number(fit.minimum)),
        (
            f"f at the ordinary mean {text.number(fit.ordinary_mean)}",
            text.number(fit.at_ordinary_mean),
        ),
    )


def angle_markdown(r: WeightedCentering, orth: Orthogonality) -> str:
    """The angle between the step (aᵀx)𝟏 and Pₐx, and their inner product, in both geometries."""
    return markdown_table(
        ("between Pₐx and the step (aᵀx)𝟏", f"in {DOT_FORM}", "Euclidean"),
        (
            ("angle", text.angle(r.angle_d), text.angle(r.angle_euclidean)),
            ("inner product", residual(orth.d_inner), text.number(orth.euclidean_inner)),
        ),
    )


def angle_note(r: WeightedCentering, orth: Orthogonality) -> str | None:
    """Why the D-angle is undefined, when it is; None otherwise."""
    if not math.isnan(r.angle_d):
        return None
    if orth.euclidean_length == 0:
        return "x is constant, so Pₐx = 0: there is no angle to measure."
    if r.c == 0:
        return "x already has weighted mean 0: Pₐx = x, no step, so no angle."
    return (
        f"Pₐx = {text.vector(r.centered)} is not zero, yet its D-length is "
        f"{text.number(orth.d_length)}: with a zero weight the D-angle is undefined."
    )


def degenerate_text(zero_weights: Sequence[int], *, brief: bool = False) -> str:
    """What a zero weight breaks, and what it leaves intact (brief: a one-line reminder)."""
    where = zero_names(zero_weights)
    sub = _sub(zero_weights[0])
    if brief:
        return (
            f"A zero weight ({where} = 0): {DOT_FORM} is only semi-definite here; the "
            "two-coordinate section above says what that breaks."
        )
    return (
        f"**A zero weight ({where} = 0).** The form {D_FORM} then skips that coordinate, so "
        f"the nonzero vector e{sub} gets D-length 0: the form is only semi-definite, not an "
        "inner product. **What breaks:** D-lengths and D-angles can be 0 or undefined for "
        f"vectors that are not 0; e{sub} lies in ker aᵀ and is D-orthogonal to everything, so "
        "being D-orthogonal to the subspace no longer singles out the step along 𝟏 (many "
        f"projections pass that test); and the fit ignores x{sub} completely. "
        "**What survives:** the algebra: Pₐ² = Pₐ, Pₐ𝟏 = 0 and D Pₐ = Pₐᵀ D = D − a aᵀ "
        "(see the matrix checks)."
    )


def _near_zero(v: float, scale: float) -> bool:
    return abs(v) <= _TOL * (1.0 + scale)


def plane_notes(r: WeightedCentering) -> tuple[str, ...]:
    """Bullets under the plane picture (n = 2), for the weights and the point shown."""
    scale = float(abs(r.x).max())
    if r.c == 0:
        step = "aᵀx = 0: x already has weighted mean 0, so Pₐx = x and there is no step."
    else:
        step = (
            f"aᵀx = {text.number(r.c)} is subtracted from both coordinates: the dashed step is "
            "parallel to (1, 1), "
            + (
                "and with equal weights that is also the shortest path."
                if r.symmetric
                else "so Pₐx is not the nearest point of the line."
            )
        )
    if _near_zero(r.ordinary_mean, scale):
        means = (
            "Pₐx has weighted mean 0 and here ordinary mean 0 too: it lies on the solid line "
            "and on the faint dotted line (ordinary mean 0)."
        )
    else:
        means = (
            f"Pₐx has weighted mean 0 but ordinary mean {text.number(r.ordinary_mean)}: it "
            "lies on the solid line, not on the faint dotted line (ordinary mean 0)."
        )
    if r.symmetric:
        equal = (
            "Here w = 0.5: the two lines coincide and Pₐx equals the Euclidean projection: "
            "ordinary centering is an orthogonal projection."
        )
    else:
        equal = (
            "At w = 0.5 the two lines would coincide and Pₐx would equal the Euclidean "
            "projection: ordinary centering is an orthogonal projection."
        )
    if math.isnan(r.angle_d):
        angle = "The D-angle is undefined here (see above); wherever it is defined it is 90°."
    else:
        angle = (
            f"The D-angle is {text.angle(r.angle_d)}; the Euclidean angle is "
            f"{text.angle(r.angle_euclidean)}."
        )
    return (step, means, equal, angle)


def fit_notes(
    fit: ConstantFit, r: WeightedCentering, zero_weights: Sequence[int]
) -> tuple[str, ...]:
    """Bullets under the least-squares fit, for the weights and the point shown."""
    c, mean = text.number(fit.c), text.number(fit.ordinary_mean)
    if not math.isclose(fit.c, fit.ordinary_mean, rel_tol=1e-9, abs_tol=1e-12):
        where = (
            f"The parabola bottoms out at c = aᵀx = {c}, not at the ordinary mean {mean} of x; "
            "equal weights would make the two the same."
        )
    elif r.symmetric:
        where = (
            f"The parabola bottoms out at c = aᵀx = {c}, the ordinary mean of x: with equal "
            "weights the two are the same."
        )
    else:
        where = (
            f"The parabola bottoms out at c = aᵀx = {c}, which for this x equals the ordinary "
            "mean, although the weights differ."
        )
    if zero_weights:
        i = zero_weights[0]
        ignored = (
            f"Here a{_sub(i)} = 0: f ignores x{_sub(i)}, so editing x{_sub(i)} leaves the "
            "minimum where it is."
        )
    else:
        ignored = "With w = 0 or w = 1 one weight is 0, and f ignores that coordinate."
    return (
        where,
        "The residual of the fit and Pₐx are the same vector.",
        f"The lowest value, f = {text.number(fit.minimum)}, is the squared D-length of Pₐx: a "
        "weighted variance.",
        ignored,
    )


def space_notes(r: WeightedCentering) -> tuple[str, ...]:
    """Bullets under the space picture (n = 3), for the weights and the point shown."""
    notes = [
        "Whatever x is, the step is along (1, 1, 1): Pₐ only ever subtracts one common number."
    ]
    if r.c == 0:
        notes.append("Here x already lies in the plane (aᵀx = 0): Pₐx = x, there is no step.")
    elif r.symmetric:
        notes.append(
            "Here the weights are equal: the plane is perpendicular to (1, 1, 1), so the "
            "dashed step meets it at a right angle and Pₐx is the Euclidean projection."
        )
    else:
        notes.append(
            "Turn the view edge-on to the plane: the dashed step crosses it at a slant, the "
            "dotted Euclidean segment at a right angle."
        )
    if not r.symmetric:
        notes.append(
            "With equal weights (e.g. 1, 1, 1) the plane would be perpendicular to (1, 1, 1) "
            "and the two projections would land on the same point."
        )
    return tuple(notes)


def matrix_notes(checks: ProjectionChecks) -> tuple[str, ...]:
    """Bullets under the matrix Pₐ, for the weights it is built from."""
    if checks.symmetric:
        rows = "Every row and, with these equal weights, every column of Pₐ adds up to 0."
        transpose = f"Here a is a multiple of 𝟏, so Pₐᵀ = Pₐ: orthogonal for {DOT_FORM} too."
    else:
        rows = (
            "Every row of Pₐ adds up to 0 — that is Pₐ𝟏 = 0 — but the columns do so only "
            "for equal weights."
        )
        transpose = (
            "Pₐᵀ = I − a𝟏ᵀ differs from Pₐ unless a is a multiple of 𝟏; still D Pₐ is "
            f"symmetric, and that is what makes Pₐ orthogonal for {DOT_FORM}."
        )
    if checks.degenerate:
        transpose += (
            f" With {zero_names(checks.zero_weights)} = 0 that form is only semi-definite, "
            "not an inner product."
        )
    return (
        rows,
        "Applying Pₐ twice changes nothing, Pₐ² = Pₐ (Pₐ is idempotent): a vector with "
        "weighted mean 0 has nothing left to subtract.",
        transpose,
    )


def check_table(checks: ProjectionChecks) -> dict[str, tuple[str, ...]]:
    """The properties of Pₐ, each with the measured number and a verdict."""
    yes = {True: "yes", False: "no"}
    ones = float(abs(checks.ones_image).max())
    return {
        "property": (
            "Pₐ² = Pₐ (idempotent)",
            "Pₐ𝟏 = 0",
            "rank n − 1",
            "symmetric, Pₐ = Pₐᵀ",
            "D Pₐ = Pₐᵀ D = D − a aᵀ",
            "⟨·,·⟩_D is an inner product",
        ),
        "measured": (
            f"max |Pₐ² − Pₐ| = {residual(checks.idempotent_error)}",
            f"max |Pₐ𝟏| = {residual(ones)}",
            f"rank {checks.rank}, n = {checks.n}",
            f"max |Pₐ − Pₐᵀ| = {residual(checks.asymmetry)}",
            f"largest difference {residual(checks.d_identity_error)}",
            f"zero weight: {zero_names(checks.zero_weights)}"
            if checks.degenerate
            else "all aᵢ > 0",
        ),
        "holds": (
            yes[checks.idempotent],
            yes[checks.kills_ones],
            yes[checks.rank_ok],
            yes[checks.symmetric],
            yes[checks.d_identity],
            yes[not checks.degenerate],
        ),
    }
