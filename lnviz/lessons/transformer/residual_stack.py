"""A stack of residual MLP blocks with layer norm before or after the add, at initialization."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, Unpack

import numpy as np

from lnviz.errors import LnvizError
from lnviz.lessons.transformer import checks as chk
from lnviz.lessons.transformer.ln_backward import ln_backward, ln_forward
from lnviz.lessons.transformer.stack_parts import (
    activate,
    check_sizes,
    gram_norm,
    input_scale,
    packed_signs,
    signs,
    stack_inputs,
    xavier_scale,
)

PLACEMENTS = ("pre", "post", "scaled")
PRECISIONS = ("float64", "float32")  # float32: about twice as fast, for the page
ACTIVATIONS = ("relu", "gelu")  # gelu: the tanh approximation (torch approximate="tanh")
TOKENS_DEFAULT = 8  # at width 256 the cost barely depends on 1..8 tokens (docs/modules.md)


class StackOptions(TypedDict, total=False):
    """Settings residual_stack and compare_placements share; run_placements holds their defaults."""

    hidden: int | None  # H, 1..1024; None: 4 * width
    seed: int  # 0: draws the inputs, the projection r and the weights' signs
    activation: str  # "relu" or "gelu"
    eps: float  # 1e-5: layer norm's eps, in [0, 1]
    precision: str  # "float64" or "float32"


@dataclass(frozen=True)
class StackRun:
    """One placement's forward and backward pass; layer l of the arrays is block l + 1."""

    placement: str  # "pre", "post" or "scaled"
    activation: str  # "relu" or "gelu"
    depth: int  # L
    width: int  # d
    hidden: int  # H
    tokens: int  # T
    seed: int
    eps: float  # layer norm's eps
    precision: str  # "float64" or "float32": the dtype of every array below
    inputs: np.ndarray  # (T, d) x_0 ~ N(0, 1)
    projection: np.ndarray  # (T, d) r ~ N(0, 1): loss = (1/T) sum(r * y)
    stream: np.ndarray  # (L + 1, T, d) residual stream x_0 .. x_L
    block_input: np.ndarray  # (L, T, d) a_l, what F_l reads (x_{l-1} or c_l LN(x_{l-1}))
    pre_activation: np.ndarray  # (L, T, H) a_l W1_l
    block_output: np.ndarray  # (L, T, d) F_l(a_l)
    output: np.ndarray  # (T, d) y
    loss: float
    stream_norm: np.ndarray  # (L + 1,) mean over tokens of |x_l|
    grad_stream: np.ndarray  # (L + 1, T, d) dL/dx_l
    grad_stream_norm: np.ndarray  # (L + 1,) mean over tokens of |dL/dx_l|
    grad_w1_norm: np.ndarray  # (L,) Frobenius norm of dL/dW1_l
    grad_w2_norm: np.ndarray  # (L,) Frobenius norm of dL/dW2_l
    grad_w1: np.ndarray | None  # (L, d, H) dL/dW1_l when asked for (weight_grads=True)
    grad_w2: np.ndarray | None  # (L, H, d)
    sweep_depths: tuple[int, ...] = ()  # depths L' <= L whose stacks were read off this one
    sweep_last: np.ndarray | None = None  # (k,) |dL/dW_L'| of the depth-L' stack's last block

    @property
    def grad_norm(self) -> np.ndarray:
        """(L,) the block's weight-gradient norm, sqrt(|dL/dW1|^2 + |dL/dW2|^2)."""
        return np.hypot(self.grad_w1_norm, self.grad_w2_norm)


@dataclass(frozen=True)
class PlacementComparison:
    """The three placements on the same inputs, weights and projection."""

    pre: StackRun
    post: StackRun
    scaled: StackRun

    def run(self, placement: str) -> StackRun:
        return getattr(self, chk.choice(placement, "placement", PLACEMENTS))


