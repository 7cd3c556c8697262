"""Questions of the invariance page: a common shift, RMS norm under it, scaling as ε/a²."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

import lnviz
from lnviz.content.exercises._links import eps_param, vector_param
from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import eps_label, short, vector, vector_with_exact, with_exact
from lnviz.content.text import number as num
from lnviz.lessons import explorers, symmetry
from lnviz.lessons.explorers import WORKED_Z

WORKED_C, WORKED_A = 100.0, 10.0  # the page's default shift c and scale factor a
WORKED_EPS = 1 / 3  # the page's default ε
_UP, _DOWN = "up makes ε matter less", "down makes ε matter more"


def questions(
    z: ArrayLike = WORKED_Z, eps: float = WORKED_EPS, c: float = WORKED_C, a: float = WORKED_A
) -> tuple[Question, ...]:
    """A common shift, RMS norm under it, scaling as ε/a², at z (the worked z if z is constant)."""
    zv = lnviz.analyze_core(z, eps).z
    if np.ptp(zv) == 0:
        zv = np.array(WORKED_Z)
    return (_shift(zv, eps, c), _rms(zv, eps, c), _scale(zv, eps, a))


def _shift_link(z: np.ndarray, eps: float, c: float, label: str):
    return link("invariance", label, z=vector_param(z), c=f"{c:g}", eps=eps_param(eps))


def _shift(z: np.ndarray, eps: float, c: float) -> Question:
    """u_ε(z/2 + c)'s top coordinate: on z/2, as the page already prints z's change and core."""
    halved = 0.5 * z  # (d,) a new input, within the page's ±1000
    sym = symmetry.common_shift(halved, c, eps)
    top = float(np.max(sym.ln_moved))
    return number(
        "common-shift",
        f"Your turn on z' = z/2 = {vector(halved)}: add c = {num(c)} to every coordinate, "
        f"giving {vector(sym.moved)}. At ε = {eps_label(eps)}, what is the largest "
        "coordinate of the core u_ε(z' + c)?",
        top,
        _shift_link(halved, eps, c, f"Show z' + {c:g}"),
        hint="Adding c raises the mean μ by c; what happens to z' − μ and to the variance q? "
        "Then centre z' and divide by √(q + ε).",
        explanation=f"The shift is erased: u_ε(z' + c) = u_ε(z') = "
        f"{vector_with_exact(sym.ln_moved)}, for every c, so its largest coordinate is "
        f"{with_exact(top)}.",
    )


def _rms_changes(z: np.ndarray, c: float, eps: float) -> bool:
    """Whether RMS norm's output moves under z → z + c by more than rounding."""
    sym = symmetry.common_shift(z, c, eps)
    if not sym.rms_defined:
        return False
    noise = explorers.contrast(sym, symmetry.scale(z, 1.0, eps)).noise
    return sym.rms_change > (noise if math.isfinite(noise) else 1e-12)


def _rms(z: np.ndarray, eps: float, c: float) -> Question:
    """RMS norm has no centring, so a common shift gets through (at ε = 0 too)."""
    here, at_zero = _rms_changes(z, c, eps), _rms_changes(z, c, 0.0)
    right = (1 if at_zero else 2) if here else 0
    sym = symmetry.common_shift(z, c, eps)
    return choice(
        "rms-shift",
        "RMS norm divides z by √(m + ε), where m is the mean square of the coordinates, and "
        f"subtracts nothing. Under the same shift by c = {num(c)} at ε = {eps_label(eps)}, what "
        "does its output do?",
        (
            "It stays the same, like layer norm's",
            "It changes, at every ε",
            "It changes only when ε > 0",
        ),
        right,
        _shift_link(z, eps, c, f"Compare RMS norm under z + {c:g}"),
        hint="Without subtracting the mean, what absorbs the added c?",
        explanation=f"RMS norm gives {vector_with_exact(sym.rms)} for z and "
        f"{vector_with_exact(sym.rms_moved)} for z + c"
        + (
            ": the mean square m changes and nothing removes the common part, so a common "
            "shift gets through."
            if here
            else ": with c = 0 there is no shift to see. Any other c changes m, and nothing "
            "removes the common part."
        ),
    )


def _scale(z: np.ndarray, eps: float, a: float) -> Question:
    """u_ε(az) = u_(ε/a²)(z): scaling the input is a change of ε."""
    check = explorers.scaling_check(z, eps, a)
    target = check.equivalent_eps
    e_text = eps_label(eps)
    return number(
        "scale-eps",
        f"Multiplying z = {vector(z)} by a = {num(a)} at ε = {e_text} gives the same core as z "
        "itself at some ε′. What is ε′?",
        target,
        link("invariance", f"Show z scaled by {a:g}", z=vector_param(z), a=f"{a:g}",
             eps=eps_param(eps)),
        hint="Write u_ε(az) = a v/√(a²q + ε) and divide the top and the bottom by a.",
        explanation=f"u_ε(az) = v/√(q + ε/a²) = u_(ε/a²)(z), so ε′ = ε/a² = "
        f"{with_exact(target)}"
        + (
            ": at ε = 0 the factor a cancels and scaling changes nothing."
            if eps == 0
            else ": a = 1 changes nothing."
            if a == 1
            else f". Scaling the input {_UP if a > 1 else _DOWN}; the core moves by "
            f"{short(check.scaling.change)} here."
        ),
        rel_tol=0.01,
    )  # fmt: skip
