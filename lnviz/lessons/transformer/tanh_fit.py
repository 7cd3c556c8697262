"""Layer norm against gamma * tanh(alpha x) + beta (Dynamic Tanh, Zhu et al. 2025)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, Unpack

import numpy as np

from lnviz import layer_norm
from lnviz.lessons.transformer import checks as chk

TOKENS_MAX, WIDTH_MIN, WIDTH_MAX, FIT_POINTS = 1024, 4, 256, 8_000


@dataclass(frozen=True)
class TanhFit:
    """Layer norm's per-element scatter and the best gamma * tanh(alpha x) + beta through it."""

    x: np.ndarray  # (T, d) input tokens
    y: np.ndarray  # (T, d) layer_norm(x), no gain or bias
    eps: float
    outlier: np.ndarray  # (T, d) bool: the entries made outliers
    token_sigma: np.ndarray  # (T,) sqrt(var + eps) of each token: its line has slope 1/sigma
    alpha: float
    gamma: float
    beta: float
    fitted: np.ndarray  # (T, d) gamma * tanh(alpha x) + beta
    residual: np.ndarray  # (T, d) y - fitted
    rms_residual: float
    r2: float  # 1 - SSE / SST of the tanh fit
    linear_r2: float  # the same for the best straight line y = a x + b, for contrast
    alpha_grid: np.ndarray  # (A,) the alphas tried (coarse, then fine)
    sse_grid: np.ndarray  # (A,) the least-squares error at each


class SampleOptions(TypedDict, total=False):
    """sample_activations()'s settings, which tanh_fit() passes on (defaults there)."""

    tokens: int  # 256: T, 1..1024
    width: int  # 64: d, 4..256
    outlier_fraction: float  # 0.1: the share of tokens with outliers, in [0, 1]
    outlier_scale: float  # 20: an outlier is +-outlier_scale * s_t, in [1, 100]
    seed: int  # 0


def sample_activations(
    tokens: int = 256,
    width: int = 64,
    outlier_fraction: float = 0.1,
    outlier_scale: float = 20.0,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Tokens x = s_t z_t (T, d), and the mask of outliers in round(outlier_fraction * T) tokens."""
    T = chk.whole(tokens, "tokens", 1, TOKENS_MAX)
    d = chk.whole(width, "width", WIDTH_MIN, WIDTH_MAX)
    frac = chk.number(outlier_fraction, "outlier_fraction", 0.0, 1.0)
    big = chk.number(outlier_scale, "outlier_scale", 1.0, 100.0)
    rng = np.random.default_rng(chk.seed(seed))
    scale = np.exp(rng.normal(0.0, 0.5, size=(T, 1)))  # (T, 1)
    x = scale * rng.standard_normal((T, d))  # (T, d)
    mask = np.zeros((T, d), bool)
    has = np.zeros(T, bool)  # (T,) exactly round(frac T) tokens, so "10 %" shows 10 %
    has[rng.permutation(T)[: round(frac * T)]] = True
    k = 2 if d >= 8 else 1
    mask[np.ix_(has, np.arange(k))] = True
    signs = rng.choice((-1.0, 1.0), size=(T, d))
    x = np.where(mask, signs * big * scale, x)
    return x, mask


def tanh_fit(*, eps: float = 1e-5, **sample: Unpack[SampleOptions]) -> TanhFit:
    """Layer norm of sample_activations(**sample), and gamma * tanh(alpha x) + beta fitted to it."""
    x, mask = sample_activations(**sample)
    e = chk.number(eps, "eps", 0.0, 1.0)
    y = layer_norm(x, x.shape[-1:], eps=e)  # (T, d)
    sigma = np.sqrt(x.var(axis=1) + e)  # (T,)
    xf, yf = x.ravel(), y.ravel()  # (N,)
    step = max(1, xf.size // FIT_POINTS)  # a deterministic subsample for the grid search
    xs, ys = xf[::step], yf[::step]
    unit = 1.0 / float(np.median(np.abs(xf)) + 1e-12)  # alpha in units of 1 / typical |x|
    coarse = unit * np.logspace(-3.0, 2.0, 81)  # (A,)
    sse_c = _sse(coarse, xs, ys)
    b = int(np.argmin(sse_c))
    fine = np.linspace(coarse[max(b - 1, 0)], coarse[min(b + 1, coarse.size - 1)], 41)
    sse_f = _sse(fine, xs, ys)
    alpha = float(fine[int(np.argmin(sse_f))])
    t = np.tanh(alpha * xf)  # (N,) on every point
    gamma, beta = _line(t, yf)
    fitted = (gamma * np.tanh(alpha * x) + beta).reshape(x.shape)  # (T, d)
    resid = y - fitted
    sst = float(((yf - yf.mean()) ** 2).sum())
    a_lin, b_lin = _line(xf, yf)
    sse_lin = float(((yf - a_lin * xf - b_lin) ** 2).sum())
    grid = np.concatenate([coarse, fine])
    order = np.argsort(grid, kind="stable")
    return TanhFit(
        x=x,
        y=y,
        eps=e,
        outlier=mask,
        token_sigma=sigma,
        alpha=alpha,
        gamma=gamma,
        beta=beta,
        fitted=fitted,
        residual=resid,
        rms_residual=float(np.sqrt((resid**2).mean())),
        r2=1.0 - float((resid**2).sum()) / sst,
        linear_r2=1.0 - sse_lin / sst,
        alpha_grid=grid[order],
        sse_grid=np.concatenate([sse_c, sse_f])[order],
    )


def _line(t: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least squares y ~ g t + b: g = cov(t, y) / var(t), b = mean(y) - g mean(t)."""
    tc = t - t.mean()
    var = float(tc @ tc)
    g = float(tc @ (y - y.mean())) / var if var > 0 else 0.0
    return g, float(y.mean() - g * t.mean())


def _sse(alphas: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(A,) the least-squares error of y ~ gamma tanh(alpha x) + beta for each alpha."""
    t = np.tanh(alphas[:, None] * x[None, :])  # (A, n)
    tc = t - t.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    var = (tc * tc).sum(axis=1)  # (A,)
    cov = tc @ yc  # (A,)
    with np.errstate(divide="ignore", invalid="ignore"):
        explained = np.where(var > 0, cov * cov / var, 0.0)
    return float(yc @ yc) - explained
