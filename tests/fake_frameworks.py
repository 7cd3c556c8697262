"""Minimal NumPy stand-ins for keras and flax.linen, to execute the generated snippets.

Neither framework is installed here. These fakes follow the structure of the frameworks'
own source, read for the frameworks page (Keras 3.15.1 keras/src/layers/normalization/*.py
on the NumPy backend, keras/src/backend/numpy/nn.py moments, so the tests generate Keras
code for that backend; Flax 0.12.8 flax/linen/normalization.py _compute_stats and
_normalize): they reduce over axes of the real tensor, not over the engine's rows, so they
check the axis arguments the generated code passes. Defaults are repeated here on purpose.
"""

from __future__ import annotations

import types

import numpy as np


def _axes(ndim: int, axis) -> tuple[int, ...]:
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    return tuple(sorted({a % ndim for a in axes}))


def _moments_fast(x: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """keras ops.moments on the NumPy (and torch) backend: E[x^2] - E[x]^2, not clipped.

    JAX and TensorFlow compute a two-pass variance instead (jnp.var, tf.nn.moments)."""
    mean = np.mean(x, axis=axes, keepdims=True)
    var = np.mean(np.square(x), axis=axes, keepdims=True) - np.square(mean)
    return mean, var


class _KerasLayer:
    def build_params(self, shape: tuple[int, ...]) -> None:
        self.param_shape = shape


class LayerNormalization(_KerasLayer):
    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True):
        self.axis, self.epsilon = axis, epsilon

    def __call__(self, x):
        axes = _axes(x.ndim, self.axis)
        self.build_params(tuple(x.shape[a] for a in axes))
        mean, var = _moments_fast(x, axes)
        inv = 1 / np.sqrt(var + np.float32(self.epsilon))
        return x * inv + (-mean * inv)


class RMSNormalization(_KerasLayer):
    def __init__(self, axis=-1, epsilon=1e-6):
        self.axis, self.epsilon = axis, epsilon

    def __call__(self, x):
        axes = _axes(x.ndim, self.axis)
        self.build_params(tuple(x.shape[a] for a in axes))
        rrms = 1 / np.sqrt(np.mean(np.square(x), axis=axes, keepdims=True) + self.epsilon)
        return (x * rrms).astype(x.dtype)


class GroupNormalization(_KerasLayer):
    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True):
        self.groups, self.axis, self.epsilon = groups, axis, epsilon

    def __call__(self, x):
        dim = x.shape[self.axis]
        groups = dim if self.groups == -1 else self.groups
        assert dim % groups == 0
        self.build_params((dim,))
        group_shape = list(x.shape)  # as _reshape_into_groups
        group_shape[self.axis] = dim // groups
        group_shape.insert(self.axis, groups)
        r = x.reshape(group_shape)
        red = list(range(1, r.ndim))
        red.pop(-2 if self.axis == -1 else self.axis - 1)
        mean, var = _moments_fast(r, tuple(red))
        inv = 1 / np.sqrt(var + np.float32(self.epsilon))
        return (r * inv + (-mean * inv)).reshape(x.shape)


class BatchNormalization(_KerasLayer):
    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True):
        self.axis, self.momentum, self.epsilon = axis, momentum, epsilon

    def __call__(self, x, training=None):
        assert training, "the generated code must call batch norm in training mode"
        self.build_params((x.shape[self.axis],))
        red = tuple(a for a in range(x.ndim) if a != self.axis % x.ndim)
        mean, var = _moments_fast(x, red)
        return (x - mean) / np.sqrt(var + np.float32(self.epsilon))


def make_keras() -> types.ModuleType:
    keras = types.ModuleType("keras")
    layers = types.ModuleType("keras.layers")
    for cls in (LayerNormalization, RMSNormalization, GroupNormalization, BatchNormalization):
        setattr(layers, cls.__name__, cls)
    keras.layers = layers
    keras.random = types.SimpleNamespace(
        normal=lambda shape: np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    )
    return keras


# ---- flax.linen -----------------------------------------------------------------------


