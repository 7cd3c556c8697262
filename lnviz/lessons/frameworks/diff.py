"""How far apart the frameworks' outputs land, one suspect at a time: ε, fast variance, momentum."""

from __future__ import annotations

import functools
import statistics
from dataclasses import dataclass

import numpy as np

from lnviz.errors import LnvizError
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    DEFAULT_BACKEND,
    FRAMEWORKS,
    Run,
    canonical,
    channel_axis,
    effective_eps,
    emulate,
    framework_label,
    torch_reference,
)

PAIRS = (("keras", "pytorch"), ("flax", "pytorch"), ("keras", "flax"))
DIAGNOSIS_STEPS = ("own defaults", "PyTorch's ε", "PyTorch's ε, two-pass variance")


def sample_input(shape: tuple[int, ...], loc: float, spread: float, seed: int) -> np.ndarray:
    """loc + spread * N(0, 1), rounded to float32 (every framework's default dtype)."""
    rng = np.random.default_rng(int(seed))
    return (loc + spread * rng.standard_normal(shape)).astype(np.float32)  # layout shape


def display(arr: np.ndarray, layout: str) -> np.ndarray:
    """A 2-D view for heatmaps: one row per (example, position), one column per channel."""
    xc = canonical(arr, layout)  # (N, P, C)
    return xc.reshape(-1, xc.shape[-1]).astype(np.float64)  # (N*P, C)


@dataclass(frozen=True)
class Comparison:
    """Every framework's output on the same float32 input, with its own (or PyTorch's) ε."""

    scheme: str
    layout: str
    groups: int
    match: bool
    backend: str  # Keras's backend
    x: np.ndarray  # layout shape, float32
    outputs: dict[str, np.ndarray]  # framework -> layout shape; PyTorch's via lnviz kernels
    runs: dict[str, Run]  # framework -> emulation with its statistics

    def delta(self, a: str, b: str) -> np.ndarray:
        """(rows, C) output of a minus output of b, in float64, for a heatmap."""
        return display(self.outputs[a], self.layout) - display(self.outputs[b], self.layout)

    def max_abs(self, a: str, b: str) -> float:
        """max |y_a - y_b|; NaN when either output has NaN entries."""
        d = self.delta(a, b)
        return float("nan") if np.isnan(d).any() else float(np.abs(d).max())


def compare(
    x: np.ndarray,
    scheme: str,
    layout: str,
    *,
    groups: int = 1,
    match: bool = False,
    backend: str = DEFAULT_BACKEND,
) -> Comparison:
    """Each framework's layer on x (Keras on `backend`); match: PyTorch's ε (Flax: two-pass)."""
    runs: dict[str, Run] = {}
    for f in FRAMEWORKS:
        if match and f != "pytorch":
            e = effective_eps(CONVENTIONS["pytorch", scheme], x.dtype)
            fast = None if f == "keras" else False
            runs[f] = emulate(x, scheme, layout, f, groups=groups, eps=e, fast_variance=fast,
                              backend=backend)  # fmt: skip
        else:
            runs[f] = emulate(x, scheme, layout, f, groups=groups, backend=backend)
    outputs = {f: runs[f].output for f in FRAMEWORKS}
    outputs["pytorch"] = torch_reference(x, scheme, layout, groups=groups)
    return Comparison(scheme, layout, groups, match, backend, x, outputs, runs)


@dataclass(frozen=True)
class Diagnosis:
    """max |y - y_PyTorch| at each step of DIAGNOSIS_STEPS, for Keras and Flax."""

    scheme: str
    backend: str  # Keras's backend
    keras: tuple[float, float, float]
    flax: tuple[float, float, float]

    @property
    def labels(self) -> tuple[str, str, str]:
        """The three steps; RMS norm has no variance, so its last step aligns nothing new."""
        if self.scheme == "rms":
            return (*DIAGNOSIS_STEPS[:2], "PyTorch's ε (RMS norm: no variance to align)")
        return DIAGNOSIS_STEPS

    def of(self, framework: str) -> tuple[float, float, float]:
        """The three gaps of "keras" or "flax"."""
        return self.keras if framework == "keras" else self.flax


