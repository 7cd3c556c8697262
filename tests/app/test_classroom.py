"""Presentation mode for a lecture: a QR code of the current view and the link in large
type, a visible way out, larger type for a hall; embedded pages link to the full app."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.app import classroom
from lnviz.app.classroom import JOIN_KEY, PUBLIC_URL_ENV, qr_png
from tests.apptest_helpers import assert_clean, shown
from tests.deep_links import via_router
from tests.qr_reading import assert_encodes


def elements(at: object, kind: str) -> list[object]:
    found: list[object] = []

    def walk(node: object) -> None:
        for child in getattr(node, "children", {}).values():
            if type(child).__name__ == kind:
                found.append(child)
            walk(child)

    walk(at.main)  # type: ignore[attr-defined]
    return found


def test_the_png_carries_exactly_the_encoders_matrix() -> None:
    link = "http://127.0.0.1:8501/epsilon?present=true&eps=0.01&z=1,2,3"
    assert_encodes(qr_png(link, scale=8), link)


@pytest.fixture(autouse=True)
def classroom_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lecturer's laptop on a network: its address there is 192.168.1.20 (AppTest's own
    address is localhost), and no public URL is configured."""
    monkeypatch.setattr(classroom, "lan_address", lambda: "192.168.1.20")
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)


def open_join_panel(at: AppTest) -> AppTest:
    """Open the 'scan to open this view' panel as a click on its button does (a rerun)."""
    at.session_state[JOIN_KEY] = True
    return at.run()


def test_presentation_shows_the_join_panel_with_the_current_link_and_a_way_out() -> None:
    at = via_router("epsilon", {"present": "true", "eps": "0.01"})
    assert_clean(at)
    assert not elements(at, "Image")  # the QR code is made when the panel is opened
    open_join_panel(at)
    (heading,) = [h for h in at.subheader if str(h.value).startswith("http")]
    link = shown(str(heading.value))
    assert link == "http://192.168.1.20:8501/epsilon?eps=0.01"  # the students' view
    (image,) = elements(at, "Image")
    assert "QR code of the link" in str(image.proto)
    assert any(b.label == "Leave presentation mode" for b in at.button)
    at.button(key="leave-present").click().run()
    assert not any(b.label == "Leave presentation mode" for b in at.button)


def test_no_join_panel_outside_presentation_mode() -> None:
    at = via_router("epsilon", {"eps": "0.01"})
    assert not elements(at, "Image")
    assert not any(str(h.value).startswith("http") for h in at.subheader)


def _param(at: object, key: str) -> str | None:
    value = at.query_params.get(key)  # type: ignore[attr-defined]
    return value[-1] if isinstance(value, list) else value


def _presenting(at: object) -> bool:
    return any(b.label == "Leave presentation mode" for b in at.button)  # type: ignore[attr-defined]


def test_the_switch_belongs_to_the_router_so_the_mode_outlives_a_page_change() -> None:
    """Drawn by the entrypoint, the switch keeps its state on every page (a page's own
    control would be forgotten, and its value dropped from the link, on a page change)."""
    at = via_router("epsilon", {"present": "true"})
    (switch,) = [c for c in at.sidebar.checkbox if c.key == "present"]
    assert switch.value is True and _presenting(at)
    at.switch_page("../pages/invariance.py").run()
    assert_clean(at)
    assert _presenting(at)
    assert _param(at, "present") == "true"
    at.button(key="leave-present").click().run()
    assert not _presenting(at)
    at.switch_page("../pages/numerics.py").run()
    assert not _presenting(at)  # leaving sticks too


def test_in_page_links_carry_slide_mode_and_leave_presentation_to_its_bound_switch() -> None:
    """The switch is bound to the link by the router, so Streamlit carries `present` to every
    page; a link that named it as well arrived with it twice (tests/browser/
    test_presentation.py follows the links in a browser)."""
    at = via_router("epsilon", {"present": "true", "slide": "3"})
    nxt = [p for p in at.main.get("page_link") if "Next:" in p.proto.label]
    assert nxt and not any("present=" in p.proto.query_string for p in nxt)
    assert all("slide=1" in p.proto.query_string for p in nxt)  # a new page from its start


def test_slides_step_with_the_buttons_and_the_number_is_in_the_link() -> None:
    at = via_router("epsilon", {"present": "true"})
    assert "slide" not in at.query_params
    at.button(key="slide-start").click().run()
    assert _param(at, "slide") == "1"
    assert at.button(key="slide-previous").disabled
    at.button(key="slide-next").click().run()
    at.button(key="slide-next").click().run()
    assert _param(at, "slide") == "3"
    at.button(key="slide-previous").click().run()
    assert _param(at, "slide") == "2"
    open_join_panel(at)
    (heading,) = [h for h in at.subheader if str(h.value).startswith("http")]
    assert shown(str(heading.value)).endswith(":8501/epsilon")  # no present=true, no slide
    at.button(key="slide-end").click().run()
    assert "slide" not in at.query_params and not any(b.key == "slide-next" for b in at.button)


def test_a_bad_slide_number_is_refused_with_a_message() -> None:
    for raw in ("abc", "0", "-2", "41", "2.5"):
        at = via_router("epsilon", {"present": "true", "slide": raw})
        assert not at.exception
        (warning,) = [w for w in at.warning if "slide" in w.value]
        assert "section number from 1 to 40" in warning.value, raw
        assert "slide" not in at.query_params
        assert any(b.key == "slide-start" for b in at.button)  # the whole page


def test_a_slide_number_goes_with_presentation_mode() -> None:
    at = via_router("epsilon", {"slide": "2"})
    assert "slide" not in at.query_params and not at.warning
    at = via_router("epsilon", {"present": "true", "slide": "4"})
    at.button(key="leave-present").click().run()
    assert "slide" not in at.query_params


def test_the_qr_code_names_itself_and_its_link() -> None:
    at = open_join_panel(via_router("epsilon", {"present": "true", "slide": "2"}))
    (image,) = elements(at, "Image")
    link = "http://192.168.1.20:8501/epsilon"
    assert f"QR code of the link {link}" in str(image.proto)
    assert not at.warning


def test_a_laptop_without_a_network_is_warned_that_phones_cannot_open_the_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(classroom, "lan_address", lambda: None)
    at = open_join_panel(via_router("epsilon", {"present": "true", "eps": "0.01"}))
    (heading,) = [h for h in at.subheader if str(h.value).startswith("http")]
    assert shown(str(heading.value)) == "http://localhost:8501/epsilon?eps=0.01"
    (warning,) = at.warning
    assert "opens only on this computer" in warning.value and PUBLIC_URL_ENV in warning.value


def test_a_configured_public_address_is_the_one_students_get(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PUBLIC_URL_ENV, "https://lnviz.example.org")
    at = open_join_panel(via_router("numerics", {"present": "true", "slide": "3", "off": "10"}))
    (heading,) = [h for h in at.subheader if str(h.value).startswith("http")]
    assert shown(str(heading.value)) == "https://lnviz.example.org/numerics?off=10"
    monkeypatch.setenv(PUBLIC_URL_ENV, "not an address")
    at = open_join_panel(via_router("numerics", {"present": "true"}))
    assert any(PUBLIC_URL_ENV in w.value and "not an address" in w.value for w in at.warning)
