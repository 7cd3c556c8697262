"""The test harness itself: what tests/conftest.py changes for the speed of AppTests."""

from __future__ import annotations

import importlib.metadata

import pytest
from streamlit.testing.v1 import AppTest

SCRIPT = "import streamlit as st\nst.write('hello')"


def test_a_new_apptest_does_not_scan_the_installed_packages_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Streamlit's AppTest scans every installed distribution for component manifests
    before each new test's first run; this process scans once (tests/conftest.py)."""
    AppTest.from_string(SCRIPT).run()  # the process's scan, if no test did it before
    scanned: list[int] = []

    def distributions(*args: object, **kwargs: object) -> list[object]:
        scanned.append(1)
        return []

    monkeypatch.setattr(importlib.metadata, "distributions", distributions)
    at = AppTest.from_string(SCRIPT).run()
    assert not at.exception
    assert at.markdown[0].value == "hello"
    assert not scanned
