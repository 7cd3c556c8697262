"""Framework conventions, emulations and generated code (lnviz.lessons.frameworks, framework_code,
framework_diff). PyTorch snippets are executed with torch; Keras and Flax snippets with the
NumPy stand-ins of tests/fake_frameworks.py, and their arguments are parsed with ast."""

from __future__ import annotations

import ast
import inspect
import math
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lnviz.errors import LnvizError
from lnviz.lessons.frameworks import (
    CONVENTIONS,
    KERAS_BACKENDS,
    LAYOUTS,
    SCHEMES,
    arithmetic,
    effective_eps,
    emulate,
    framework_label,
    torch_reference,
)
from lnviz.lessons.frameworks.code import (
    defaults_table,
    param_shape,
    reduced_axes,
    snippet,
    snippets,
)
from lnviz.lessons.frameworks.diff import (
    Setup,
    analyse,
    compare,
    diagnose,
    running_statistics,
    sample_input,
    variance_error,
)
from lnviz.lessons.numerics.recipes import RECIPES
from tests import fake_frameworks
from tests.conftest import require_module

SHAPES = {"btf": (2, 3, 8), "nchw": (2, 8, 3, 2), "nhwc": (2, 3, 2, 8)}
CASES = [(s, lay) for s in SCHEMES for lay in LAYOUTS]
F32 = float(np.finfo(np.float32).eps)

# (framework, scheme, eps, params, momentum, weights, running var), as read in PyTorch 2.13,
# Keras 3.15.1 and Flax 0.12.8 (docs/frameworks-checked.md).
VERIFIED = [
    ("pytorch", "layer", 1e-5, ("weight", "bias"), None, "", ""),
    ("pytorch", "rms", None, ("weight",), None, "", ""),
    ("pytorch", "group", 1e-5, ("weight", "bias"), None, "", ""),
    ("pytorch", "instance", 1e-5, (), None, "", ""),
    ("pytorch", "batch", 1e-5, ("weight", "bias"), 0.1, "new batch", "unbiased"),
    ("keras", "layer", 1e-3, ("gamma", "beta"), None, "", ""),
    ("keras", "rms", 1e-6, ("scale",), None, "", ""),
    ("keras", "group", 1e-3, ("gamma", "beta"), None, "", ""),
    ("keras", "instance", 1e-3, ("gamma", "beta"), None, "", ""),
    ("keras", "batch", 1e-3, ("gamma", "beta"), 0.99, "old value", "biased"),
    ("flax", "layer", 1e-6, ("scale", "bias"), None, "", ""),
    ("flax", "rms", 1e-6, ("scale",), None, "", ""),
    ("flax", "group", 1e-6, ("scale", "bias"), None, "", ""),
    ("flax", "instance", 1e-6, ("scale", "bias"), None, "", ""),
    ("flax", "batch", 1e-5, ("scale", "bias"), 0.99, "old value", "biased"),
]


@pytest.mark.parametrize("row", VERIFIED, ids=lambda r: f"{r[0]}-{r[1]}")
def test_conventions_are_the_verified_defaults(row) -> None:
    fw, scheme, eps, params, mom, weights, rvar = row
    c = CONVENTIONS[fw, scheme]
    assert (c.eps, c.params) == (eps, params)
    assert (c.momentum, c.momentum_weights, c.running_var) == (mom, weights, rvar)


# (framework, backend, scheme, fast variance, clipped, scale first): what the sources compute.
# Keras: keras/src/backend/{jax,tensorflow,torch,numpy}/nn.py moments and batch_normalization,
# keras/src/ops/nn.py _layer_normalization (torch: F.layer_norm), group_normalization.py.
ARITHMETIC = [
    ("pytorch", "-", "layer", False, False, False),
    ("flax", "-", "layer", True, True, False),
    ("flax", "-", "batch", True, True, False),
    *[("keras", b, s, False, False, True) for b in ("jax", "tensorflow") for s in
      ("layer", "group", "instance", "batch")],
    ("keras", "torch", "layer", False, False, False),  # F.layer_norm
    ("keras", "torch", "group", True, False, True),
    ("keras", "torch", "instance", True, False, True),
    ("keras", "torch", "batch", True, False, False),  # (x - mean) * inv + offset
    *[("keras", "numpy", s, True, False, True) for s in ("layer", "group", "instance", "batch")],
]  # fmt: skip


