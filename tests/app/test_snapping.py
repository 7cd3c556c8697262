"""Off-grid values from links: every select slider shows its nearest allowed value and says
so (one rule: by ratio between positive values); values outside its range are refused."""

from __future__ import annotations

import pytest

from lnviz.app.controls import EPS_GRID, nearest
from tests.apptest_helpers import assert_clean
from tests.deep_links import via_router


@pytest.mark.parametrize(
    ("page", "key", "raw", "shown"),
    [
        ("epsilon", "eps", "0.5", "0.56"),
        ("epsilon", "eps", "2e-6", "1.8e-06"),
        ("epsilon", "eps", "1/2", "0.56"),
        ("epsilon", "a", "5", "3"),
        ("invariance", "eps", "0.0000005", "1e-06"),
    ],
)
def test_off_grid_link_snaps_to_the_nearest_value_and_says_so(
    page: str, key: str, raw: str, shown: str
) -> None:
    at = via_router(page, {key: raw})
    assert_clean(at)
    (slider,) = [w for w in at.select_slider if w.key == key]
    assert slider.format_func(slider.value) == shown
    notes = [str(i.value) for i in at.info if "between the slider's values" in str(i.value)]
    assert notes and f"nearest, {shown}" in notes[0]
    assert at.query_params[key] == [shown] or at.query_params[key] == shown


@pytest.mark.parametrize("raw", ["1000", "-1", "banana", "1e-9"])
def test_values_outside_the_range_are_refused(raw: str) -> None:
    at = via_router("epsilon", {"eps": raw})
    assert_clean(at)
    assert any("is not accepted" in str(w.value) for w in at.warning)
    assert not any("between the slider's values" in str(i.value) for i in at.info)


def test_nearest_is_by_ratio_for_positive_values() -> None:
    assert nearest(0.5, EPS_GRID) == pytest.approx(10**-0.25)
    assert nearest(5.0, [3.0, 10.0]) == 3.0  # 5/3 < 10/5
    assert nearest(0.0, [0.0, 1e-6, 1.0]) == 0.0