def _run(
    placements: tuple[str, ...],
    L: int,
    d: int,
    T: int,
    H: int,
    seed: int,
    activation: str,
    eps: float,
    weight_grads: bool,
    dtype: np.dtype,
    sweep: tuple[int, ...] = (),
) -> list[StackRun]:
    """All placements in one pass: stacking their tokens reads each weight matrix once per pass."""
    P = len(placements)
    norm_in = [i for i, p in enumerate(placements) if p != "post"]
    norm_out = [i for i, p in enumerate(placements) if p == "post"]
    w_scale = xavier_scale(d, H)
    x0, r = stack_inputs(d, T, seed)
    stream = np.empty((L + 1, P, T, d), dtype)
    block_in = np.empty((L, P, T, d), dtype)
    pre_act = np.empty((L, P, T, H), dtype)
    block_out = np.empty((L, P, T, d), dtype)
    xhat_in = np.empty((L, P, T, d), dtype)  # LN(x_{k-1}) where layer norm comes first
    inv_in = np.empty((L, P, T, 1), dtype)
    xhat_out = np.empty((L, P, T, d), dtype)  # LN(x_{k-1} + F) where it comes after the add
    inv_out = np.empty((L, P, T, 1), dtype)
    packed = [packed_signs(seed, layer, d, H) for layer in range(1, L + 1)]
    idx_in = np.array(norm_in, dtype=np.intp)  # (P_in,) placements with LN before the block
    scale_in = np.array(  # (L, P_in, 1, 1) what each such LN output is multiplied by
        [[input_scale(placements[i], k) for i in norm_in] for k in range(L)], dtype
    ).reshape(L, len(norm_in), 1, 1)
    stream[0] = x0
    for k in range(L):
        x = stream[k]  # (P, T, d)
        a = block_in[k]  # (P, T, d)
        a[:] = x
        if norm_in:  # every such placement's layer norm in one call
            xh, inv = ln_forward(x[idx_in], eps)  # (P_in, T, d), (P_in, T, 1)
            xhat_in[k, idx_in], inv_in[k, idx_in] = xh, inv
            a[idx_in] = scale_in[k] * xh
        s1, s2 = signs(packed[k], d, H, dtype)
        h = pre_act[k]  # (P, T, H)
        np.matmul(a.reshape(P * T, d), s1, out=h.reshape(P * T, H))
        h *= w_scale  # a_l W1_l
        phi, _ = activate(h, activation)
        f = block_out[k]  # (P, T, d)
        np.matmul(phi.reshape(P * T, H), s2, out=f.reshape(P * T, d))
        f *= w_scale  # F_l(a_l) = phi(h) W2_l
        s = x + f  # (P, T, d)
        for i in norm_out:
            xhat_out[k, i], inv_out[k, i] = ln_forward(s[i], eps)
            s[i] = xhat_out[k, i]
        stream[k + 1] = s
    y = stream[L].copy()  # (P, T, d)
    xhat_fin = np.empty((P, T, d), dtype)
    inv_fin = np.empty((P, T, 1), dtype)
    for i in norm_in:
        xhat_fin[i], inv_fin[i] = ln_forward(stream[L, i], eps)
        y[i] = xhat_fin[i]
    loss = (y * r).sum(axis=(1, 2), dtype=np.float64) / T  # (P,)

    # backward ---------------------------------------------------------------------------
    sweep_at = {depth: j for j, depth in enumerate(sweep)}  # L' -> its row
    sweep_last = np.empty((len(sweep), P))

    def sub_stack_last(k: int, phi: np.ndarray, dphi: np.ndarray, s2: np.ndarray) -> np.ndarray:
        """(P,) |dL/dW| of block k + 1 when it is the last block (a depth k + 1 stack)."""
        g0 = np.empty((P, T, d), dtype)
        g0[:] = r / T  # dL/dy, y = x_{k+1} (post) or LN(x_{k+1})
        for i in norm_in:  # LN(x_{k+1}) is the next block's input layer norm, or the final one
            xh, inv = (
                (xhat_fin[i], inv_fin[i]) if k + 1 == L else (xhat_in[k + 1, i], inv_in[k + 1, i])
            )
            g0[i] = ln_backward(g0[i], xh, inv)
        for i in norm_out:  # x_{k+1} = LN(x_k + F)
            g0[i] = ln_backward(g0[i], xhat_out[k, i], inv_out[k, i])
        g_h = (g0.reshape(P * T, d) @ s2.T).reshape(P, T, -1)  # (P, T, H)
        g_h *= dphi
        g_h *= w_scale
        return np.hypot(gram_norm(phi, g0), gram_norm(block_in[k], g_h))

    grad_stream = np.empty((L + 1, P, T, d), dtype)
    gw1 = np.empty((L, P))
    gw2 = np.empty((L, P))
    full_w1 = np.empty((L, P, d, H), dtype) if weight_grads else None
    full_w2 = np.empty((L, P, H, d), dtype) if weight_grads else None
    g = np.empty((P, T, d), dtype)
    g[:] = r / T  # dL/dy
    for i in norm_in:
        g[i] = ln_backward(g[i], xhat_fin[i], inv_fin[i])
    grad_stream[L] = g
    for k in range(L - 1, -1, -1):
        g_s = g.copy()  # dL/ds, s = x_{k-1} + F(a)
        for i in norm_out:
            g_s[i] = ln_backward(g[i], xhat_out[k, i], inv_out[k, i])
        s1, s2 = signs(packed[k], d, H, dtype)  # again: keeping L of them costs more
        phi, dphi = activate(pre_act[k], activation)
        gw2[k] = gram_norm(phi, g_s)
        g_h = (g_s.reshape(P * T, d) @ s2.T).reshape(P, T, H)
        g_h *= dphi
        g_h *= w_scale  # dL/d(a W1)
        gw1[k] = gram_norm(block_in[k], g_h)
        if full_w1 is not None and full_w2 is not None:
            full_w2[k] = phi.transpose(0, 2, 1) @ g_s
            full_w1[k] = block_in[k].transpose(0, 2, 1) @ g_h
        g_a = (g_h.reshape(P * T, H) @ s1.T).reshape(P, T, d)
        g_a *= w_scale  # dL/da
        if norm_in:
            g_a[idx_in] = ln_backward(
                scale_in[k] * g_a[idx_in], xhat_in[k, idx_in], inv_in[k, idx_in]
            )
        g = g_s + g_a  # the residual path and the block's path
        grad_stream[k] = g
        if k + 1 in sweep_at:
            sweep_last[sweep_at[k + 1]] = sub_stack_last(k, phi, dphi, s2)

    runs = []
    for i, placement in enumerate(placements):
        runs.append(
            StackRun(
                placement=placement,
                activation=activation,
                depth=L,
                width=d,
                hidden=H,
                tokens=T,
                seed=seed,
                eps=eps,
                precision=dtype.name,
                inputs=x0,
                projection=r,
                stream=stream[:, i],
                block_input=block_in[:, i],
                pre_activation=pre_act[:, i],
                block_output=block_out[:, i],
                output=y[i],
                loss=float(loss[i]),
                stream_norm=np.linalg.norm(stream[:, i], axis=-1).mean(axis=-1),
                grad_stream=grad_stream[:, i],
                grad_stream_norm=np.linalg.norm(grad_stream[:, i], axis=-1).mean(axis=-1),
                grad_w1_norm=gw1[:, i].copy(),
                grad_w2_norm=gw2[:, i].copy(),
                grad_w1=None if full_w1 is None else full_w1[:, i],
                grad_w2=None if full_w2 is None else full_w2[:, i],
                sweep_depths=tuple(sweep),
                sweep_last=sweep_last[:, i].copy(),
            )
        )
    return runs


