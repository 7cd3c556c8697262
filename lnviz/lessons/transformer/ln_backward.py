"""Layer norm's backward: dL/dx = (g - mean(g) 1 - x_hat mean(g x_hat)) / sigma, g = dL/dx_hat."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk


def ln_forward(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """x_hat = (x - mu) / sqrt(q + eps) and 1 / sigma, last axis; unchecked: the stack's kernel."""
    mu = x.mean(axis=-1, keepdims=True)  # (..., 1)
    v = x - mu  # (..., d)
    q = (v * v).mean(axis=-1, keepdims=True)  # (..., 1) population variance
    inv_sigma = 1.0 / np.sqrt(q + eps)  # (..., 1)
    return v * inv_sigma, inv_sigma


def ln_backward(g: np.ndarray, xhat: np.ndarray, inv_sigma: np.ndarray) -> np.ndarray:
    """dL/dx = (1/sigma) (g - mean(g) - x_hat mean(g x_hat)) over the last axis (no checks)."""
    g_mean = g.mean(axis=-1, keepdims=True)  # (..., 1)
    gx_mean = (g * xhat).mean(axis=-1, keepdims=True)  # (..., 1)
    return inv_sigma * (g - g_mean - xhat * gx_mean)


@dataclass(frozen=True)
class LayerNormBackward:
    """Backward of y = gamma * x_hat + beta: re-centred, and eps / (q + eps) kept along x_hat."""

    x: np.ndarray  # (T, d) input tokens
    grad_y: np.ndarray  # (T, d) upstream gradient dL/dy
    gamma: np.ndarray  # (d,) gain
    eps: float
    mu: np.ndarray  # (T,) mean of each token
    q: np.ndarray  # (T,) population variance of each token
    sigma: np.ndarray  # (T,) sqrt(q + eps)
    x_hat: np.ndarray  # (T, d) normalized tokens; |x_hat|^2 = d q / (q + eps)
    g: np.ndarray  # (T, d) gamma * dL/dy, the gradient reaching x_hat
    grad_x: np.ndarray  # (T, d) dL/dx
    grad_gamma: np.ndarray  # (d,) sum_t dL/dy * x_hat
    grad_beta: np.ndarray  # (d,) sum_t dL/dy
    grad_mean: np.ndarray  # (T,) mean of dL/dx per token: 0 up to rounding
    along_x_hat: np.ndarray  # (T,) dL/dx . x_hat
    predicted_along: np.ndarray  # (T,) (g . x_hat) eps / (sigma (q + eps)), the same number
    kept_fraction: np.ndarray  # (T,) eps / (q + eps): the share of the radial part kept
    radial_removed: bool  # eps == 0: dL/dx is orthogonal to x_hat


def layer_norm_backward(
    x: ArrayLike, grad_y: ArrayLike, gamma: ArrayLike | None = None, eps: float = 1e-5
) -> LayerNormBackward:
    """The input gradient of layer norm for tokens x (T, d) and upstream dL/dy (T, d)."""
    xs = chk.matrix(x, "x", rows=(1, 4096), cols=(2, 4096))
    gs = chk.matrix(grad_y, "grad_y", rows=(1, 4096), cols=(2, 4096))
    if gs.shape != xs.shape:
        raise LnvizError("grad_y", gs, f"an array of the shape of x, {xs.shape}")
    d = xs.shape[1]
    gam = chk.vector(gamma, "gamma", d, 1.0)
    e = chk.number(eps, "eps", 0.0, 1e6)
    q = ((xs - xs.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1)  # (T,)
    if e == 0.0 and (q == 0.0).any():
        raise LnvizError("x", xs, "with eps = 0 every token must have variance > 0")
    x_hat, inv_sigma = ln_forward(xs, e)  # (T, d), (T, 1)
    g = gam * gs  # (T, d)
    grad_x = ln_backward(g, x_hat, inv_sigma)  # (T, d)
    sigma = 1.0 / inv_sigma[:, 0]  # (T,)
    kept = e / (q + e)  # (T,)
    return LayerNormBackward(
        x=xs,
        grad_y=gs,
        gamma=gam,
        eps=e,
        mu=xs.mean(axis=-1),
        q=q,
        sigma=sigma,
        x_hat=x_hat,
        g=g,
        grad_x=grad_x,
        grad_gamma=(gs * x_hat).sum(axis=0),
        grad_beta=gs.sum(axis=0),
        grad_mean=grad_x.mean(axis=-1),
        along_x_hat=(grad_x * x_hat).sum(axis=-1),
        predicted_along=(g * x_hat).sum(axis=-1) * kept / sigma,
        kept_fraction=kept,
        radial_removed=e == 0.0,
    )
