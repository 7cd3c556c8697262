"""Scheme-dependent text of the reduction-axes page (lnviz.lessons.reduction_axes.notes)."""

from __future__ import annotations

import pytest

import lnviz
from lnviz.lessons.reduction_axes import notes as axes_text

X = lnviz.sample_tensor((2, 4, 6), 0)


def red(scheme: str, groups: int = 2, x=X, eps: float = 1e-5) -> lnviz.Reduction:
    return lnviz.reduce_tensor(x, scheme, num_groups=groups, eps=eps)


@pytest.mark.parametrize("scheme", lnviz.SCHEMES)
def test_text_follows_the_scheme(scheme: str) -> None:
    r = red(scheme)
    words = " ".join((axes_text.scheme_caption(r), *axes_text.scheme_notes(r)))
    if scheme == "rms":
        assert "variance" not in axes_text.scheme_caption(r)
        assert "mean square" in words and "no β" in words
        assert axes_text.output_name(r) == "y = γ·core"
        assert "mean square" in axes_text.eps_label_text(scheme)
        assert "mean square" in axes_text.eps_help(scheme)
    else:
        assert "mean and variance" in axes_text.scheme_caption(r)
        assert "no β" not in words and "β" in words
        assert axes_text.output_name(r) == "y = γ·core + β"
        assert "variance" in axes_text.eps_help(scheme)
    assert f"{r.group_count} groups" in words


def test_eps_help_gives_each_frameworks_default() -> None:
    assert axes_text.eps_help("batch").endswith("PyTorch 1e-05, Keras 3 0.001, Flax linen 1e-05.")
    assert "Flax linen 1e-06" in axes_text.eps_help("layer")
    assert axes_text.eps_help("layer_all") == axes_text.eps_help("layer")
    rms = axes_text.eps_help("rms")
    assert "PyTorch the machine epsilon of the input's dtype (1.2e−07 for float32)" in rms
    assert "Keras 3 1e-06" in rms


def test_group_notes_name_the_state_shown() -> None:
    """G = 1 and G = F are described as the current state, not as something to try."""
    one = " ".join(axes_text.scheme_notes(red("group", 1)))
    assert "Here G = 1" in one and "would" not in one
    every = " ".join(axes_text.scheme_notes(red("group", 6)))
    assert "Here G = F" in every and "would" not in every
    two = " ".join(axes_text.scheme_notes(red("group", 2)))
    assert "G = 1 would" in two


def test_single_entry_groups_are_explained() -> None:
    x = lnviz.sample_tensor((2, 1, 3), 0)  # one token: instance groups of one entry
    assert "single entry" in " ".join(axes_text.scheme_notes(red("instance", x=x)))
    assert "0/0" in " ".join(axes_text.scheme_notes(red("instance", x=x, eps=0.0)))
    assert "single entry" not in " ".join(axes_text.scheme_notes(red("layer", x=x)))


def test_display_columns_show_no_float_noise() -> None:
    shown = axes_text.display_columns({"mean": (0.1 + 0.2, 0.10666666666666667, -1e-17)})
    assert shown == {"mean": ["0.3", "0.106667", "0"]}
