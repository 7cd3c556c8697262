"""Every refused argument raises lnviz.LnvizError (a ValueError) naming the argument and value."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz

X = np.arange(12.0).reshape(2, 2, 3)  # (N=2, C=2, L=3)
NAN, INF = float("nan"), float("inf")
BN = [[1.0, 2.0], [3.0, 5.0]]  # (N=2, C=2)


def _train(**kw):
    return lnviz.batch_norm(BN, training=True, **kw)


# (id, call, argument name in the message, fragment of the bad value in the message or None)
ERROR_CASES = [
    # normalized_shape
    ("shape_not_trailing", lambda: lnviz.layer_norm(X, (2,)), "normalized_shape", "(2,)"),
    (
        "shape_too_long",
        lambda: lnviz.layer_norm(X, (1, 2, 2, 3)),
        "normalized_shape",
        "(1, 2, 2, 3)",
    ),
    ("shape_middle", lambda: lnviz.layer_norm(X, (2, 2)), "normalized_shape", "(2, 2)"),
    ("shape_empty", lambda: lnviz.layer_norm(X, ()), "normalized_shape", "()"),
    ("shape_float", lambda: lnviz.layer_norm(X, 3.0), "normalized_shape", "3.0"),
    ("shape_str", lambda: lnviz.layer_norm(X, "3"), "normalized_shape", "'3'"),
    ("rms_shape", lambda: lnviz.rms_norm(X, 4), "normalized_shape", "4"),
    ("shape_scalar_x", lambda: lnviz.layer_norm(3.0, 1), "normalized_shape", "1"),
    # groups
    ("groups_not_divisor", lambda: lnviz.group_norm(X, 3), "num_groups", "3"),
    ("groups_zero", lambda: lnviz.group_norm(X, 0), "num_groups", "0"),
    ("groups_negative", lambda: lnviz.group_norm(X, -2), "num_groups", "-2"),
    ("groups_float", lambda: lnviz.group_norm(X, 1.0), "num_groups", "1.0"),
    ("groups_bool", lambda: lnviz.group_norm(X, True), "num_groups", "True"),
    ("axes_groups", lambda: lnviz.reduce_tensor(X, "group", num_groups=2), "num_groups", "2"),
    # weight / bias shapes and values
    ("ln_weight", lambda: lnviz.layer_norm(X, 3, weight=np.ones(2)), "weight", "shape (2,)"),
    ("ln_bias", lambda: lnviz.layer_norm(X, 3, bias=np.ones((1, 3))), "bias", "shape (1, 3)"),
    ("ln_weight_nan", lambda: lnviz.layer_norm(X, 3, weight=[1, NAN, 1]), "weight", None),
    ("ln_bias_inf", lambda: lnviz.layer_norm(X, 3, bias=[1, 1, INF]), "bias", None),
    ("ln_weight_str", lambda: lnviz.layer_norm(X, 3, weight=["a", "b", "c"]), "weight", None),
    ("rms_weight", lambda: lnviz.rms_norm(X, (2, 3), weight=np.ones(3)), "weight", "shape (3,)"),
    ("gn_weight", lambda: lnviz.group_norm(X, 1, weight=np.ones(3)), "weight", "shape (3,)"),
    ("gn_bias", lambda: lnviz.group_norm(X, 2, bias=np.ones(1)), "bias", "shape (1,)"),
    ("in_weight", lambda: lnviz.instance_norm(X, weight=np.ones(3)), "weight", "shape (3,)"),
    ("in_bias", lambda: lnviz.instance_norm(X, bias=np.ones(3)), "bias", "shape (3,)"),
    ("bn_weight", lambda: lnviz.batch_norm(X, [0, 0], [1, 1], weight=np.ones(3)), "weight", None),
    ("bn_bias", lambda: _train(bias=np.ones((2, 1))), "bias", "shape (2, 1)"),
    ("bn_running_mean", lambda: lnviz.batch_norm(X, [0.0], [1.0, 1.0]), "running_mean", None),
    ("bn_running_var", lambda: lnviz.batch_norm(X, [0.0, 0], [1.0]), "running_var", None),
    ("bn_running_var_neg", lambda: lnviz.batch_norm(X, [0, 0], [1.0, -1.0]), "running_var", "-1.0"),
    ("bn_running_var_nan", lambda: lnviz.batch_norm(X, [0, 0], [1.0, NAN]), "running_var", None),
    ("stages_gamma", lambda: lnviz.affine_stages([1, 2, 3], gamma=[1, 2]), "gamma", "shape (2,)"),
    ("stages_beta", lambda: lnviz.affine_stages([1, 2, 3], beta=[1, 2, 3, 4]), "beta", None),
    ("spectrum_gamma", lambda: lnviz.jacobian_spectrum([1, 2], 1.0, [1.0]), "gamma", None),
    ("axes_gamma", lambda: lnviz.reduce_tensor(X, "layer", gamma=np.ones(2)), "gamma", None),
    ("axes_beta", lambda: lnviz.reduce_tensor(X, "layer_all", beta=np.ones(3)), "beta", None),
    # eps
    ("eps_negative", lambda: lnviz.layer_norm(X, 3, eps=-1e-5), "eps", "-1e-05"),
    ("eps_nan", lambda: lnviz.layer_norm(X, 3, eps=NAN), "eps", "nan"),
    ("eps_inf", lambda: lnviz.layer_norm(X, 3, eps=INF), "eps", "inf"),
    ("eps_neg_inf", lambda: lnviz.rms_norm(X, 3, eps=-INF), "eps", "-inf"),
    ("eps_none_ln", lambda: lnviz.layer_norm(X, 3, eps=None), "eps", "None"),
    ("eps_str", lambda: lnviz.layer_norm(X, 3, eps="1e-5"), "eps", "'1e-5'"),
    ("eps_list", lambda: lnviz.layer_norm(X, 3, eps=[1e-5]), "eps", "[1e-05]"),
    ("eps_complex", lambda: lnviz.layer_norm(X, 3, eps=1j), "eps", "1j"),
    ("eps_array", lambda: lnviz.layer_norm(X, 3, eps=np.array([1e-5, 1e-5])), "eps", None),
    ("gn_eps", lambda: lnviz.group_norm(X, 1, eps=-1.0), "eps", "-1.0"),
    ("in_eps", lambda: lnviz.instance_norm(X, eps=NAN), "eps", "nan"),
    ("bn_eps", lambda: _train(eps=-0.5), "eps", "-0.5"),
    ("rms_eps", lambda: lnviz.rms_norm(X, 3, eps=-2.0), "eps", "-2.0"),
    ("core_eps", lambda: lnviz.normalized_core([1, 2], -1.0), "eps", "-1.0"),
    ("h_eps", lambda: lnviz.h([1.0], INF), "eps", "inf"),
    ("dh_eps", lambda: lnviz.dh([1.0], "x"), "eps", "'x'"),
    ("family_eps", lambda: lnviz.epsilon_family(-1.0), "eps", "-1.0"),
    ("shift_eps", lambda: lnviz.compare_shift([1, 2], 1.0, NAN), "eps", "nan"),
    ("axes_eps", lambda: lnviz.reduce_tensor(X, "layer", eps=-1.0), "eps", "-1.0"),
    ("jacobian_eps0_constant", lambda: lnviz.jacobian([2.0, 2.0], 0.0), "eps", "0.0"),
    ("spectrum_eps0_constant", lambda: lnviz.jacobian_spectrum([0.1] * 3, 0.0), "eps", "0.0"),
    # non-finite input
    ("ln_nan", lambda: lnviz.layer_norm([1.0, NAN, 2.0], 3), "x", None),
    ("ln_inf", lambda: lnviz.layer_norm([[1.0, 2.0], [INF, 2.0]], 2), "x", None),
    ("ln_neg_inf_f32", lambda: lnviz.layer_norm(np.array([1, -INF], np.float32), 2), "x", None),
    ("ln_nan_f16", lambda: lnviz.layer_norm(np.array([1, NAN], np.float16), 2), "x", None),
    ("rms_inf", lambda: lnviz.rms_norm([1.0, INF, 2.0], 3), "x", None),
    ("rms_nan", lambda: lnviz.rms_norm([1.0, NAN, 2.0], 3, eps=0.0), "x", None),
    ("gn_nan", lambda: lnviz.group_norm([[1.0, NAN]], 1), "x", None),
    ("in_inf", lambda: lnviz.instance_norm([[[1.0, INF]]]), "x", None),
    ("bn_train_nan", lambda: lnviz.batch_norm([[1.0], [NAN]], training=True), "x", None),
    ("bn_eval_nan", lambda: lnviz.batch_norm([[1.0], [NAN]], [0.0], [1.0]), "x", None),
    ("bn_eval_inf", lambda: lnviz.batch_norm([[1.0], [INF]], [0.0], [1.0]), "x", None),
    ("core_nan", lambda: lnviz.normalized_core([1.0, NAN], 0.1), "z", None),
    ("stages_inf", lambda: lnviz.affine_stages([1.0, INF]), "z", None),
    ("jacobian_nan", lambda: lnviz.jacobian([1.0, NAN], 0.1), "z", None),
    ("scaling_nan", lambda: lnviz.scaling_identity([1.0, NAN], 0.1, 2.0), "z", None),
    ("shift_z_nan", lambda: lnviz.compare_shift([1.0, NAN], 1.0, 0.1), "z", None),
    ("shift_nan", lambda: lnviz.compare_shift([1.0, 2.0], NAN, 0.1), "shift", None),
    ("axes_nan", lambda: lnviz.reduce_tensor(np.full((1, 1, 2), NAN), "layer"), "x", None),
    ("h_t_nan", lambda: lnviz.h([NAN], 1.0), "t", "nan"),
    ("dh_t_inf", lambda: lnviz.dh([INF], 1.0), "t", "inf"),
    ("ratio_nan", lambda: lnviz.core_variance_ratio([NAN]), "q_over_eps", "nan"),
    ("ratio_negative", lambda: lnviz.core_variance_ratio([1.0, -1.0]), "q_over_eps", "-1.0"),
    ("weighted_x_nan", lambda: lnviz.weighted_centering([1, 1], [1.0, NAN]), "x", None),
    # non-numeric input
    ("x_str", lambda: lnviz.layer_norm(["a", "b"], 2), "x", "['a', 'b']"),
    ("x_complex", lambda: lnviz.layer_norm([1j, 2.0], 2), "x", "1j"),
    ("x_object", lambda: lnviz.rms_norm(np.array([None, 1.0], dtype=object), 2), "x", None),
    # weights
    ("weights_negative", lambda: lnviz.weighted_centering_matrix([1.0, -0.5, 1.0]), "a", "-0.5"),
    ("weights_nan", lambda: lnviz.weighted_centering_matrix([1.0, NAN]), "a", None),
    ("weights_inf", lambda: lnviz.weighted_centering_matrix([1.0, INF]), "a", None),
    (
        "weights_all_zero",
        lambda: lnviz.weighted_centering_matrix([0.0, 0.0, 0.0]),
        "a",
        "[0.0, 0.0, 0.0]",
    ),
    ("weights_2d", lambda: lnviz.weighted_centering_matrix([[0.5, 0.5]]), "a", "shape (1, 2)"),
    ("weights_scalar", lambda: lnviz.weighted_centering_matrix(1.0), "a", "shape ()"),
    ("weights_empty", lambda: lnviz.weighted_centering_matrix([]), "a", "shape (0,)"),
    ("weights_str", lambda: lnviz.normalize_weights(["1", "2"]), "a", None),
    ("weighted_negative", lambda: lnviz.weighted_centering([-1.0, 2.0], [1.0, 2.0]), "a", "-1.0"),
    ("weighted_x_length", lambda: lnviz.weighted_centering([1, 1], [1.0, 2.0, 3.0]), "x", "(3,)"),
    # batch norm modes and momentum
    ("bn_eval_no_stats", lambda: lnviz.batch_norm(X), "running_mean/running_var", None),
    (
        "bn_eval_only_mean",
        lambda: lnviz.batch_norm(X, running_mean=[0, 0]),
        "running_mean/running_var",
        None,
    ),
    (
        "bn_eval_only_var",
        lambda: lnviz.batch_norm(X, running_var=[1, 1]),
        "running_mean/running_var",
        None,
    ),
    ("bn_one_value", lambda: lnviz.batch_norm([[1.0, 2.0]], training=True), "x", "shape (1, 2)"),
    ("bn_one_value_3d", lambda: lnviz.batch_norm(np.ones((1, 3, 1)), training=True), "x", None),
    ("momentum_negative", lambda: _train(momentum=-0.1), "momentum", "-0.1"),
    ("momentum_above_one", lambda: _train(momentum=1.5), "momentum", "1.5"),
    ("momentum_nan", lambda: _train(momentum=NAN), "momentum", "nan"),
    ("momentum_inf", lambda: _train(momentum=INF), "momentum", "inf"),
    ("momentum_none", lambda: _train(momentum=None), "momentum", "None"),
    ("momentum_str", lambda: _train(momentum="0.5"), "momentum", "'0.5'"),
    # empty arrays
    ("empty_ln", lambda: lnviz.layer_norm(np.zeros((0, 3)), 3), "x", "shape (0, 3)"),
    ("empty_ln_list", lambda: lnviz.layer_norm([], 0), "x", "shape (0,)"),
    ("empty_rms", lambda: lnviz.rms_norm(np.zeros((2, 0)), 0), "x", "shape (2, 0)"),
    ("empty_gn", lambda: lnviz.group_norm(np.zeros((0, 2)), 1), "x", "shape (0, 2)"),
    ("empty_in", lambda: lnviz.instance_norm(np.zeros((1, 2, 0))), "x", "shape (1, 2, 0)"),
    ("empty_bn", lambda: lnviz.batch_norm(np.zeros((0, 2)), training=True), "x", "shape (0, 2)"),
    ("empty_core", lambda: lnviz.normalized_core([], 0.1), "z", "shape (0,)"),
    ("empty_axes", lambda: lnviz.reduce_tensor(np.zeros((0, 2, 2)), "layer"), "x", None),
    ("empty_shift", lambda: lnviz.compare_shift([], 1.0, 0.1), "z", None),
    # too few dimensions
    ("gn_1d", lambda: lnviz.group_norm([1.0, 2.0], 1), "x", "shape (2,)"),
    ("in_2d", lambda: lnviz.instance_norm([[1.0, 2.0]]), "x", "shape (1, 2)"),
    ("bn_1d", lambda: lnviz.batch_norm([1.0, 2.0], training=True), "x", "shape (2,)"),
    ("core_scalar", lambda: lnviz.normalized_core(3.0, 0.1), "z", "shape ()"),
    ("stages_2d", lambda: lnviz.affine_stages([[1.0, 2.0]]), "z", "shape (1, 2)"),
    ("jacobian_2d", lambda: lnviz.jacobian([[1.0, 2.0], [3.0, 4.0]], 0.1), "z", None),
    ("axes_2d", lambda: lnviz.reduce_tensor(X[0], "layer"), "x", "shape (2, 3)"),
    ("shift_2d", lambda: lnviz.compare_shift([[1.0, 2.0]], 1.0, 0.1), "z", None),
    # other arguments
    ("scaling_a_zero", lambda: lnviz.scaling_identity([1, 2], 0.1, 0), "a", "0"),
    ("scaling_a_negative", lambda: lnviz.scaling_identity([1, 2], 0.1, -2.0), "a", "-2.0"),
    ("scaling_a_inf", lambda: lnviz.scaling_identity([1, 2], 0.1, INF), "a", "inf"),
    ("centering_zero", lambda: lnviz.centering_matrix(0), "d", "0"),
    ("centering_too_big", lambda: lnviz.centering_matrix(4097), "d", "4097"),
    ("centering_float", lambda: lnviz.centering_matrix(2.5), "d", "2.5"),
    ("centering_none", lambda: lnviz.centering_matrix(None), "d", "None"),
    ("centering_str", lambda: lnviz.centering_matrix("3"), "d", "'3'"),
    ("family_t_max", lambda: lnviz.epsilon_family(1.0, 0.0), "t_max", "0.0"),
    ("family_t_max_inf", lambda: lnviz.epsilon_family(1.0, INF), "t_max", "inf"),
    ("family_n_small", lambda: lnviz.epsilon_family(1.0, 2.0, 2), "n", "2"),
    ("family_n_big", lambda: lnviz.epsilon_family(1.0, 2.0, 100_002), "n", "100002"),
    ("axes_scheme", lambda: lnviz.reduce_tensor(X, "token"), "scheme", "'token'"),
    ("axes_batch_one_entry", lambda: lnviz.reduce_tensor(np.ones((1, 1, 3)), "batch"), "x", None),
    ("shift_length", lambda: lnviz.compare_shift([1, 2, 3], [1, 2], 0.1), "shift", None),
    (
        "red_w_1d",
        lambda: lnviz.affine_redundancy([1.0, 2.0], [0], [1], c=1, r=[0], s=[0], eps=0.1),
        "W",
        None,
    ),
    (
        "red_b",
        lambda: lnviz.affine_redundancy(np.eye(2), [0.0], [1, 2], c=1, r=[0, 0], s=[0, 0], eps=0.1),
        "b",
        None,
    ),
    (
        "red_r",
        lambda: lnviz.affine_redundancy(np.eye(2), [0, 0], [1, 2], c=1, r=[0], s=[0, 0], eps=0.1),
        "r/s",
        None,
    ),
    (
        "red_xs",
        lambda: lnviz.affine_redundancy(
            np.eye(2), [0, 0], [1, 2, 3], c=1, r=[0, 0], s=[0, 0], eps=0.1
        ),
        "xs",
        "shape (3,)",
    ),
    (
        "red_c_nan",
        lambda: lnviz.affine_redundancy(
            np.eye(2), [0, 0], [1, 2], c=NAN, r=[0, 0], s=[0, 0], eps=0.1
        ),
        "c",
        "nan",
    ),
    (
        "red_w_nan",
        lambda: lnviz.affine_redundancy(
            [[NAN, 0], [0, 1]], [0, 0], [1, 2], c=1, r=[0, 0], s=[0, 0], eps=0.1
        ),
        "W",
        None,
    ),
]


@pytest.mark.parametrize(
    ("call", "name", "value"), [pytest.param(*c[1:], id=c[0]) for c in ERROR_CASES]
)
def test_error_names_argument_and_value(call, name, value) -> None:
    with pytest.raises(lnviz.LnvizError) as info:
        call()
    err = info.value
    assert isinstance(err, ValueError)
    assert err.name == name
    message = str(err)
    assert message.startswith(f"{name} = ")
    assert "is not accepted" in message
    if value is not None:
        assert value in message, (value, message)
    assert "\n" not in message


def test_error_message_format_and_fields() -> None:
    with pytest.raises(lnviz.LnvizError) as info:
        lnviz.layer_norm([1.0, 2.0, 3.0], (3,), eps=-1.0)
    err = info.value
    assert str(err) == "eps = -1.0 is not accepted: eps must be a finite number >= 0."
    assert err.value == -1.0
    assert "finite number >= 0" in err.accepted


def test_long_values_are_shortened_in_messages() -> None:
    with pytest.raises(lnviz.LnvizError) as info:
        lnviz.weighted_centering_matrix(list(range(-50, 50)))
    message = str(info.value)
    assert "…" in message
    assert len(message) < 160


def test_lnviz_error_is_catchable_as_value_error() -> None:
    with pytest.raises(ValueError, match="num_groups"):
        lnviz.group_norm(X, 5)
    assert issubclass(lnviz.LnvizError, ValueError)


@pytest.mark.parametrize(
    "call",
    [
        lambda: lnviz.layer_norm([1.0, 2.0], 2, eps=True),  # bools are numbers: eps = 1
        lambda: lnviz.layer_norm([1.0, 2.0], 2, eps=np.float32(0.5)),
        lambda: lnviz.layer_norm([1.0, 2.0], 2, eps=np.array(0.5)),
        lambda: lnviz.batch_norm(BN, training=True, momentum=np.float64(0.0)),
        lambda: lnviz.batch_norm(BN, training=True, momentum=1),
        lambda: lnviz.batch_norm(BN, [0, 0], [0, 0], momentum=NAN),  # unused in evaluation
        lambda: lnviz.rms_norm([1e-3, 2e-3], 2, eps=0),
    ],
)
def test_borderline_arguments_are_accepted(call) -> None:
    out = call()
    assert np.isfinite(out[0] if isinstance(out, tuple) else out).all()