@pytest.mark.parametrize("row", ARITHMETIC, ids=lambda r: "-".join(r[:3]))
def test_arithmetic_per_framework_and_keras_backend(row) -> None:
    fw, backend, scheme, fast, clip, first = row
    a = arithmetic(fw, scheme, backend if fw == "keras" else "jax")
    assert (a.fast_variance, a.clip_variance, a.scale_first) == (fast, clip, first)
    assert ("E[x²] − E[x]²" in a.variance) is fast or (fw == "pytorch")


def test_keras_is_named_with_its_backend_and_e_x2_is_never_keras_in_general() -> None:
    assert framework_label("keras", "tensorflow") == "Keras 3 (TensorFlow)"
    for s in SCHEMES:
        for b in ("jax", "tensorflow"):
            assert "E[x²]" not in arithmetic("keras", s, b).variance
    with pytest.raises(LnvizError):
        arithmetic("keras", "layer", "mxnet")


def test_pytorch_layer_norm_is_welford_on_both_pages() -> None:
    """/frameworks' defaults table and /numerics' recipe name one algorithm for PyTorch."""
    assert arithmetic("pytorch", "layer").variance.startswith("Welford")
    pytorch_recipe = next(r for r in RECIPES if r.key == "pytorch")
    assert pytorch_recipe.algorithm == "welford"
    keras_torch = next(r for r in RECIPES if r.key == "keras-torch")
    assert (
        keras_torch.algorithm == "welford"
        and "Welford" in arithmetic("keras", "layer", "torch").variance
    )


def test_defaults_table_has_batch_columns_for_batch_norm_only() -> None:
    for s in SCHEMES:
        t = defaults_table(s, "btf", (2, 4, 8), "numpy")
        assert bool(t.momentum) == bool(t.running_variance) == (s == "batch")
    rms = defaults_table("rms", "btf", (2, 4, 8))
    assert rms.eps == (float(np.finfo(np.float32).eps), 1e-6, 1e-6)
    assert rms.eps_machine == (True, False, False)
    assert rms.parameters == ("weight (8,)", "scale (8,)", "scale (8,)")  # no bias
    assert defaults_table("batch", "btf", (2, 4, 8)).eps == (1e-5, 1e-3, 1e-5)


@pytest.mark.parametrize("scheme", ["layer", "group", "instance", "batch"])
def test_keras_backends_differ_only_where_their_sources_do(scheme) -> None:
    """Far from zero, Keras's one-pass backends lose digits; JAX/TensorFlow do not."""
    x = sample_input((2, 4, 16), 1000.0, 1.0, seed=4)
    ref = torch_reference(x, scheme, "btf", groups=2)
    e = effective_eps(CONVENTIONS["pytorch", scheme])
    err = {
        b: np.abs(emulate(x, scheme, "btf", "keras", groups=2, eps=e, backend=b).output - ref).max()
        for b in KERAS_BACKENDS
    }
    assert err["jax"] == err["tensorflow"] < 1e-3
    assert err["numpy"] > 1e-2
    assert bool(err["torch"] < 1e-3) == (scheme == "layer")  # torch: F.layer_norm for layer norm


def test_analyse_runs_every_part_on_one_input() -> None:
    setup = Setup((2, 4, 8), "btf", "group", 2, 100.0, 0.3, 7, True, "torch")
    a = analyse(setup)
    x = sample_input(setup.shape, 100.0, 0.3, 7)
    np.testing.assert_array_equal(a.comparison.x, x)
    assert (a.comparison.backend, a.diagnosis.backend, a.diagnosis.scheme) == (
        "torch", "torch", "group")  # fmt: skip
    assert a.diagnosis == diagnose(x, "group", "btf", groups=2, backend="torch")
    again = compare(x, "group", "btf", groups=2, match=True, backend="torch")
    assert a.comparison.max_abs("keras", "pytorch") == again.max_abs("keras", "pytorch")