def _compute_stats(x, axes, use_mean=True, use_fast_variance=True):
    """flax _compute_stats: at least float32; fast variance clipped at 0."""
    axes = _axes(x.ndim, axes)
    x = np.asarray(x, np.promote_types(x.dtype, np.float32))
    if not use_mean:
        return np.zeros(1, x.dtype), np.mean(np.square(x), axis=axes)
    mu = np.mean(x, axis=axes)
    if use_fast_variance:
        var = np.maximum(0.0, np.mean(np.square(x), axis=axes) - np.square(mu))
    else:
        var = np.mean(np.square(x - np.expand_dims(mu, axes)), axis=axes)
    return mu, var.astype(x.dtype)


class _FlaxModule:
    epsilon = 1e-6
    use_fast_variance = True

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def init(self, key, x):
        feats = _axes(x.ndim, self.feature_axes_for(x))
        return {"params": {"scale": tuple(x.shape[a] for a in feats)}}

    def apply(self, variables, x, mutable=None):
        red = _axes(x.ndim, self.reduction_axes_for(x))
        mu, var = _compute_stats(x, red, not self.rms, self.use_fast_variance)
        mean = np.expand_dims(mu, red) if not self.rms else 0.0
        y = (x - mean) / np.sqrt(np.expand_dims(var, red) + self.epsilon)
        y = y.astype(x.dtype)
        return (y, {"batch_stats": {}}) if mutable else y

    rms = False


class LayerNorm(_FlaxModule):
    reduction_axes = -1
    feature_axes = -1

    def reduction_axes_for(self, x):
        return self.reduction_axes

    def feature_axes_for(self, x):
        return self.feature_axes


class RMSNorm(LayerNorm):
    rms = True


class InstanceNorm(_FlaxModule):
    feature_axes = -1

    def reduction_axes_for(self, x):
        feats = _axes(x.ndim, self.feature_axes)
        assert 0 not in feats
        return [i for i in range(1, x.ndim) if i not in feats]

    def feature_axes_for(self, x):
        return self.feature_axes


class BatchNorm(_FlaxModule):
    epsilon = 1e-5
    momentum = 0.99
    axis = -1
    use_running_average = None

    def reduction_axes_for(self, x):
        assert self.use_running_average is False
        return [i for i in range(x.ndim) if i != self.axis % x.ndim]

    def feature_axes_for(self, x):
        return self.axis


class GroupNorm(_FlaxModule):
    num_groups = 32

    def init(self, key, x):
        return {"params": {"scale": (x.shape[-1],)}}

    def apply(self, variables, x, mutable=None):
        g = self.num_groups
        c = x.shape[-1]
        assert c % g == 0
        r = x.reshape((*x.shape[:-1], g, c // g))  # channels are the last axis
        red = [*range(1, x.ndim - 1), -1]
        red = [a % r.ndim for a in red[:-1]] + [r.ndim - 1]
        mu, var = _compute_stats(r, red, True, self.use_fast_variance)
        mu, var = np.expand_dims(mu, tuple(red)), np.expand_dims(var, tuple(red))
        return ((r - mu) / np.sqrt(var + self.epsilon)).astype(x.dtype).reshape(x.shape)


def make_flax() -> tuple[types.ModuleType, types.ModuleType, types.ModuleType]:
    """(jax, jax.numpy, flax) fake modules; flax.linen holds the layer classes."""
    linen = types.ModuleType("flax.linen")
    for cls in (LayerNorm, RMSNorm, GroupNorm, InstanceNorm, BatchNorm):
        setattr(linen, cls.__name__, cls)
    flax = types.ModuleType("flax")
    flax.linen = linen
    jnp = types.ModuleType("jax.numpy")
    jnp.transpose = np.transpose
    jax = types.ModuleType("jax")
    jax.numpy = jnp
    jax.random = types.SimpleNamespace(
        key=lambda seed: seed,
        normal=lambda key, shape: (
            np.random.default_rng(key).standard_normal(shape).astype(np.float32)
        ),
    )
    return jax, jnp, flax
