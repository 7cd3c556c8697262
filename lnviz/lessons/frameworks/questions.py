"""Questions of the framework-parity page: default ε, who lands farthest, momentum."""

from __future__ import annotations

import math

from lnviz.content.questions import Question, choice, link, number
from lnviz.content.text import eps_label
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    DEFAULT_BACKEND,
    FRAMEWORK_NAMES,
    KERAS_BACKEND_NAMES,
    effective_eps,
    framework_label,
)
from lnviz.lessons.frameworks import diff as fd
from lnviz.lessons.frameworks.notes import gap
from lnviz.lessons.frameworks.state import (
    EPS_PRESET,
    LAYOUT_LABELS,
    MOMENTUM_PRESET,
    PRESETS,
    SCHEME_LABELS,
)

DEFAULT_SETUP = fd.Setup((2, 4, 8), "btf", "layer", 2, 0.0, 1.0, 0, False, DEFAULT_BACKEND)
SAME = 10.0  # two gaps within this factor of each other are "about equally far"


def questions(setup: fd.Setup = DEFAULT_SETUP) -> tuple[Question, ...]:
    """Three questions on the page's setup: Keras's default ε, the farthest framework, momentum."""
    return (_eps(setup), _farthest(setup), _momentum())


def state(setup: fd.Setup, **extra: str) -> dict[str, str]:
    """The page's URL values for this setup (radio values as the page's link writes them)."""
    s = setup
    query = {"scheme": SCHEME_LABELS[s.scheme], "layout": LAYOUT_LABELS[s.layout]}
    sizes = ("n", "c", "h", "w") if s.layout == "nchw" else ("n", "h", "w", "c")
    if s.layout == "btf":
        sizes = ("n", "h", "c")
    query |= {k: str(v) for k, v in zip(sizes, s.shape, strict=True)}
    query |= {"g": str(s.groups), "loc": f"{s.loc:g}", "sd": f"{s.spread:g}",
              "seed": str(s.seed), "backend": KERAS_BACKEND_NAMES[s.backend],
              "match": str(s.match).lower()}  # fmt: skip
    return query | extra


def _eps_text(framework: str, scheme: str) -> str:
    conv = CONVENTIONS[framework, scheme]
    value = eps_label(effective_eps(conv))
    return f"{value} (float32's machine ε)" if conv.eps is None else value


def _eps(s: fd.Setup) -> Question:
    """Keras's output over PyTorch's on a small variance: √((σ² + ε_PyTorch)/(σ² + ε_Keras))."""
    keras, torch = CONVENTIONS["keras", s.scheme], CONVENTIONS["pytorch", s.scheme]
    small = PRESETS[EPS_PRESET]["sd"]
    var, stat = small**2, "mean square" if s.scheme == "rms" else "variance"
    e_k, e_t = effective_eps(keras), effective_eps(torch)
    answer = math.sqrt((var + e_t) / (var + e_k))
    return number(
        "eps",
        f"By default PyTorch's `{torch.layer}` adds ε = {_eps_text('pytorch', s.scheme)} and "
        f"Keras's `{keras.layer}` ε = {_eps_text('keras', s.scheme)}. Feed both a vector whose "
        f"{stat} is σ² = {eps_label(var)} (spread {small:g}), with γ = 1 and β = 0. Each "
        "output entry of Keras is what fraction of PyTorch's?",
        answer,
        link("frameworks", f"Show {SCHEME_LABELS[s.scheme]} norm on a small variance",
             **state(s, sd=f"{small:g}", match="false")),
        hint="Both divide the same numerator by √(σ² + ε), each with its own ε: take the ratio "
        "√(σ² + ε_PyTorch)/√(σ² + ε_Keras).",
        explanation=f"√({eps_label(var)} + {eps_label(e_t)})/√({eps_label(var)} + "
        f"{eps_label(e_k)}) ≈ {answer:.3g}. When σ² is not much larger than ε, the default ε "
        "alone changes the output; at spread 1 the same ratio is "
        f"{math.sqrt((1 + e_t) / (1 + e_k)):.6g}.",
    )  # fmt: skip


def farthest(comp: fd.Comparison) -> int:
    """0: Keras is farther from PyTorch than Flax by over SAME, 1: Flax is, 2: neither; NaN: inf."""
    k, f = (comp.max_abs(a, "pytorch") for a in ("keras", "flax"))
    k, f = (math.inf if math.isnan(v) else v for v in (k, f))
    if k == f or (max(k, f) <= SAME * min(k, f)):
        return 2
    return 0 if k > f else 1


def _farthest(s: fd.Setup) -> Question:
    x = fd.sample_input(s.shape, s.loc, s.spread, s.seed)
    comp = fd.compare(x, s.scheme, s.layout, groups=s.groups, match=s.match, backend=s.backend)
    keras = framework_label("keras", s.backend)
    right = farthest(comp)
    k_gap, f_gap = (gap(comp.max_abs(f, "pytorch")) for f in ("keras", "flax"))
    why = (
        "within a factor of 10 of each other, so neither stands out"
        if right == 2 else "its ε (or its E[x²] − E[x]² variance) is farther from PyTorch's"
    )  # fmt: skip
    matched = " with PyTorch's ε written out" if s.match else " with their own defaults"
    return choice(
        "farthest",
        f"Input mean {s.loc:g}, spread {s.spread:g}, {SCHEME_LABELS[s.scheme]} norm"
        f"{matched}: whose output will land farthest from PyTorch's?",
        (keras, FRAMEWORK_NAMES["flax"], "Both about equally far (within a factor of 10)"),
        right,
        link("frameworks", "Show these outputs", **state(s)),
        hint="Compare each default ε with σ², and ask who computes E[x²] − E[x]² when the "
        "mean is large next to the spread.",
        explanation=f"The largest gaps to PyTorch are {keras} {k_gap}, Flax {f_gap}: {why}.",
    )


def _momentum() -> Question:
    keras = CONVENTIONS["keras", "batch"]
    m = float(keras.momentum or 0.0)
    answer = 1 - m  # PyTorch's momentum weights the new batch, Keras's the old value
    p = PRESETS[MOMENTUM_PRESET]
    x = fd.sample_input((p["n"], p["h"], p["c"]), p["loc"], p["sd"], 0)
    stats = {s.label: s for s in fd.running_statistics(x, "btf", p["steps"])}
    copied, own = stats["PyTorch, 0.99 copied"], stats[f"Keras, momentum {m:g}"]
    setup = fd.Setup((p["n"], p["h"], p["c"]), "btf", "batch", 2, p["loc"], p["sd"], 0, False)
    return number(
        "momentum",
        f"Keras's `BatchNormalization(momentum={m:g})` keeps {m:.0%} of the old running "
        "value at each training step. What momentum must PyTorch's `BatchNorm1d` be given to "
        "update the same way?",
        answer,
        link("frameworks", "Show the running statistics",
             **state(setup, steps=str(p["steps"]))),
        hint="PyTorch's momentum is the weight of the new batch, not of the old value.",
        explanation=f"1 − {m:g} = {answer:.2g}. Copying {m:g} keeps only {1 - m:.0%} of the "
        "old value, so the running statistics follow each new batch instead of averaging "
        f"many. On the one batch repeated here that looks fast: after {p['steps']} steps "
        f"PyTorch given {m:g} evaluates {gap(copied.eval_gap)} away from its training output "
        f"while Keras, still averaging from its starting values, is {gap(own.eval_gap)} away. "
        "On real data, statistics that follow each batch are as noisy as one batch.",
        rel_tol=1e-6,
    )  # fmt: skip