def test_pytorch_conventions_match_the_installed_modules() -> None:
    torch = require_module("torch")
    nn = torch.nn

    def default(cls, name):
        return inspect.signature(cls.__init__).parameters[name].default

    assert default(nn.LayerNorm, "eps") == CONVENTIONS["pytorch", "layer"].eps
    assert default(nn.GroupNorm, "eps") == CONVENTIONS["pytorch", "group"].eps
    assert default(nn.RMSNorm, "eps") is CONVENTIONS["pytorch", "rms"].eps is None
    assert default(nn.InstanceNorm2d, "affine") is False
    assert default(nn.BatchNorm2d, "momentum") == CONVENTIONS["pytorch", "batch"].momentum
    assert default(nn.BatchNorm1d, "eps") == CONVENTIONS["pytorch", "batch"].eps


# ---- PyTorch: run every generated snippet ---------------------------------------------


@pytest.mark.parametrize(("scheme", "layout"), CASES)
@pytest.mark.parametrize(("loc", "spread"), [(0.0, 1.0), (0.0, 0.03), (1000.0, 1.0)])
def test_pytorch_snippet_reproduces_the_engine(scheme, layout, loc, spread) -> None:
    torch = require_module("torch")
    shape = SHAPES[layout]
    x = sample_input(shape, loc, spread, seed=3)
    code = snippet("pytorch", scheme, layout, shape, groups=2)
    ns: dict = {}
    exec(code.imports, ns)
    ns["x"] = torch.from_numpy(x.copy())
    exec(code.body, ns)
    y = ns["y"].detach().numpy()
    expected = torch_reference(x, scheme, layout, groups=2)
    assert y.shape == x.shape and y.dtype == np.float32
    tol = 2e-3 if loc else 2e-5
    np.testing.assert_allclose(y, expected, rtol=0, atol=tol)
    weight = getattr(ns["norm"], "weight", None)
    got_shape = () if weight is None else tuple(weight.shape)
    assert got_shape == param_shape("pytorch", scheme, layout, shape)


