"""A page opens at its own defaults: controls that share a key across pages (ε on most of
them) do not carry a value from the page the visitor leaves to the next one (issue 37)."""

from __future__ import annotations

from tests.apptest_helpers import assert_clean
from tests.deep_links import via_router


def eps_value(at) -> float:
    return next(s.value for s in at.select_slider if s.key == "eps")


def test_epsilon_set_on_one_page_does_not_carry_to_the_next() -> None:
    at = via_router("epsilon", {"eps": "0.01"})
    assert eps_value(at) == 0.01
    for page, own_default in (("invariance", 1 / 3), ("gain-and-bias", 0.0), ("epsilon", 1 / 3)):
        at.query_params.clear()  # a sidebar link carries no query
        at.switch_page(f"pages/{page}.py").run()
        assert_clean(at)
        assert eps_value(at) == own_default, page
        assert "eps" not in at.query_params


def test_a_link_into_a_page_still_sets_its_controls() -> None:
    at = via_router("epsilon", {"eps": "0.01"})
    at.query_params.clear()
    at.query_params["eps"] = "4/3"  # an in-page link to invariance with ε = 4/3
    at.switch_page("pages/invariance.py").run()
    assert eps_value(at) == 4 / 3


def test_presentation_mode_outlives_the_page_change() -> None:
    at = via_router("epsilon", {"present": "true", "eps": "0.01"})
    at.query_params.clear()
    at.query_params["present"] = "true"  # the router's own key stays in a sidebar link
    at.switch_page("pages/invariance.py").run()
    assert any(b.label == "Leave presentation mode" for b in at.button)
    assert eps_value(at) == 1 / 3
