"""The framework-parity page's words and tables, from its Analysis so they fit the state shown."""

from __future__ import annotations

import math

import numpy as np

from lnviz.content import text
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    KERAS_BACKEND_NAMES,
    VERSIONS,
    arithmetic,
    effective_eps,
    framework_label,
)
from lnviz.lessons.frameworks.code import DefaultsTable
from lnviz.lessons.frameworks.diff import Analysis, Diagnosis, RunningStats, Setup
from lnviz.lessons.frameworks.state import EPS_PRESET, PRESETS

_CLEAR = 10.0  # a step is an effect when it changes a gap by more than this factor


def at_preset(setup: Setup, name: str) -> bool:
    """True when the page shows what preset `name` sets (the fields of Setup it names)."""
    want = PRESETS[name]
    have = {"scheme": setup.scheme, "layout": setup.layout, "loc": setup.loc,
            "sd": setup.spread, "match": setup.match, "backend": setup.backend}  # fmt: skip
    return all(have[k] == v for k, v in want.items() if k in have)


def gap(value: float) -> str:
    """A largest output difference: three significant digits, or NaN when one output had NaN."""
    return text.short(value, 3) if math.isfinite(value) else text.float_result(value)


def defaults_columns(t: DefaultsTable) -> dict[str, tuple[str, ...]]:
    """The defaults table as display columns; RMS norm's statistic is not a variance."""
    eps = tuple(
        text.eps_label(e) + (" (float32's machine ε)" if machine else "")
        for e, machine in zip(t.eps, t.eps_machine, strict=True)
    )
    cols = {
        "framework": t.framework,
        "layer": t.layer,
        "parameters created": t.parameters,
        "default ε": eps,
        ("statistic" if t.scheme == "rms" else "variance"): t.statistic,
    }
    if t.momentum:
        cols["momentum"] = tuple(
            f"{text.short(m)}, the weight of the {w}"
            for m, w in zip(t.momentum, t.momentum_weights, strict=True)
        )
        cols["running variance fed"] = t.running_variance
    return cols


def diagnosis_columns(d: Diagnosis) -> dict[str, tuple[str, ...]]:
    """max |Δ| from PyTorch at each step, one column per framework."""
    return {
        "aligned": d.labels,
        framework_label("keras", d.backend): tuple(gap(v) for v in d.keras),
        framework_label("flax"): tuple(gap(v) for v in d.flax),
    }


def nan_warning(a: Analysis) -> str | None:
    """Which emulation produced NaN and why, or None."""
    parts = [
        f"{framework_label(f, a.setup.backend)} produced NaN in {run.nan_count} entries"
        for f, run in a.comparison.runs.items()
        if run.nan_count
    ]
    if not parts:
        return None
    return (
        "; ".join(parts) + ": its E[x²] − E[x]² came out below −ε, and the square root of a "
        "negative number is not a number."
    )


def _typical_statistic(a: Analysis) -> float:
    """The median variance (RMS: mean square) the input's statistic groups have."""
    return float(np.median(a.comparison.runs["pytorch"].var.astype(np.float64)))


def difference_notes(a: Analysis) -> tuple[str, ...]:
    """What to notice under the difference heatmap, for the state shown."""
    s, d = a.setup, a.diagnosis
    keras = framework_label("keras", s.backend)
    eps = {f: effective_eps(CONVENTIONS[f, s.scheme]) for f in ("pytorch", "keras", "flax")}
    q = _typical_statistic(a)
    stat = "E[x²]" if s.scheme == "rms" else "σ²"

    def factor(f: str) -> str:
        return text.number(math.sqrt((q + eps["pytorch"]) / (q + eps[f])), 6)

    notes = [
        f"Default ε: PyTorch {text.eps_label(eps['pytorch'])}, Keras "
        f"{text.eps_label(eps['keras'])}, Flax {text.eps_label(eps['flax'])}. Each divides by "
        f"√({stat} + ε): at your {stat} ≈ {text.short(q, 3)}, Keras's outputs come out "
        f"{factor('keras')} times PyTorch's, Flax's {factor('flax')} times."
    ]
    if s.scheme != "rms" and s.spread > PRESETS[EPS_PRESET]["sd"]:
        notes.append(
            "Make the spread smaller ('ε matters' preset): as σ² nears ε, each framework "
            "shrinks the output by its own √(σ²/(σ²+ε))."
        )
    k1, k2 = d.keras[1], d.keras[2]  # (with PyTorch's ε, the diagnosis table's second row)
    if arithmetic("keras", s.scheme, s.backend).fast_variance and not k1 <= _CLEAR * k2:
        notes.append(
            f"Even with PyTorch's ε, {keras}'s gap stays: its E[x²] − E[x]² on the "
            f"{KERAS_BACKEND_NAMES[s.backend]} backend has no switch (a two-pass variance "
            f"would give {gap(k2)})."
        )
    return tuple(notes)


def _steps(name: str, gaps: tuple[float, float, float], rms: bool) -> str:
    """Which aligned convention closes one framework's gap, in words, with the numbers."""
    a, b, c = gaps
    if math.isnan(a):
        first = f"{name}: its own variance gives NaN;"
    elif a <= _CLEAR * c:
        return (
            f"{name}: {gap(a)} with its own defaults, within {_CLEAR:g}× of the {gap(c)} that "
            "float32 rounding alone leaves: no convention explains this gap."
        )
    elif b * _CLEAR < a:
        first = f"{name}: PyTorch's ε takes the gap from {gap(a)} to {gap(b)};"
    else:
        first = f"{name}: PyTorch's ε changes little ({gap(a)} → {gap(b)});"
    if rms:
        return first[:-1] + "."
    if math.isnan(b) or b > _CLEAR * c:
        return f"{first} the two-pass variance then brings it to {gap(c)}."
    return f"{first} the variance algorithm adds nothing beyond rounding ({gap(c)})."