def test_channels_last_group_norm_note_still_holds() -> None:
    """The page's CHANNELS_LAST_NOTE was measured with PyTorch 2.13 on CPU; re-measure it."""
    torch = require_module("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip(f"the note names PyTorch 2.13; this is {torch.__version__}: re-check it")
    x = torch.from_numpy(sample_input((2, 3, 2, 8), 1000.0, 1.0, seed=3)).permute(0, 3, 1, 2)
    exact = torch.nn.functional.group_norm(x.double().contiguous(), 2).numpy()
    strided = torch.nn.functional.group_norm(x, 2).numpy()
    contiguous = torch.nn.functional.group_norm(x.contiguous(), 2).numpy()
    assert np.abs(strided - exact).max() > 0.1
    assert np.abs(contiguous - exact).max() < 1e-3
    # the cause the note names: at mean 3000 (float32 spacing of x² is 1) the channels-last
    # variances are whole numbers, as E[x²] − E[x]² gives them
    far = torch.from_numpy(sample_input((2, 4, 4, 8), 3000.0, 1.0, seed=3)).permute(0, 3, 1, 2)
    _, _, rstd = torch.ops.aten.native_group_norm(far, None, None, 2, 8, 16, 2, 0.0)
    var = 1 / rstd.double() ** 2
    finite = var[torch.isfinite(var)]
    assert torch.allclose(finite, finite.round(), atol=1e-3)


@pytest.mark.parametrize(("scheme", "layout"), CASES)
def test_pytorch_snippet_runs_on_its_own(scheme, layout) -> None:
    require_module("torch")
    ns: dict = {}
    exec(snippet("pytorch", scheme, layout, SHAPES[layout], groups=2).text, ns)
    assert tuple(ns["y"].shape) == SHAPES[layout]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_pytorch_emulation_agrees_with_the_reference(layout) -> None:
    x = sample_input(SHAPES[layout], 0.0, 1.0, seed=1)
    for scheme in SCHEMES:
        ref = torch_reference(x, scheme, layout, groups=2)
        got = emulate(x, scheme, layout, "pytorch", groups=2).output
        np.testing.assert_allclose(got, ref, atol=2e-6)


# ---- Keras and Flax: run with stand-ins, and read the arguments ------------------------


def _run_with_fakes(code, x: np.ndarray, monkeypatch) -> dict:
    keras = fake_frameworks.make_keras()
    jax, jnp, flax = fake_frameworks.make_flax()
    for name, mod in {
        "keras": keras,
        "keras.layers": keras.layers,
        "jax": jax,
        "jax.numpy": jnp,
        "flax": flax,
        "flax.linen": flax.linen,
    }.items():
        monkeypatch.setitem(sys.modules, name, mod)
    ns: dict = {}
    exec(code.imports, ns)
    ns["x"] = x.copy()
    exec(code.body, ns)
    return ns


def _constructor_kwargs(body: str) -> dict:
    """Keyword arguments of the `norm = ...(...)` call, as Python values."""
    for node in ast.walk(ast.parse(body)):
        if isinstance(node, ast.Assign) and node.targets[0].id == "norm":
            return {k.arg: ast.literal_eval(k.value) for k in node.value.keywords}
    raise AssertionError("no norm = ... line")


@pytest.mark.parametrize(("scheme", "layout"), CASES)
@pytest.mark.parametrize("framework", ["keras", "flax"])
@pytest.mark.parametrize("match", [False, True])
def test_keras_and_flax_snippets_match_the_emulation(
    framework, scheme, layout, match, monkeypatch
) -> None:
    shape = SHAPES[layout]
    x = sample_input(shape, 0.0, 0.3, seed=5)
    monkeypatch.setenv("KERAS_BACKEND", "unset")  # the Keras code sets it; restored after
    code = snippet(framework, scheme, layout, shape, groups=2, match=match, backend="numpy")
    ns = _run_with_fakes(code, x, monkeypatch)
    if framework == "keras":  # the fake is Keras's NumPy backend, as the code asks
        assert os.environ["KERAS_BACKEND"] == "numpy"
    run = compare(x, scheme, layout, groups=2, match=match, backend="numpy").runs[framework]
    np.testing.assert_allclose(ns["y"], run.output, atol=2e-5)
    kwargs = _constructor_kwargs(code.body)
    own = CONVENTIONS[framework, scheme]
    eps = kwargs.get("epsilon", own.eps)
    assert eps == run.eps  # what the code asks for is what the emulation used
    if match:
        assert eps == effective_eps(CONVENTIONS["pytorch", scheme])
        if framework == "flax" and scheme != "rms":
            assert kwargs["use_fast_variance"] is False
        if scheme == "batch":
            assert kwargs["momentum"] == pytest.approx(0.9)
    else:
        assert "epsilon" not in kwargs
    norm = ns["norm"]
    got = norm.param_shape if framework == "keras" else ns["variables"]["params"]["scale"]
    assert tuple(got) == param_shape(framework, scheme, layout, shape)


@pytest.mark.parametrize(
    ("framework", "scheme", "layout", "expected"),
    [
        ("keras", "layer", "btf", {"axis": -1}),
        ("keras", "layer", "nchw", {"axis": [1, 2, 3]}),
        ("keras", "group", "nchw", {"groups": 2, "axis": 1}),
        ("keras", "instance", "nhwc", {"groups": -1, "axis": -1}),
        ("keras", "batch", "nchw", {"axis": 1}),
        ("flax", "layer", "btf", {"reduction_axes": -1, "feature_axes": -1}),
        ("flax", "rms", "nhwc", {"reduction_axes": (1, 2, 3), "feature_axes": (1, 2, 3)}),
        ("flax", "instance", "nchw", {"feature_axes": 1}),
        ("flax", "batch", "btf", {"use_running_average": False, "axis": -1}),
    ],
)
def test_generated_axis_arguments(framework, scheme, layout, expected) -> None:
    body = snippet(framework, scheme, layout, SHAPES[layout], groups=2).body
    assert _constructor_kwargs(body) == expected


def test_flax_group_norm_on_channels_first_transposes_twice() -> None:
    body = snippet("flax", "group", "nchw", SHAPES["nchw"], groups=2).body
    assert body.count("jnp.transpose") == 2


# ---- emulation properties --------------------------------------------------------------


def test_keras_epsilon_shrinks_the_output_by_the_predicted_factor() -> None:
    x = sample_input((1, 4, 16), 0.0, 0.03, seed=2).astype(np.float64)
    run = emulate(x, "layer", "btf", "keras")
    q = x.var(axis=-1)  # (1, 4)
    np.testing.assert_allclose(run.output.var(axis=-1), q / (q + 1e-3), rtol=1e-9)


def test_fast_variance_loses_digits_only_far_from_zero() -> None:
    near = sample_input((1, 8, 64), 0.0, 1.0, seed=0)
    far = sample_input((1, 8, 64), 3000.0, 1.0, seed=0)
    exact_far = far.astype(np.float64).var(axis=-1).ravel()
    flax_far = emulate(far, "layer", "btf", "flax").var
    assert np.abs(flax_far - exact_far).max() > 0.1  # float32 E[x^2] has ulp 0.5 here
    assert (flax_far >= 0).all()  # Flax clips
    flax_near = emulate(near, "layer", "btf", "flax").var
    np.testing.assert_allclose(flax_near, near.astype(np.float64).var(axis=-1).ravel(), rtol=1e-5)


def test_matched_flax_agrees_with_pytorch_and_matched_keras_does_not_far_from_zero() -> None:
    x = sample_input((2, 4, 32), 1000.0, 1.0, seed=4)
    c = compare(x, "layer", "btf", match=True, backend="numpy")
    assert c.max_abs("flax", "pytorch") < 1e-3
    assert c.max_abs("keras", "pytorch") > 1e-2  # E[x^2] - E[x]^2 has no switch on NumPy
    own = compare(x, "layer", "btf")
    assert own.max_abs("flax", "pytorch") > 10 * c.max_abs("flax", "pytorch")
    for backend in ("jax", "torch"):  # two-pass, and PyTorch's own kernel
        assert compare(x, "layer", "btf", match=True, backend=backend).max_abs(
            "keras", "pytorch") < 1e-3  # fmt: skip


@pytest.mark.parametrize(("loc", "spread"), [(0.0, 1.0), (0.0, 0.01), (1000.0, 1.0)])
def test_diagnosis_steps_end_at_rounding(loc, spread) -> None:
    x = sample_input((2, 4, 16), loc, spread, seed=6)
    for backend in KERAS_BACKENDS:
        d = diagnose(x, "layer", "btf", backend=backend)
        for fw in ("keras", "flax"):
            assert d.of(fw)[2] < 2e-3
            assert d.of(fw)[0] >= d.of(fw)[2]


@settings(max_examples=40, deadline=None)
@given(
    scheme=st.sampled_from(SCHEMES),
    layout=st.sampled_from(LAYOUTS),
    n=st.integers(2, 3),
    p=st.integers(1, 4),
    c=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 1000),
)
def test_float64_pytorch_emulation_is_exact(scheme, layout, n, p, c, seed) -> None:
    shape = {"btf": (n, p, c), "nchw": (n, c, p, 2), "nhwc": (n, p, 2, c)}[layout]
    x = np.random.default_rng(seed).standard_normal(shape)
    ref = torch_reference(x, scheme, layout, groups=2)
    got = emulate(x, scheme, layout, "pytorch", groups=2).output
    np.testing.assert_allclose(got, ref, atol=1e-12)


