"""Every table a page draws through ui.table has its phone copy: an HTML table with the same
header and cells (lnviz.app.layout.phone_table), shown on a phone instead of the data grid,
which scrolls sideways there (tests/browser/test_phone_layout.py checks what is shown)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests import apptest_helpers as ah

# Pages whose default state draws tables with ui.table (not in an expander's fragment only).
PAGES = ["numerics", "reduction-axes", "sequences", "invariance", "epsilon"]


def _phone_tables(at: object) -> list[str]:
    return [
        str(h.proto.body)
        for h in at.get("html")
        if h.proto.body.startswith('<table class="lnviz-phone-table')
    ]


@pytest.mark.parametrize("name", PAGES)
def test_each_grid_has_a_phone_table_with_its_header_and_cells(name: str) -> None:
    at = ah.page(name)
    ah.assert_clean(at)
    tables = _phone_tables(at)
    grids = list(at.dataframe)
    assert grids and len(tables) == len(grids)
    for grid, table in zip(grids, tables, strict=True):
        frame = grid.value
        heads = [unescape(h) for h in re.findall(r"<th>(.*?)</th>", table)]
        assert heads == [str(c) for c in frame.columns]
        cells = [unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", table)]
        assert len(cells) == frame.shape[0] * frame.shape[1]
        for value, cell in zip(frame.to_numpy().ravel(), cells, strict=True):
            if isinstance(value, str):
                assert cell == value
        wide = frame.shape[1] > 3
        assert ("lnviz-cards" in table) == wide  # more than three columns: one card per row


def test_a_long_table_shows_its_first_rows_on_a_phone_and_says_so() -> None:
    from lnviz.app.layout import PHONE_ROWS
    from tests.deep_links import via_router

    at = via_router("reduction-axes", {"b": "8", "t": "16", "f": "32", "scheme": "instance"})
    ah.assert_clean(at)
    grid = at.dataframe[0].value  # the data grid keeps every row
    assert len(grid) > PHONE_ROWS
    table = _phone_tables(at)[0]
    assert table.count("<tr>") - 1 == PHONE_ROWS
    assert f"The first {PHONE_ROWS} of {len(grid)} rows" in table
