"""Conventions that change the numbers: where epsilon sits, the divisor, framework recipes.

Why: before any rounding, two layer norms can disagree because one adds epsilon outside
the square root or divides by d - 1; after it, because their variance formulas differ.

What each framework computes was read in its source (PyTorch 2.13, Keras 3.15.1, Flax
0.12.8; docs/frameworks-checked.md lists the files and what was also run):

- PyTorch CPU. aten/src/ATen/native/cpu/layer_norm_kernel.cpp: LayerNormKernelImplInternal
  takes (mean, var) = RowwiseMoments(X_ptr, N), then rstd = 1 / sqrt(var + eps).
  moments_utils.h (shipped with 2.13): RowwiseMoments is "Welford algorithm and cascade
  sum" (Welford inside chunks of vectors, chunk states merged pairwise by AddMoments) and
  returns opmath_t, float for float16/bfloat16 inputs. (An early revision, commit
  0354b60c, used max(E[x^2] - E[x]^2, 0); current revisions do not.) No clamp is applied.
  Measured on 2.13: mean and rstd equal a float32 Welford emulation bit for bit in 271 of
  300 rows, a two-pass one in 1.
- Flax linen. flax/linen/normalization.py: LayerNorm has epsilon = 1e-6,
  use_fast_variance = True, force_float32_reductions = True; _compute_stats computes
  mu2 - |mu|^2 and then jnp.maximum(0.0, ...), with reductions in at least float32.
- Keras 3. keras/src/layers/normalization/layer_normalization.py: epsilon = 1e-3; the layer
  calls ops.layer_normalization, whose _layer_normalization (keras/src/ops/nn.py) sends the
  torch backend with contiguous axes to torch.nn.functional.layer_norm and everything else
  through backend moments(), then evaluates x * inv + (-mean * inv). moments() per backend
  (keras/src/backend/*/nn.py): JAX jnp.var and TensorFlow tf.nn.moments, both two-pass;
  NumPy and torch mean(square(x)) - square(mean), not clamped. float16 inputs are cast to
  float32 first. (Older Keras 3 releases called ops.moments in the layer itself.)

Not verified, so not claimed: PyTorch's CUDA and MPS kernels, the order in which XLA sums
inside jnp.mean, and the TensorFlow version (its backend was read, not run). The recipes
below emulate the verified variance formulas on float32 input with pairwise sums and the
output (x - mu) / sqrt(v + eps): expect errors of the same size as the real kernels, not
the same last digits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError, check_eps
from lnviz.lessons.numerics import _rows, normalize, reference

# (label, divisor, epsilon position)
PLACEMENTS = (
    ("√(v + ε)", "d", "inside"),
    ("√v + ε", "d", "outside"),
    ("√(v′ + ε)", "d − 1", "inside"),
    ("√v′ + ε", "d − 1", "outside"),
)


@dataclass(frozen=True)
class Placements:
    """(x - mu) / s for the four combinations of divisor and epsilon position."""

    x: np.ndarray  # (d,)
    eps: float
    mean: float
    variance: float  # v: population variance, divisor d
    unbiased_variance: float  # v': divisor d - 1
    labels: tuple[str, ...]  # (4,)
    scales: np.ndarray  # (4,) the denominators s
    outputs: np.ndarray  # (4, d)


def eps_placements(x: ArrayLike, eps: float) -> Placements:
    """(x - mu)/sqrt(v + eps), (x - mu)/(sqrt(v) + eps), and both with v' = S(x - mu)^2/(d - 1).

    >>> p = eps_placements([1.0, 0.0, 0.0, 0.0], 0.0)
    >>> p.outputs[:, 0].round(6).tolist()  # sqrt(3) with divisor d, 1.5 with d - 1
    [1.732051, 1.732051, 1.5, 1.5]
    """
    arr = _rows(x)[0]  # (d,)
    e = check_eps(eps)
    d = arr.size
    mu = float(arr.mean())
    dev = arr - mu  # (d,)
    ss = float(dev @ dev)  # sum of squared deviations
    v, vu = ss / d, ss / (d - 1)
    scales = np.array([np.sqrt(v + e), np.sqrt(v) + e, np.sqrt(vu + e), np.sqrt(vu) + e])  # (4,)
    with np.errstate(divide="ignore", invalid="ignore"):
        outputs = dev[None, :] / scales[:, None]  # (4, d)
    labels = tuple(p[0] for p in PLACEMENTS)
    return Placements(arr, e, mu, v, vu, labels, scales, outputs)


@dataclass(frozen=True)
class Recipe:
    """What one framework's layer norm computes for float32 input (see the module doc)."""

    key: str
    framework: str
    call: str
    algorithm: str  # one of lnviz.lessons.numerics.ALGORITHMS
    clamp: bool  # negative variance raised to 0
    eps: float  # the framework's default
    source: str  # where it was verified


