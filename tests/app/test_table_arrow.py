"""ui.table hands Streamlit an Arrow table built from the columns (no trip through pandas),
and the columns as they are when Arrow cannot type one; both show the same grid."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from lnviz.app.layout import _arrow


def test_typed_columns_become_an_arrow_table_with_their_types() -> None:
    table = _arrow(
        {"name": ["a", "b"], "x": [np.float64(0.5), 1.25], "n": [1, 2], "ok": [True, False]}
    )
    assert isinstance(table, pa.Table)
    assert [str(t) for t in table.schema.types] == ["string", "double", "int64", "bool"]
    assert table.column("x").to_pylist() == [0.5, 1.25]


def test_a_column_arrow_cannot_type_goes_the_old_way() -> None:
    columns = {"value": [1.5, "—"]}  # a number beside a word
    assert _arrow(columns) is columns


def test_anything_but_a_mapping_passes_through() -> None:
    rows = [[1, 2], [3, 4]]
    assert _arrow(rows) is rows
