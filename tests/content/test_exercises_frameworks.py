"""The framework-parity questions: expected answers are the engine's at the state asked
about, exact forms pass, near misses do not, and answering on the page explains."""

from __future__ import annotations

import math

import pytest

from lnviz.lessons.frameworks import CONVENTIONS, effective_eps
from lnviz.lessons.frameworks import diff as fd
from lnviz.lessons.frameworks import questions as ex
from tests.apptest_helpers import assert_right_answer_explained

PAGE = "frameworks"
STATES = [
    ex.DEFAULT_SETUP,
    fd.Setup((2, 4, 8), "btf", "layer", 2, 0.0, 0.03, 0, False, "jax"),
    fd.Setup((2, 4, 8), "btf", "layer", 2, 1000.0, 1.0, 0, False, "numpy"),
    fd.Setup((2, 4, 8), "btf", "layer", 2, 0.0, 1.0, 0, True, "jax"),
    fd.Setup((2, 8, 4, 4), "nchw", "rms", 2, 0.0, 1.0, 3, False, "torch"),
    fd.Setup((2, 4, 4, 8), "nhwc", "group", 2, 0.0, 0.1, 0, False, "jax"),
]


def by_key(setup: fd.Setup) -> dict[str, object]:
    return {q.key: q for q in ex.questions(setup)}


@pytest.mark.parametrize("setup", STATES)
def test_eps_ratio_is_the_conventions(setup: fd.Setup) -> None:
    """Keras's output over PyTorch's at variance 0.03², each with its own default ε."""
    q = by_key(setup)["eps"]
    var = 0.03**2
    eps = [effective_eps(CONVENTIONS[f, setup.scheme]) for f in ("pytorch", "keras")]
    assert math.isclose(q.answer, math.sqrt((var + eps[0]) / (var + eps[1])))
    assert CONVENTIONS["pytorch", setup.scheme].layer in q.prompt
    assert q.link.params["scheme"] == {"rms": "RMS"}.get(setup.scheme, setup.scheme)


@pytest.mark.parametrize("setup", STATES)
def test_farthest_framework_is_decided_by_the_engines_comparison(setup: fd.Setup) -> None:
    comp = fd.analyse(setup).comparison  # what the page shows
    k, f = comp.max_abs("keras", "pytorch"), comp.max_abs("flax", "pytorch")
    q = by_key(setup)["farthest"]
    if max(k, f) <= ex.SAME * min(k, f):
        assert q.correct == 2
    else:
        assert q.correct == (0 if k > f else 1)
    assert q.link.params["loc"] == f"{setup.loc:g}" and q.link.params["sd"] == f"{setup.spread:g}"


def test_farthest_follows_the_state() -> None:
    """ε matters at a small spread (Keras's 1e-3 is far from PyTorch's 1e-5); a large mean
    on Keras's NumPy backend makes both fast-variance frameworks miss alike; with PyTorch's
    ε written out the gaps are rounding."""
    assert [by_key(s)["farthest"].correct for s in STATES[:4]] == [0, 0, 2, 2]


def test_momentum_is_one_minus_keras_momentum() -> None:
    q = by_key(ex.DEFAULT_SETUP)["momentum"]
    keras = CONVENTIONS["keras", "batch"]
    assert keras.momentum_weights == "old value"
    assert CONVENTIONS["pytorch", "batch"].momentum_weights == "new batch"
    assert math.isclose(q.answer, 1 - keras.momentum)
    assert q.link.params["scheme"] == "batch" and q.link.params["steps"] == "10"


def test_exact_forms_pass_and_near_misses_do_not() -> None:
    qs = by_key(ex.DEFAULT_SETUP)
    assert qs["eps"].check("0.69").correct and qs["eps"].check("√(0.00091/0.0019)").correct
    assert not qs["eps"].check("1e-3").correct and not qs["eps"].check("0.01").correct
    assert qs["momentum"].check("1/100").correct and qs["momentum"].check("1 - 0.99").correct
    assert not qs["momentum"].check("0.99").correct and not qs["momentum"].check("0.1").correct


def test_right_answer_on_the_page_shows_the_explanation() -> None:
    assert_right_answer_explained(PAGE, "momentum", "1 - 0.99", "1 − 0.99 = 0.01")
