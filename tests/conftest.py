"""Shared test helpers: optional tools skip locally but fail under CI=true."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

from lnviz.figures import _spec

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# No per-example deadline: the suite runs beside browsers on two cores, where one example
# took 256 ms against Hypothesis's default 200 and failed a property that holds (speed is
# measured by benchmarks/, not by tests).
settings.register_profile("lnviz", deadline=None)
settings.load_profile("lnviz")

# Every figure built in this process (figure tests, AppTests) is checked by Plotly, property
# by property; the app's servers skip that check (tests/test_figure_spec.py shows both
# builds send the browser the same JSON). Servers started by the browser tests run as in
# production.
_spec.VALIDATE = True


def _scan_installed_components_once() -> None:
    """Each new AppTest scans the metadata of every installed distribution for Streamlit
    component manifests before its first run (streamlit 1.67: testing/v1/app_test.py,
    components/v2/manifest_scanner.py): about 0.8 s of the 0.9 s a page's AppTest took
    here, for a list that cannot change while the tests run. The server scans once, at
    its start; a test process now does the same. (lnviz's own components are registered
    by the pages, not by manifests: the scan finds none.)"""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    found: list[Any] = []

    def scan_once(max_workers: int | None = None) -> list[Any]:
        if not found:
            found.append(scan(max_workers))
        return list(found[0])

    manifest_scanner.scan_component_manifests = scan_once  # type: ignore[assignment]


_scan_installed_components_once()


def require_module(name: str) -> ModuleType:
    """Import an optional test dependency; skip without it, but fail in CI."""
    try:
        return importlib.import_module(name)
    except ImportError as err:  # pragma: no cover - depends on the machine
        message = f"{name} is required for this test ({err})"
        if IN_CI:
            pytest.fail(message + " and CI=true forbids skipping")
        pytest.skip(message)


def require_tool(path: str) -> str:
    """A required executable (e.g. Chromium); skip without it, but fail in CI."""
    if os.path.exists(path) and os.access(path, os.X_OK):
        return path
    message = f"{path} is required for this test"
    if IN_CI:  # pragma: no cover
        pytest.fail(message + " and CI=true forbids skipping")
    pytest.skip(message)


# The files that take longest on two workers, slowest first (their times in one full run,
# 2026-12-07 evening), browser or not. Scheduled first, so that the many short files fill the gaps
# at the end, in the full suite and in the fast tier (-m "not browser") alike.
SLOW_FIRST = (
    "tests/browser/test_browser_pages.py",
    "tests/browser/test_presentation.py",
    "tests/browser/test_phone_layout.py",
    "tests/browser/test_classroom.py",
    "tests/browser/test_balancer.py",
    "tests/browser/test_class_poll.py",
    "tests/app/test_hostile_urls.py",
    "tests/browser/test_live.py",
    "tests/browser/test_live_weighted.py",
    "tests/browser/test_class_poll_replicas.py",
    "tests/browser/test_accessibility.py",
    "tests/browser/test_live_more.py",
    "tests/test_bench_client.py",
    "tests/browser/test_lazy_charts.py",
    "tests/browser/test_course_path.py",
    "tests/browser/test_live_gain.py",
    "tests/app/test_every_page.py",
    "tests/browser/test_visitor_text.py",
    "tests/browser/test_page_change.py",
    "tests/app/test_live_frames.py",
    "tests/browser/test_streamlit_dom.py",
    "tests/browser/test_phone_swipe.py",
    "tests/browser/test_sessions.py",
    "tests/app/test_live_weighted.py",
    "tests/browser/test_camera_fit.py",
    "tests/browser/test_keyboard.py",
    "tests/browser/test_exercise_sheets.py",
    "tests/classpoll/test_concurrency.py",
    "tests/engine/test_properties.py",
    "tests/engine/test_params.py",
    "tests/test_packaging.py",
    "tests/app/test_select_slider_links.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Keep the collection order for xdist's loadfile: its default hands out files with the
    most tests first, which left the browser files (few tests, minutes each) for last, one
    worker running them alone while the other had finished."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """SLOW_FIRST's files first, in its order; the rest as collected."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