def residual_stack(
    placement: str = "pre",
    depth: int = 12,
    width: int = 64,
    tokens: int = TOKENS_DEFAULT,
    *,
    weight_grads: bool = False,
    **options: Unpack[StackOptions],
) -> StackRun:
    """Forward and hand-written backward pass of one placement at initialization."""
    p = chk.choice(placement, "placement", PLACEMENTS)
    return run_placements((p,), depth, width, tokens, weight_grads=weight_grads, **options)[0]


def compare_placements(
    depth: int = 12,
    width: int = 64,
    tokens: int = TOKENS_DEFAULT,
    *,
    sweep_depths: tuple[int, ...] = (),
    **options: Unpack[StackOptions],
) -> PlacementComparison:
    """Pre-LN, Post-LN and the scaled Pre-LN on the same weights, inputs and loss."""
    runs = run_placements(PLACEMENTS, depth, width, tokens, sweep=sweep_depths, **options)
    return PlacementComparison(*runs)


def run_placements(
    placements: tuple[str, ...],
    depth: object,
    width: object,
    tokens: object,
    *,
    hidden: object = None,
    seed: object = 0,
    activation: object = "relu",
    eps: object = 1e-5,
    precision: object = "float64",
    weight_grads: bool = False,
    sweep: object = (),
) -> list[StackRun]:
    """The placements' runs, every argument checked; the defaults of StackOptions are here."""
    L, d, T, H, s = check_sizes(depth, width, tokens, hidden, seed)
    act = chk.choice(activation, "activation", ACTIVATIONS)
    e = chk.number(eps, "eps", 0.0, 1.0)
    dtype = np.dtype(chk.choice(precision, "precision", PRECISIONS))
    if not isinstance(sweep, list | tuple) or len(sweep) > 16:
        raise LnvizError(
            "sweep_depths", sweep, f"up to 16 depths, each a whole number from 1 to {L}"
        )
    depths = tuple(chk.whole(v, "sweep_depths", 1, L) for v in sweep)
    return _run(tuple(placements), L, d, T, H, s, act, e, bool(weight_grads), dtype, depths)
