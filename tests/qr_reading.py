"""Reading a QR code's PNG back, module by module, for the classroom tests (AppTest and
browser): the image must carry exactly the matrix segno encodes for the link."""

from __future__ import annotations

import io

import segno
from PIL import Image

BORDER = 4  # the quiet zone lnviz.app.classroom.qr_png draws, in modules


def read_modules(png: bytes, n: int) -> list[list[bool]]:
    """The n x n dark modules of a QR code PNG with a BORDER-module quiet zone, read at each
    module's centre; asserts the image is square and a whole number of pixels per module."""
    img = Image.open(io.BytesIO(png)).convert("L")
    scale = img.size[0] // (n + 2 * BORDER)
    assert img.size == ((n + 2 * BORDER) * scale,) * 2
    return [
        [img.getpixel(((BORDER + c) * scale + scale // 2, (BORDER + r) * scale + scale // 2)) < 128
         for c in range(n)]
        for r in range(n)
    ]  # fmt: skip


def assert_encodes(png: bytes, link: str) -> None:
    """The PNG shows exactly the matrix segno makes for `link` (error level M, no micro)."""
    matrix = segno.make(link, error="m", micro=False).matrix
    assert read_modules(png, len(matrix)) == [[bool(v) for v in row] for row in matrix]
