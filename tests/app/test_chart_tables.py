"""The numbers behind every chart (issue 35): the sidebar's "Charts as tables" switch puts a
text table of each chart's numbers under it, read from the chart's own Plotly JSON."""

from __future__ import annotations

import json

import pytest

from lnviz.app.charts import TABLES_KEY
from lnviz.content.registry import PAGES
from lnviz.figures._numbers import MAX_COLUMNS, MAX_ROWS, tables
from tests import apptest_helpers as ah

LABEL = "The numbers behind this chart"


def _numbers_boxes(at) -> list:
    return [e for e in at.expander if e.label == LABEL]


def test_the_switch_puts_a_table_under_every_chart_and_off_none() -> None:
    at = ah.page("epsilon")
    charts = len(at.get("plotly_chart"))
    assert charts >= 2 and not _numbers_boxes(at)
    at.sidebar.toggle(key=TABLES_KEY).set_value(True).run()
    ah.assert_clean(at)
    boxes = _numbers_boxes(at)
    assert len(boxes) == charts == len(at.get("plotly_chart"))
    assert all("<table>" in box.get("html")[0].proto.body for box in boxes)  # its table(s)
    at.switch_page("../pages/invariance.py").run()  # the switch holds on the next page
    assert len(_numbers_boxes(at)) == len(at.get("plotly_chart")) > 0
    at.sidebar.toggle(key=TABLES_KEY).set_value(False).run()
    assert not _numbers_boxes(at)


@pytest.mark.parametrize("name", [p.url_path or "home" for p in PAGES])
def test_every_chart_at_its_defaults_gives_small_tables(name: str) -> None:
    at = ah.page(name)
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        found = tables(spec)
        assert found or not spec["data"], f"{name}: a chart without numbers"  # or a diagram
        traces = len(spec["data"])
        for caption, columns in found:
            lengths = {len(c) for c in columns.values()}
            assert len(lengths) == 1 and 0 < lengths.pop() <= MAX_ROWS * traces, caption
            assert len(columns) <= MAX_COLUMNS + 6, caption
