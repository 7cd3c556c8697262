"""The framework page's words: true for the scheme, backend and input shown (issue 14)."""

from __future__ import annotations

import pytest

from lnviz.lessons.frameworks import KERAS_BACKENDS, SCHEMES
from lnviz.lessons.frameworks import notes as words
from lnviz.lessons.frameworks.code import defaults_table
from lnviz.lessons.frameworks.diff import Setup, analyse


def setup(**kw) -> Setup:
    base = {"shape": (2, 4, 8), "layout": "btf", "scheme": "layer", "groups": 2, "loc": 0.0,
            "spread": 1.0, "seed": 0, "match": False, "backend": "jax"}  # fmt: skip
    return Setup(**(base | kw))


@pytest.mark.parametrize("scheme", SCHEMES)
def test_defaults_columns_show_batch_columns_for_batch_norm_only(scheme) -> None:
    cols = words.defaults_columns(defaults_table(scheme, "btf", (2, 4, 8)))
    assert ("momentum" in cols) is ("running variance fed" in cols) is (scheme == "batch")
    assert ("statistic" in cols) is (scheme == "rms") is ("variance" not in cols)


def test_difference_notes_offer_a_smaller_spread_only_when_there_is_one() -> None:
    assert any("Make the spread smaller" in n for n in words.difference_notes(analyse(setup())))
    small = analyse(setup(spread=0.03))  # the 'ε matters' preset's state
    assert words.at_preset(small.setup, words.EPS_PRESET)
    assert not any("spread smaller" in n for n in words.difference_notes(small))


@pytest.mark.parametrize("backend", KERAS_BACKENDS)
def test_no_switch_is_said_only_of_one_pass_backends(backend) -> None:
    a = analyse(setup(loc=1000.0, match=True, backend=backend))
    said = any("has no switch" in n for n in words.difference_notes(a))
    assert said is (backend == "numpy")  # torch's layer norm is F.layer_norm


def test_rms_notes_have_no_mean_variance_or_two_pass() -> None:
    a = analyse(setup(scheme="rms", loc=100.0))
    text = " ".join(words.difference_notes(a) + words.diagnosis_notes(a) + words.variance_notes(a))
    assert "√(E[x²] + ε)" in text and "σ²" not in text
    assert "two-pass variance then" not in text and "variance algorithm" not in text
    assert a.diagnosis.labels[2] == "PyTorch's ε (RMS norm: no variance to align)"


def test_diagnosis_notes_name_the_step_that_closes_the_gap() -> None:
    eps_gap = words.diagnosis_notes(analyse(setup(spread=0.03)))
    assert any(n.startswith("Keras 3 (JAX): PyTorch's ε takes the gap") for n in eps_gap)
    far = words.diagnosis_notes(analyse(setup(loc=1000.0, backend="numpy")))
    assert any("Keras 3 (NumPy): PyTorch's ε changes little" in n and "two-pass variance then"
               in n for n in far)  # fmt: skip
    far_variance = words.variance_notes(analyse(setup(loc=1000.0, backend="numpy")))
    assert not any("'large mean' preset" in n for n in far_variance)  # already that far out


def test_nan_warning_names_the_backend() -> None:
    assert words.nan_warning(analyse(setup(loc=1e4, spread=0.001, backend="jax"))) is None
    warning = words.nan_warning(analyse(setup(loc=1e4, spread=0.001, backend="numpy")))
    assert warning is not None and warning.startswith("Keras 3 (NumPy) produced NaN")


def test_batch_notes_use_k_not_m_and_the_live_factor() -> None:
    from lnviz.lessons.frameworks.diff import running_statistics, sample_input

    x = sample_input((2, 4, 8), 1.0, 1.0, 0)
    notes = words.batch_notes(running_statistics(x, "btf", 10), 10, 8)
    assert "k = 8" in notes[1] and "8/7" in notes[1] and "m − 1" not in notes[1]
    assert "after 10 steps" in notes[2]


def test_gap_text() -> None:
    assert words.gap(float("nan")) == "NaN" and words.gap(0.5) == "0.5"
