"""The transformer page's notes choose their words from the numbers."""

from __future__ import annotations

import dataclasses

import pytest

from lnviz.lessons.transformer import analysis as tp
from lnviz.lessons.transformer import (
    attention_scan,
    compare_placements,
    hidden_key_example,
    layer_norm_backward,
    notes,
    sample_tokens,
    selectable_keys,
    sphere_view,
    tanh_fit,
)


@pytest.fixture(scope="module")
def facts() -> tp.PlacementFacts:
    cmp = compare_placements(24, 16, hidden=32, precision="float32")
    return tp.placement_facts(cmp, tp.last_block_sweep(cmp, (1, 6, 24)))


def test_placement_words_follow_the_numbers(facts) -> None:
    first, second, *_ = notes.placement_notes(facts)
    assert "times larger" in first and "(about the same)" in second and "falls" in second
    flipped = dataclasses.replace(
        facts,
        last={**facts.last, "post": facts.last["pre"] / 2},
        post_over_pre=0.5,
        post_sweep=(facts.post_sweep[0], facts.post_sweep[0] / 3),
        post_flat_in_depth=False,
        pre_falls=False,
        pre_times_stream_spread=2.0,
    )
    first, second, *_ = notes.placement_notes(flipped)
    assert "only 0.5 times Pre-LN's" in first
    assert "(smaller)" in second and "does not fall" in second and "a factor 2" in second


def test_the_scaled_variant_and_the_paper_s_figure_are_explained_only_when_they_hold(
    facts,
) -> None:
    assert len(notes.placement_notes(facts)) == 2  # the rest folds away with the details
    stream, figure = notes.placement_details(facts)
    assert "divided by √24" in stream and "Figure 3" in figure
    assert f"{facts.pre_first_over_last:.2f}"[:3] in figure
    level = dataclasses.replace(
        facts,
        pre_first_over_last=1.0,
        last={**facts.last, "scaled": 2 * facts.last["pre"]},
    )
    only = notes.placement_details(level)
    assert len(only) == 1 and "divided by" not in only[0]


def test_across_blocks_words_follow_the_numbers(facts) -> None:
    flat = dataclasses.replace(facts, post_last_over_first=1.1, post_flat_across=True)
    assert "about the same in every block" in notes.across_blocks_text(flat)
    rising = dataclasses.replace(facts, post_last_over_first=2.0, post_flat_across=False)
    assert "larger near the output" in notes.across_blocks_text(rising)


def test_sphere_notes_at_eps_zero_and_above() -> None:
    z = sample_tokens(40, 3, seed=0)
    assert notes.sphere_notes(sphere_view(z, 0.0))[0].startswith("With ε = 0 every core")
    view = sphere_view(z, 0.01, gamma=[1.0, 1.0, 1.0])
    first, gain = notes.sphere_notes(view)
    assert first.startswith(f"{int(view.pulled_in.sum())} of 40 tokens")
    assert "a circle of radius 1.732" in gain


def test_attention_tanh_and_backward_notes() -> None:
    q, k = hidden_key_example()
    raw = attention_scan(q, k, (1.0, 100.0))
    normed = attention_scan(q, k, (1.0, 100.0), qk_norm="rms", tau=4.0)
    text = notes.attention_notes(raw, normed, selectable_keys(k, layer_norm=True))
    assert (
        "RMS norm, τ = 4" in text[1] and text[-1] == "After layer norm every key can be selected."
    )
    plain = tanh_fit(tokens=64, width=16, outlier_fraction=0.0)
    assert "No outliers" in notes.tanh_notes(plain)[-1]
    zero = layer_norm_backward([[1.0, 2.0, 4.0]], [[1.0, 0.0, 2.0]], eps=0.0)
    assert "orthogonal" in notes.backward_notes(zero)[1]
    assert notes.signed(-0.5) == "− 0.5"