def diagnosis_notes(a: Analysis) -> tuple[str, ...]:
    """What to notice under the diagnosis bars (their colours are said above them)."""
    s, d = a.setup, a.diagnosis
    return (
        *(
            ["RMS norm has no variance to compute two ways: green is orange again."]
            if s.scheme == "rms"
            else []
        ),
        _steps(framework_label("keras", s.backend), d.keras, s.scheme == "rms"),
        _steps(framework_label("flax"), d.flax, s.scheme == "rms"),
    )


def variance_notes(a: Analysis) -> tuple[str, ...]:
    """What to notice under the variance-error chart: where the input sits on it."""
    s, v = a.setup, a.variance_error
    if s.scheme == "rms":
        return (
            "RMS norm subtracts no mean, so E[x²] − E[x]² never appears: the chart shows the "
            "formula alone, with no point for your input.",
        )
    fast = ["Flax"]
    if arithmetic("keras", s.scheme, s.backend).fast_variance:
        fast.append(f"Keras on {KERAS_BACKEND_NAMES[s.backend]}")
    point = (
        f"Your input sits at |mean|/sd ≈ {text.short(v.input_ratio, 3)}, where Flax's float32 "
        f"variance is off by {text.rel_error(v.input_error)} (relative). "
        if math.isfinite(v.input_ratio)
        else ""
    )
    hint = "" if s.loc >= 1000 else " (the 'large mean' preset moves there)"
    return (
        f"{point}Far from zero the error of E[x²] − E[x]² outgrows the effect of ε{hint}: "
        f"then ε no longer matters for {' and '.join(fast)}, and only a two-pass variance "
        "closes the gap.",
    )


def batch_notes(stats: tuple[RunningStats, ...], steps: int, k: int) -> tuple[str, ...]:
    """What to notice under the running-variance chart after `steps` steps, k values per channel."""
    gaps = sorted(stats, key=lambda s: s.eval_gap)
    return (
        "PyTorch's momentum 0.1 is the weight of the new batch; Keras's and Flax's 0.99 is "
        "the weight of the old value. Copying 0.99 into PyTorch (dashed) keeps only 1 % of "
        "the old value at each step.",
        f"After many steps PyTorch settles on the unbiased variance k/(k − 1)·σ²_B, Keras and "
        f"Flax on the biased σ²_B: with k = {k} values per channel they differ by the factor "
        f"{text.with_exact(k / (k - 1), 4)}, however long training runs.",
        f"Evaluation uses the running statistics: after {steps} steps its outputs differ from "
        f"the training ones by up to {gap(gaps[-1].eval_gap)} ({gaps[-1].label}) and at least "
        f"{gap(gaps[0].eval_gap)} ({gaps[0].label}).",
    )


SOURCES = f"""- **PyTorch {VERSIONS["pytorch"]}** (installed with lnviz): the signatures and
  docstrings of `nn.LayerNorm`, `nn.GroupNorm`, `nn.RMSNorm`, `nn.BatchNorm1d/2d`,
  `nn.InstanceNorm1d/2d`, and the CPU kernels `layer_norm_kernel.cpp`,
  `group_norm_kernel.cpp`, `batch_norm_kernel.cpp` with `moments_utils.h` (shipped with
  {VERSIONS["pytorch"]}). Layer norm takes Welford moments (blocks merged pairwise), group
  norm too for contiguous input, and E[x²] − E[x]² clamped at 0 for channels-last input;
  batch and instance norm are two-pass with float64 sums. Welford and two-pass both avoid
  the one-pass cancellation but round differently: in float32, Welford's error can be
  several times two-pass's (the numerics lab's sweep shows how much, for sums taken in order
  and pairwise). lnviz's PyTorch column is computed two-pass, so its last bits can differ
  from PyTorch's kernel.
- **Keras {VERSIONS["keras"]}**: `keras/src/layers/normalization/` and `ops.moments` in
  `keras/src/backend/{{jax,tensorflow,torch,numpy}}/nn.py`. Per backend: **JAX**
  (`jnp.var`) and **TensorFlow** (`tf.nn.moments`) compute a two-pass variance; **torch**
  and **NumPy** compute E[x²] − E[x]², not clamped. On the torch backend
  `LayerNormalization` calls `torch.nn.functional.layer_norm` (it differs from PyTorch by ε
  only) and `RMSNormalization` `F.rms_norm`. Only `BatchNormalization(synchronized=True)`
  on TensorFlow uses E[x²] − E[x]², clamped at 0. The Keras column computes what the chosen
  backend computes.
- **Flax {VERSIONS["flax"]}** (linen): `flax/linen/normalization.py` (`_compute_stats`,
  `LayerNorm`, `RMSNorm`, `GroupNorm`, `InstanceNorm`, `BatchNorm`): at least float32,
  E[x²] − E[x]² clamped at 0 unless `use_fast_variance=False`.
- **Run as well as read**: PyTorch, and Keras on the JAX, torch and NumPy backends, and
  Flax linen, at a large mean. **Read but not run**: Keras's TensorFlow backend (the
  TensorFlow version was not established). **Not checked**: GPU kernels and the order in
  which XLA sums. The emulations reproduce each formula in float32, not the summation order.
  Measured against Keras 3.15.1: two-pass and kernel rows agree to a few float32 units of
  the output (about 1e-4 at mean 1000); far from zero, where E[x²] − E[x]² cancels, the
  one-pass rows reproduce the size of the error, not its exact value. Other releases may
  have other defaults."""