def diagnose(
    x: np.ndarray, scheme: str, layout: str, *, groups: int = 1, backend: str = DEFAULT_BACKEND
) -> Diagnosis:
    """max |y_f - y_PyTorch| of Keras, Flax: defaults, PyTorch's ε, + two-pass; rest: rounding."""
    ref = torch_reference(x, scheme, layout, groups=groups)
    e = effective_eps(CONVENTIONS["pytorch", scheme], x.dtype)
    out = []
    for f in ("keras", "flax"):
        steps = (
            emulate(x, scheme, layout, f, groups=groups, backend=backend),
            emulate(x, scheme, layout, f, groups=groups, eps=e, backend=backend),
            emulate(x, scheme, layout, f, groups=groups, eps=e, fast_variance=False,
                    backend=backend),
        )  # fmt: skip
        a, b, c = (_max_abs(r.output, ref) for r in steps)
        out.append((a, b, c))
    return Diagnosis(scheme, backend, out[0], out[1])


def _max_abs(a: np.ndarray, b: np.ndarray) -> float:
    d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    return float("nan") if np.isnan(d).any() else float(d.max())


@dataclass(frozen=True)
class RunningStats:
    """Batch norm's running mean and variance over repeated training steps on x."""

    label: str
    keep: float  # weight of the old value in each update
    unbiased: bool  # the batch variance fed in uses the divisor m - 1
    eps: float
    target: np.ndarray  # (C,) the batch variance fed into the average
    mean: np.ndarray  # (S+1, C) running mean after 0..S steps
    var: np.ndarray  # (S+1, C) running variance after 0..S steps
    eval_output: np.ndarray  # layout shape: evaluation-mode output after S steps
    eval_gap: float  # max |evaluation output - training output| (batch statistics, same eps)


def running_statistics(x: np.ndarray, layout: str, steps: int) -> tuple[RunningStats, ...]:
    """Running statistics from (0, 1) after `steps` calls on x: r <- keep r + (1 - keep) batch."""
    if not 0 <= steps <= 10_000:
        raise LnvizError("steps", steps, "a whole number from 0 to 10000")
    xc = canonical(x, layout).astype(np.float64)  # (N, P, C)
    rows = xc.reshape(-1, xc.shape[-1])  # (N*P, C): one column per channel
    m = rows.shape[0]
    if m < 2:
        raise LnvizError("x", x.shape, "batch statistics need more than one value per channel")
    mu = rows.mean(axis=0)  # (C,)
    var = ((rows - mu) ** 2).mean(axis=0)  # (C,) biased
    specs = (
        ("PyTorch, momentum 0.1", 0.9, True, "pytorch"),
        ("Keras, momentum 0.99", 0.99, False, "keras"),
        ("Flax, momentum 0.99", 0.99, False, "flax"),
        ("PyTorch, 0.99 copied", 0.01, True, "pytorch"),
    )
    out = []
    for label, keep, unbiased, fw in specs:
        target = var * m / (m - 1) if unbiased else var  # (C,)
        k = keep ** np.arange(steps + 1)[:, None]  # (S+1, 1)
        rm = (1 - k) * mu  # (S+1, C) from 0
        rv = k * 1.0 + (1 - k) * target  # (S+1, C) from 1
        eps = effective_eps(CONVENTIONS[fw, "batch"])
        y = (rows - rm[-1]) / np.sqrt(rv[-1] + eps)  # (N*P, C) evaluation mode
        y_train = (rows - mu) / np.sqrt(var + eps)  # (N*P, C) training mode
        gap = float(np.abs(y - y_train).max())
        y_layout = _from_rows(y, x.shape, layout)
        out.append(RunningStats(label, keep, unbiased, eps, target, rm, rv, y_layout, gap))
    return tuple(out)


def _from_rows(y: np.ndarray, shape: tuple[int, ...], layout: str) -> np.ndarray:
    """(N*P, C) back to the layout's shape."""
    c = shape[channel_axis(layout)]
    if layout == "nchw":
        n, _, h, w = shape
        return y.reshape(n, h, w, c).transpose(0, 3, 1, 2)
    return y.reshape(shape)


