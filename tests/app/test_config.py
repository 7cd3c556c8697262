"""The production settings in .streamlit/config.toml: present, spelled right, and in force.

Every option in the file must be one Streamlit 1.67 knows (a typo would be silently
ignored), and the hardening options must have their safe values, as Streamlit itself reads
them when started from the repository (checked in a fresh interpreter, so the test run's
own configuration is not disturbed).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from typing import Any

import pytest

from tests.apptest_helpers import ROOT

CONFIG = ROOT / ".streamlit" / "config.toml"

REQUIRED: dict[str, Any] = {
    "server.enableXsrfProtection": True,  # XSRF protection on
    "server.enableCORS": True,
    "client.showErrorDetails": "none",  # tracebacks only in the server log
    "client.showErrorLinks": False,
    "client.toolbarMode": "viewer",  # no developer menu for visitors
    "server.fileWatcherType": "none",  # no file watcher
    "server.runOnSave": False,
    "server.enableStaticServing": False,
    "server.enableAgentApi": False,
    "server.headless": True,
    "browser.gatherUsageStats": False,
    "runner.postScriptGC": False,  # capacity: docs/benchmarks.md (soak-tested)
}
LIMITS_MB = {  # upper bounds: no uploads, small client messages, bounded caches
    "server.maxUploadSize": 1,
    "server.maxWidgetStateSize": 2,
    "server.maxMessageSize": 16,
}
UPLOAD_WIDGETS = {"file_uploader", "camera_input", "audio_input", "chat_input"}


def options_in_file() -> dict[str, Any]:
    """Every option the file sets, by its dotted name (sections nest: [theme.dark])."""

    def flat(table: dict[str, Any], prefix: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in table.items():
            key = f"{prefix}.{name}" if prefix else name
            out |= flat(value, key) if isinstance(value, dict) else {key: value}
        return out

    return flat(tomllib.loads(CONFIG.read_text()), "")


def effective(keys: list[str]) -> dict[str, Any]:
    """The options as `streamlit run` in the repository sees them (fresh interpreter)."""
    code = (
        "import json, sys; from streamlit import config; "
        "print(json.dumps({k: config.get_option(k) for k in sys.argv[1:]}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *keys], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_every_option_in_the_file_exists_and_has_the_right_type() -> None:
    from streamlit import config

    known = config._config_options_template
    for key, value in options_in_file().items():
        assert key in known, f"{key} is not a Streamlit 1.67 option (typo?)"
        expected = known[key].type
        # some str options also take true/false (client.showErrorLinks: "auto", true, false)
        ok = isinstance(value, expected) or (expected is str and isinstance(value, bool))
        assert ok, f"{key} = {value!r} should be a {expected.__name__}"
        assert not known[key].deprecated, f"{key} is deprecated"


@pytest.mark.parametrize(("key", "value"), list(REQUIRED.items()))
def test_hardening_option_is_written_in_the_file(key: str, value: Any) -> None:
    assert options_in_file().get(key) == value, f"{CONFIG.name} must set {key} = {value!r}"


def test_streamlit_reads_the_hardened_values() -> None:
    keys = [*REQUIRED, *LIMITS_MB, "server.maxCacheDataSize"]
    seen = effective(keys)
    for key, value in REQUIRED.items():
        assert seen[key] == value, (key, seen[key])
    for key, limit in LIMITS_MB.items():
        assert 0 < seen[key] <= limit, (key, seen[key])
    size = str(seen["server.maxCacheDataSize"]).lower()
    assert size.endswith("mb") and 0 < float(size[:-2]) <= 128, size


def test_no_page_or_module_offers_an_upload() -> None:
    """maxUploadSize stays minimal only while no feature needs uploads."""
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("lnviz/**/*.py"), ROOT / "app.py"]:
        tree = ast.parse(path.read_text())
        calls = {
            node.func.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        assert not calls & UPLOAD_WIDGETS, f"{path.name} uses {calls & UPLOAD_WIDGETS}"


# Builders whose every piece of text is escaped (tested below): the only computed st.html.
ESCAPING_HTML_BUILDERS = {"phone_table", "numbers_html"}


def test_no_html_is_rendered_from_markdown_anywhere() -> None:
    """unsafe_allow_html is never used; st.html only with constant text, or with the output
    of a builder that escapes every cell (ESCAPING_HTML_BUILDERS)."""
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("lnviz/**/*.py"), ROOT / "app.py"]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                assert kw.arg != "unsafe_allow_html", f"{path.name}:{node.lineno}"
            if isinstance(node.func, ast.Attribute) and node.func.attr == "html":
                arg = node.args[0] if node.args else None
                built = (
                    isinstance(arg, ast.Call)
                    and isinstance(arg.func, ast.Name)
                    and arg.func.id in ESCAPING_HTML_BUILDERS
                )
                assert built or isinstance(arg, ast.Name | ast.Constant), (
                    f"{path.name}:{node.lineno}: st.html with computed text"
                )


def test_the_phone_table_escapes_every_header_and_cell() -> None:
    """What a visitor typed can reach a table cell (a vector, a label): in the phone's HTML
    copy of a table it is text, never markup."""
    from lnviz.app.layout import phone_table

    hostile = ["<script>alert(1)</script>", '" onmouseover="x', "<img src=x onerror=y>", "a & b"]
    html = phone_table(
        {h: [h, 1.5] for h in hostile} | {"x": ["<b>", "</td>"], "y": [1, 2], "z": [3, 4]}
    )
    for bad in ("<script", "<img", '" onmouseover', "<b>", "</td></td>"):
        assert bad not in html
    assert "&lt;script&gt;" in html and "&quot; onmouseover=&quot;x" in html
    assert html.count("<td") == 2 * 7 and html.count("<th>") == 7


def test_the_charts_numbers_escape_every_caption_header_and_cell() -> None:
    """A chart's names and labels can quote a visitor (a vector, a label): in the tables of
    its numbers they are text, never markup."""
    from lnviz.app.charts import numbers_html

    hostile = ["<script>alert(1)</script>", '" onmouseover="x', "<img src=x onerror=y>"]
    html = numbers_html([(h, {h: [h], "x": ["</td>"]}) for h in hostile])
    for bad in ("<script", "<img", '" onmouseover', "</td></td>"):
        assert bad not in html
    assert "&lt;script&gt;" in html and "&quot; onmouseover=&quot;x" in html
    assert html.count("<td>") == 2 * 3 and html.count("<th ") == 2 * 3
