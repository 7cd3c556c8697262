"""The worked examples: every step computed by the engine, and the steps reach the numbers
the sources state (the catalogue's stated values) for the same input."""

from __future__ import annotations

import numpy as np
import pytest

import lnviz
from lnviz.content import claims
from lnviz.content import examples_worked as ex
from lnviz.content.text import vector_with_exact, with_exact


def values(example: ex.Example) -> dict[str, str]:
    return {s.label.split(" = ")[0].split(",")[0]: s.value for s in ex.worked(example).steps}


@pytest.mark.parametrize("example", ex.EXAMPLES, ids=lambda e: e.title)
def test_steps_follow_the_formula_in_order(example: ex.Example) -> None:
    labels = [s.label for s in ex.worked(example).steps]
    assert labels[:4] == ["input z", "mean μ", "centred v = z − μ𝟏", "variance q"]
    assert labels[5].startswith("core u")
    assert ("output y = γ ⊙ u + β" in labels) == (example.gamma is not None)
    st = lnviz.affine_stages(example.z, example.gamma, example.beta, example.eps)
    got = values(example)
    assert got["variance q"] == with_exact(st.q)
    assert got["core u"] == vector_with_exact(st.core.values)
    if example.gamma is not None:
        assert got["output y"] == vector_with_exact(st.output.values)
    assert example.claim in {c.id for c in claims.CATALOG}


@pytest.mark.parametrize("example", ex.EXAMPLES, ids=lambda e: e.title)
def test_the_final_vector_is_a_number_the_sources_state(example: ex.Example) -> None:
    """The last vector worked out equals an expected value of the example's claim."""
    claim = claims.claim_by_id(example.claim)
    st = lnviz.affine_stages(example.z, example.gamma, example.beta, example.eps)
    final = st.output.values if example.gamma is not None else st.core.values
    expected = [np.asarray(c.expected, float) for c in claim.checks]
    assert any(e.shape == final.shape and np.allclose(e, final, atol=1e-12) for e in expected)


def test_the_toy_shows_mean_one_third_and_variance_eleven_ninths() -> None:
    got = values(ex.EXAMPLES[0])
    assert got["mean and variance of y"] == "0.333333 = 1/3 and 1.222222 = 11/9"
    assert got["core u"].endswith("= (−√(3/2), 0, √(3/2))")


def test_the_unequal_shift_reaches_minus_four_over_root_seventeen() -> None:
    got = values(ex.EXAMPLES[-1])
    assert got["core u"].endswith("(−4/√17, −1/√17, 5/√17)")
