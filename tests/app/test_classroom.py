"""Presentation mode for a lecture: a QR code of the current view and the link in large
type, a visible way out, larger type for a hall; embedded pages link to the full app."""

from __future__ import annotations

import io

import segno
from PIL import Image

from lnviz.app.classroom import qr_png
from tests.apptest_helpers import assert_clean, shown
from tests.deep_links import via_router


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
    scale, border = 8, 4
    img = Image.open(io.BytesIO(qr_png(link, scale=scale))).convert("L")
    matrix = segno.make(link, error="m", micro=False).matrix
    n = len(matrix)
    assert img.size == ((n + 2 * border) * scale,) * 2
    read = [
        [img.getpixel(((border + c) * scale + scale // 2, (border + r) * scale + scale // 2)) < 128
         for c in range(n)]
        for r in range(n)
    ]  # fmt: skip
    assert read == [[bool(v) for v in row] for row in matrix]


def test_presentation_shows_the_join_panel_with_the_current_link_and_a_way_out() -> None:
    at = via_router("epsilon", {"present": "true", "eps": "0.01"})
    assert_clean(at)
    (heading,) = [h for h in at.subheader if str(h.value).startswith("http")]
    link = shown(str(heading.value))
    assert link.endswith("/epsilon?present=true&eps=0.01")
    (image,) = elements(at, "Image")
    assert "QR code of the link" in str(image.proto)
    assert any(b.label == "Leave presentation mode" for b in at.button)
    at.button(key="leave-present").click().run()
    assert not any(b.label == "Leave presentation mode" for b in at.button)


def test_no_join_panel_outside_presentation_mode() -> None:
    at = via_router("epsilon", {"eps": "0.01"})
    assert not elements(at, "Image")
    assert not any(str(h.value).startswith("http") for h in at.subheader)
