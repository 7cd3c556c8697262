"""A page opens at its own defaults: controls that share a key across pages (ε on most of
them) do not carry a value from the page the visitor leaves to the next one (issue 37)."""

from __future__ import annotations

from lnviz.content import exercises, registry
from tests.apptest_helpers import assert_clean
from tests.deep_links import via_router

WIDGETS = ("select_slider", "slider", "text_input", "number_input", "selectbox", "radio", "toggle")


def eps_value(at) -> float:
    return next(s.value for s in at.select_slider if s.key == "eps")


def test_epsilon_set_on_one_page_does_not_carry_to_the_next() -> None:
    at = via_router("epsilon", {"eps": "0.01"})
    assert eps_value(at) == 0.01
    for page, own_default in (("invariance", 1 / 3), ("gain-and-bias", 0.0), ("epsilon", 1 / 3)):
        at.query_params.clear()  # a sidebar link carries no query
        at.switch_page(f"../pages/{page}.py").run()
        assert_clean(at)
        assert eps_value(at) == own_default, page
        assert "eps" not in at.query_params


def test_a_link_into_a_page_sets_the_controls_it_carries() -> None:
    """why-normalize's last question links to gain-and-bias with a vector z: the page opens
    with it (a key the page left does not bind)."""
    at = via_router("why-normalize", {"depth": "10"})
    at.query_params.clear()
    at.query_params.update({"z": "1, 3, 5, 3", "gamma": "1, 1, 1, 1", "beta": "0, 0, 0, 0"})
    at.switch_page("../pages/gain-and-bias.py").run()
    assert_clean(at)
    assert next(t.value for t in at.text_input if t.key == "z") == "1, 3, 5, 3"


def test_no_question_links_to_another_page_with_a_key_the_page_it_leaves_binds() -> None:
    """At a page change Streamlit drops a link's value for a key that a widget of the page
    left is bound to (its guard against stale values), so such a link would open the next
    page at that control's default: no question's link carries one."""
    crossing = 0
    for page in (p.url_path for p in registry.PAGES if p.url_path):
        questions = exercises.for_page(page)
        leaving = [q for q in questions if q.link.script != f"pages/{page}.py"]
        if not leaving:
            continue
        at = via_router(page)
        keys = {w.key for kind in WIDGETS for w in at.get(kind) if w.key}
        for q in leaving:
            crossing += 1
            assert not keys & set(q.link.params), (page, q.key, keys & set(q.link.params))
    assert crossing  # why-normalize's link to gain-and-bias at least


def test_presentation_mode_outlives_the_page_change() -> None:
    at = via_router("epsilon", {"present": "true", "eps": "0.01"})
    at.query_params.clear()
    at.query_params["present"] = "true"  # the router's own key stays in a sidebar link
    at.switch_page("../pages/invariance.py").run()
    assert any(b.label == "Leave presentation mode" for b in at.button)
    assert eps_value(at) == 1 / 3
