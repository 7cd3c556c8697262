"""One rule for every select slider of every page: a link's value between two of its values
shows the nearer one (lnviz.app.controls.nearest) and says so, and the link is rewritten.

The table lists every select slider a page draws at its default state (plus the ones a
state opens, with that state); a test checks that the table misses none, so a new slider
joins the rule's test as soon as a page draws it.
"""

from __future__ import annotations

import itertools
import math

import pytest

from lnviz.app.controls import nearest
from lnviz.content import registry
from lnviz.params import parse_number
from tests.apptest_helpers import assert_clean
from tests.deep_links import via_router

# page -> the keys of its select sliders at the default state
AT_DEFAULTS = {
    "why-normalize": ("gain", "depth"),
    "gain-and-bias": ("eps",),
    "epsilon": ("eps", "a"),
    "invariance": ("eps", "c", "a", "cb"),
    "reduction-axes": ("groups", "eps"),
    "sequences": ("eps", "at", "size", "steps"),
    "batch-statistics": ("shift", "spread", "mt", "mk", "eps"),
    "transformer": ("depth", "width", "d", "eps", "tau", "outliers", "beps"),
    "frameworks": ("g", "loc", "sd"),
    "numerics": ("off", "eps"),
}
# sliders that a state other than the default draws: (page, key, that state)
IN_STATES = [("frameworks", "steps", {"scheme": "batch"})]

CASES = [(page, key, {}) for page, keys in AT_DEFAULTS.items() for key in keys] + IN_STATES


def _number(label: str) -> float:
    return parse_number(label.replace("−", "-").replace(",", ""), "option", -1e300, 1e300)


def _between(options: list[float]) -> tuple[float, float]:
    """A value strictly between two neighbouring options, nearer the first of them by the
    slider's rule, and that option: by ratio between positive options, else by difference."""
    for a, b in itertools.pairwise(options):
        if a > 0 and b > 0:
            return a * (b / a) ** 0.3, a
    a, b = options[0], options[1]
    return a + 0.3 * (b - a), a


@pytest.mark.parametrize(("page", "key", "state"), CASES, ids=lambda v: str(v) if v else "")
def test_an_off_grid_link_snaps_to_the_nearest_value_and_says_so(
    page: str, key: str, state: dict[str, str]
) -> None:
    at = via_router(page, state)
    (slider,) = [w for w in at.select_slider if w.key == key]
    labels = list(slider.options)
    options = [_number(label) for label in labels]
    value, expected = _between(options)
    raw = f"{value:.6g}"
    assert raw not in labels and not any(math.isclose(value, o) for o in options)
    assert nearest(value, options) == expected  # the rule, on this slider's values

    at = via_router(page, {**state, key: raw})
    assert_clean(at)
    (slider,) = [w for w in at.select_slider if w.key == key]
    shown = labels[options.index(expected)]
    assert slider.format_func(slider.value) == shown
    notes = [str(i.value) for i in at.info if "between the slider's values" in str(i.value)]
    assert notes and f"nearest, {shown}" in notes[0], notes
    assert not [w.value for w in at.warning if "is not accepted" in str(w.value)]
    if key in at.query_params:  # (a bound widget at its default value leaves the link)
        link = at.query_params[key]
        assert (link[-1] if isinstance(link, list) else link) == shown


@pytest.mark.parametrize("page", [p.url_path for p in registry.PAGES if not p.is_home])
def test_the_table_lists_every_select_slider_a_page_draws(page: str) -> None:
    at = via_router(page)
    assert_clean(at)
    drawn = tuple(w.key for w in at.select_slider)
    assert set(drawn) == set(AT_DEFAULTS.get(page, ())), drawn
