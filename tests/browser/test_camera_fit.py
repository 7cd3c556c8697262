"""The 3-D block of reduction axes fills a wide chart: its camera, set on the server for a
phone's narrow scene, comes closer in the browser when the chart is wider (lazy.js), on a
first visit (the chart drawn before the script arrived) and after a move."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from lnviz.lessons.reduction_axes.figures import CAMERA_ASPECT

from .conftest import PHONE
from .helpers import Visit, interact

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
SERVER_EYE = math.dist(
    (0, 0, 0), (1.45, -1.8, 1.15)
)  # lnviz.lessons.reduction_axes.figures.cube_figure's
CLOSEST = 0.6  # lazy.js's

# The camera Plotly drew with, the scene's width / height, and the aspect sent.
CAMERA_JS = """() => {
  const gd = document.querySelector('.st-key-cube .js-plotly-plot');
  const f = gd._fullLayout, s = f.scene, m = f.margin;
  const w = (f.width - m.l - m.r) * (s.domain.x[1] - s.domain.x[0]);
  const h = (f.height - m.t - m.b) * (s.domain.y[1] - s.domain.y[0]);
  const e = s.camera.eye;
  return { eye: Math.hypot(e.x, e.y, e.z), aspect: w / h, tuned: gd.layout.meta.lnvizCameraAspect };
}"""


def _expected(aspect: float) -> float:
    return SERVER_EYE * min(1.0, max(CLOSEST, CAMERA_ASPECT / aspect))


def _fitted(page: object) -> dict[str, float]:
    """The camera once fitted: the fit follows the draw (a relayout), so wait for it."""
    page.wait_for_function(  # type: ignore[attr-defined]
        f"() => {{ const g = ({CAMERA_JS})(); const s = {SERVER_EYE} * "
        f"Math.min(1, Math.max({CLOSEST}, {CAMERA_ASPECT} / g.aspect)); "
        "return Math.abs(g.eye - s) < 1e-3 * s; }",
        timeout=10_000,
    )
    return page.evaluate(CAMERA_JS)  # type: ignore[attr-defined]


@pytest.mark.parametrize("viewport", [PROJECTOR, PHONE], ids=["1920", "390"])
def test_the_camera_comes_closer_as_far_as_the_chart_is_wider(
    open_page: Callable[..., Visit], viewport: dict[str, int]
) -> None:
    visit = open_page("reduction-axes", {"b": "2", "t": "4", "f": "6"}, viewport=viewport)
    page = visit.page
    got = _fitted(page)
    assert got["tuned"] == CAMERA_ASPECT
    assert got["eye"] == pytest.approx(_expected(got["aspect"]), rel=1e-3)
    if viewport is PROJECTOR:
        assert got["eye"] < 0.7 * SERVER_EYE  # the block fills more of the wide chart
        # a move redraws the block (another entry): the camera stays fitted
        box = page.locator(".st-key-b input").first
        assert box.count() == 1
        interact(page, lambda: (box.fill("3"), box.press("Enter")))
        after = _fitted(page)
        assert after["eye"] == pytest.approx(_expected(after["aspect"]), rel=1e-3)
    else:
        assert got["eye"] == pytest.approx(SERVER_EYE, rel=1e-3)  # a phone keeps it all