RECIPES = (
    Recipe(
        "pytorch", "PyTorch 2.13 (CPU)", "torch.nn.functional.layer_norm", "welford", False,
        1e-5, "pytorch/pytorch aten/src/ATen/native/cpu/layer_norm_kernel.cpp and "
        "moments_utils.h",
    ),
    Recipe(
        "flax", "Flax linen 0.12.8", "nn.LayerNorm()", "one-pass", True, 1e-6,
        "google/flax flax/linen/normalization.py (LayerNorm, _compute_stats)",
    ),
    Recipe(
        "keras-jax", "Keras 3.15.1, JAX or TensorFlow backend", "layers.LayerNormalization()",
        "two-pass", False, 1e-3,
        "keras-team/keras keras/src/backend/jax/nn.py and backend/tensorflow/nn.py (moments)",
    ),
    Recipe(
        "keras-torch", "Keras 3.15.1, torch backend (F.layer_norm)",
        "layers.LayerNormalization()", "welford", False, 1e-3,
        "keras-team/keras keras/src/ops/nn.py (_layer_normalization)",
    ),
    Recipe(
        "keras-numpy", "Keras 3.15.1, NumPy backend (ops.moments)",
        "layers.LayerNormalization()", "one-pass", False, 1e-3,
        "keras-team/keras keras/src/backend/numpy/nn.py (moments)",
    ),
)  # fmt: skip


@dataclass(frozen=True)
class RecipeRun:
    """One recipe applied to one float32 sample."""

    recipe: Recipe
    variance: float  # as the recipe computes it, before any clamp
    output: np.ndarray  # (n,)
    rel_error: float  # against the float64 truth with the recipe's own eps
    gap_to_first: float  # max |output - output of the first recipe|


def run_recipes(x: ArrayLike, recipes: tuple[Recipe, ...] = RECIPES) -> tuple[RecipeRun, ...]:
    """Each recipe's layer norm of one sample stored in float32, with its error.

    >>> runs = run_recipes(2000.0 + np.arange(-8, 8) / 8)  # exact in float32; v = 0.332
    >>> [f"{r.rel_error:.0e}" for r in runs]
    ['5e-08', '2e-01', '2e-08', '2e-08', '2e-01']
    >>> [r.variance for r in runs]
    [0.33203125, 0.5, 0.33203125, 0.33203125, 0.5]
    """
    arr = _rows(x)
    if arr.shape[0] != 1 or not recipes:
        raise LnvizError("x", arr, "a single sample (one row) and at least one recipe")
    runs: list[RecipeRun] = []
    for rec in recipes:
        r = normalize(arr, rec.algorithm, "float32", rec.eps, clamp=rec.clamp, summation="pairwise")
        first = runs[0].output if runs else r.output[0]
        with np.errstate(invalid="ignore"):
            gap = float(np.max(np.abs(r.output[0] - first)))
        runs.append(RecipeRun(rec, float(r.moments.variance[0]), r.output[0], float(
            r.rel_error[0]), gap))  # fmt: skip
    return tuple(runs)


def truth_gap(x: ArrayLike, eps_a: float, eps_b: float) -> float:
    """max |y_a - y_b| between exact layer norms that differ only in epsilon.

    >>> truth_gap([1.0, 0.0, 0.0, 0.0], 1e-5, 1e-3) > 1e-3
    True
    """
    ya, yb = reference(x, eps_a), reference(x, eps_b)  # (1, n) each
    return float(np.max(np.abs(ya - yb)))
