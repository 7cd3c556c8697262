"""The source documents' examples worked step by step, every number computed now by the engine."""

from __future__ import annotations

import math
from dataclasses import dataclass

import lnviz
from lnviz.content import text
from lnviz.content.claims_catalog import CONST, TOY
from lnviz.content.glossary import Link, link


@dataclass(frozen=True)
class Example:
    """One example of the sources: the input, and the page state that shows it."""

    title: str
    claim: str  # the catalogue entry whose stated numbers the example reproduces
    z: tuple[float, ...]
    eps: float
    link: Link
    gamma: tuple[float, ...] | None = None  # None: gain 1 and bias 0, the output is the core
    beta: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Step:
    """One line of the working: what is computed, how, and its value now."""

    label: str
    how: str  # the rule, in Unicode
    value: str

    @property
    def markdown(self) -> str:
        """One line of a numbered list: the quantity, its rule, its value in bold."""
        return f"**{self.label}** ({self.how}): **{self.value}**"


@dataclass(frozen=True)
class Worked:
    example: Example
    steps: tuple[Step, ...]


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _terms(name: str, d: int, power: str = "") -> str:
    """A sum's terms written out (z₁ + z₂ + z₃), the middle elided beyond four terms."""
    term = [f"{name}{str(i).translate(_SUBSCRIPT)}{power}" for i in range(1, d + 1)]
    return " + ".join(term if d <= 4 else [*term[:2], "…", term[-1]])


def _eps(eps: float) -> str:
    return text.exact(eps) or text.number(eps)


EXAMPLES: tuple[Example, ...] = (
    Example("One vector at ε = 0, with gains and biases", "C13", (1, 2, 3), 0.0,
            link("gain-and-bias", "Open it on Gain and bias", **TOY, eps="0"),
            (1, 2, 1), (0, 1, 0)),
    Example("The same vector at ε = 1/3", "C3", (1, 2, 3), 1 / 3,
            link("epsilon", "Open it on Epsilon", z="1,2,3", eps="1/3")),
    Example("The same vector at ε = 4/3", "C3", (1, 2, 3), 4 / 3,
            link("epsilon", "Open it on Epsilon", z="1,2,3", eps="4/3")),
    Example("A constant input returns the bias", "C1", (2, 2, 2), 0.01,
            link("gain-and-bias", "Open it on Gain and bias", **CONST), (1, 2, 1), (0, 1, 0)),
    Example("A common shift changes nothing", "C9", (101, 102, 103), 1 / 3,
            link("invariance", "Open it on Invariances", z="1,2,3", c="100", eps="1/3")),
    Example("An unequal shift gets through", "C10", (1, 2, 4), 1 / 3,
            link("invariance", "Open it on Invariances", z="1,2,3", s="0,0,1", eps="1/3")),
)  # fmt: skip


def worked(example: Example) -> Worked:
    """Every step of the example, computed now: the engine's stages, with closed forms."""
    st = lnviz.affine_stages(example.z, example.gamma, example.beta, example.eps)
    z, mu, q = st.input.values, st.input.mean, st.q
    root = math.sqrt(q + example.eps)
    eps = _eps(example.eps)
    steps = [
        Step("input z", f"d = {z.size} numbers", text.vector(z)),
        Step("mean μ", f"({_terms('z', z.size)})/{z.size}", text.with_exact(mu)),
        Step("centred v = z − μ𝟏", "subtract μ from every entry", text.vector_with_exact(z - mu)),
        Step("variance q", f"({_terms('v', z.size, '²')})/{z.size}", text.with_exact(q)),
        Step(f"√(q + ε), ε = {eps}", "the divisor", text.with_exact(root)),
    ]
    if not st.defined:
        steps.append(Step("core u = v/√(q + ε)", "0/0", "undefined: every entry is 0/0"))
        return Worked(example, tuple(steps))
    core = st.core.values
    core_stats = f"{text.with_exact(st.core.mean)} and {text.with_exact(st.core.var)}"
    steps += [
        Step("core u = v/√(q + ε)", "divide v by the divisor", text.vector_with_exact(core)),
        Step("mean and variance of u", "mean 0; variance q/(q + ε)", core_stats),
    ]
    if example.gamma is not None and example.beta is not None:
        gamma, beta = text.vector(example.gamma), text.vector(example.beta)
        out = st.output
        steps += [
            Step("output y = γ ⊙ u + β", f"γ = {gamma}, β = {beta}",
                 text.vector_with_exact(out.values)),
            Step("mean and variance of y", "after the gain and bias",
                 f"{text.with_exact(out.mean)} and {text.with_exact(out.var)}"),
        ]  # fmt: skip
    return Worked(example, tuple(steps))