# ---- batch norm running statistics -----------------------------------------------------


@pytest.mark.parametrize("steps", [1, 7, 40])
def test_running_statistics_follow_torch_batchnorm(steps) -> None:
    torch = require_module("torch")
    x = sample_input((4, 3, 5), 2.0, 1.5, seed=8)
    rs = running_statistics(x, "btf", steps)
    for stats, momentum in ((rs[0], 0.1), (rs[3], 0.99)):
        bn = torch.nn.BatchNorm1d(5, momentum=momentum).double()
        xt = torch.from_numpy(x.astype(np.float64)).transpose(1, 2)
        for _ in range(steps):
            bn(xt)
        np.testing.assert_allclose(stats.mean[-1], bn.running_mean.numpy(), rtol=1e-12)
        np.testing.assert_allclose(stats.var[-1], bn.running_var.numpy(), rtol=1e-12)
        bn.eval()
        y = bn(xt).transpose(1, 2).detach().numpy()
        np.testing.assert_allclose(stats.eval_output, y, atol=1e-10)


def test_keras_and_flax_running_variance_uses_the_biased_batch_variance() -> None:
    x = sample_input((2, 2, 3), 0.0, 1.0, seed=9)  # m = 4 values per channel
    rs = running_statistics(x, "btf", 5000)
    biased = x.astype(np.float64).reshape(-1, 3).var(axis=0)
    np.testing.assert_allclose(rs[1].var[-1], biased, rtol=1e-12)
    np.testing.assert_allclose(rs[0].var[-1], biased * 4 / 3, rtol=1e-12)
    np.testing.assert_allclose(rs[1].var[1], 0.99 + 0.01 * biased, rtol=1e-12)