@dataclass(frozen=True)
class VarianceError:
    """Relative error of the variance of n values with mean/sd = ratio, by method."""

    ratio: np.ndarray  # (K,) |mean| / standard deviation
    fast32: np.ndarray  # (K,) E[x^2] - E[x]^2 in float32 (Flax; Keras on NumPy, torch)
    twopass32: np.ndarray  # (K,) E[(x - E[x])^2] in float32 (as accurate as PyTorch's)
    fast64: np.ndarray  # (K,) E[x^2] - E[x]^2 in float64
    input_ratio: float  # the page's input: max |mean| / sd over statistic groups
    input_error: float  # the page's input: max relative error of Flax's variance


@functools.cache
def _error_curves() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """variance_error's curves, once per process and read-only: they do not depend on the input."""
    ratio = np.logspace(0, 6, 25)  # (K,)
    z = np.random.default_rng(0).standard_normal(64)  # (n,)
    errs: dict[str, list[float]] = {"f32": [], "t32": [], "f64": []}
    for r in ratio:
        for key, dt in (("f32", np.float32), ("t32", np.float32), ("f64", np.float64)):
            v = (r + z).astype(dt)  # (n,)
            exact = statistics.pvariance(v.astype(np.float64).tolist())
            two_pass = key == "t32"
            got = np.mean((v - v.mean()) ** 2) if two_pass else np.mean(v * v) - v.mean() ** 2
            errs[key].append(max(abs(float(got) - exact) / exact, 1e-17))
    curves = (ratio, np.array(errs["f32"]), np.array(errs["t32"]), np.array(errs["f64"]))
    for a in curves:
        a.flags.writeable = False  # shared by every call
    return curves


def variance_error(x: np.ndarray, scheme: str, layout: str, *, groups: int = 1) -> VarianceError:
    """Error curves against the exact variance (exact rational arithmetic), and x's point."""
    ratio, fast32, twopass32, fast64 = _error_curves()
    run = emulate(x, scheme, layout, "flax", groups=groups)
    exact_run = emulate(x.astype(np.float64), scheme, layout, "flax", groups=groups, eps=0.0,
                        fast_variance=False)  # fmt: skip
    sd = np.sqrt(exact_run.var)  # (M,)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.abs(run.var - exact_run.var) / exact_run.var  # (M,)
        rat = np.abs(exact_run.mean) / sd  # (M,)
    finite = np.isfinite(rel) & np.isfinite(rat)
    return VarianceError(
        ratio,
        fast32,
        twopass32,
        fast64,
        float(rat[finite].max()) if finite.any() else float("nan"),
        float(rel[finite].max()) if finite.any() else float("nan"),
    )


def pair_label(a: str, b: str, backend: str = DEFAULT_BACKEND) -> str:
    """The display name of a difference (Keras named with its backend)."""
    return f"{framework_label(a, backend)} − {framework_label(b, backend)}"


@dataclass(frozen=True)
class Setup:
    """Everything the framework page computes from: the input and the port's choices."""

    shape: tuple[int, ...]  # in the layout's axis order
    layout: str
    scheme: str
    groups: int  # group norm's G
    loc: float  # mean of the input
    spread: float  # its standard deviation
    seed: int  # random seed of the input
    match: bool  # Keras and Flax written with PyTorch's ε
    backend: str = DEFAULT_BACKEND  # Keras's backend


@dataclass(frozen=True)
class Analysis:
    """The page's results for one Setup: outputs, the diagnosis, the variance error."""

    setup: Setup
    comparison: Comparison
    diagnosis: Diagnosis
    variance_error: VarianceError


def analyse(setup: Setup) -> Analysis:
    """Draw the input of `setup` and run compare, diagnose and variance_error on it."""
    s = setup
    x = sample_input(s.shape, s.loc, s.spread, s.seed)
    return Analysis(
        s,
        compare(x, s.scheme, s.layout, groups=s.groups, match=s.match, backend=s.backend),
        diagnose(x, s.scheme, s.layout, groups=s.groups, backend=s.backend),
        variance_error(x, s.scheme, s.layout, groups=s.groups),
    )
