"""Conventions that change the numbers: where epsilon sits, the divisor, framework recipes."""

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
    """(x - mu)/sqrt(v + eps), (x - mu)/(sqrt(v) + eps), and both with v' = S(x - mu)^2/(d - 1)."""
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
    """What one framework's layer norm computes for float32 input, as read in `source`."""

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
    """Each recipe's layer norm of one sample stored in float32, with its error."""
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
    """max |y_a - y_b| between exact layer norms that differ only in epsilon."""
    ya, yb = reference(x, eps_a), reference(x, eps_b)  # (1, n) each
    return float(np.max(np.abs(ya - yb)))