def test_variance_error_curves() -> None:
    v = variance_error(sample_input((1, 2, 8), 1000.0, 1.0, 0), "layer", "btf")
    k = int(np.searchsorted(v.ratio, 1e4))
    assert v.fast32[k] > 1e-3 and v.twopass32[k] < 1e-5 and v.fast64[k] < 1e-6
    assert 500 < v.input_ratio < 5000 and v.input_error > 1e-3


# ---- descriptions and errors -----------------------------------------------------------


@pytest.mark.parametrize(
    ("scheme", "layout", "expected"),
    [
        ("layer", "btf", "F"),
        ("layer", "nchw", "C, H and W"),
        ("group", "btf", "T and F/G"),
        ("instance", "nchw", "H and W"),
        ("batch", "nhwc", "N, H and W"),
    ],
)
def test_reduced_axes(scheme, layout, expected) -> None:
    assert reduced_axes(scheme, layout) == expected


@pytest.mark.parametrize(
    "call",
    [
        lambda: emulate(np.zeros((2, 3, 4), np.float32), "batchy", "btf", "keras"),
        lambda: emulate(np.zeros((2, 3, 4), np.float32), "layer", "nchw", "keras"),
        lambda: emulate(np.zeros((2, 3, 4), np.float32), "group", "btf", "flax", groups=3),
        lambda: emulate(np.zeros((2, 3, 4), np.float32), "layer", "btf", "mxnet"),
        lambda: snippet("keras", "layer", "btf", (2, 3)),
        lambda: running_statistics(np.zeros((1, 1, 3), np.float32), "btf", 3),
        lambda: running_statistics(np.zeros((2, 1, 3), np.float32), "btf", -1),
    ],
)
def test_bad_arguments_raise_lnviz_error(call) -> None:
    with pytest.raises(LnvizError):
        call()


def test_every_snippet_mentions_its_shape_and_defaults() -> None:
    for scheme, layout in CASES:
        for fw, code in snippets(scheme, layout, SHAPES[layout], groups=2).items():
            assert str(SHAPES[layout]) in code.stand_in
            if fw != "pytorch":
                assert f"default {CONVENTIONS[fw, scheme].eps:g}" in code.body
    assert math.isclose(effective_eps(CONVENTIONS["pytorch", "rms"]), F32)
