"""Frame values as JSON (lnviz.figures.live): the one-step conversion of short rows writes
exactly what encoding them one by one writes."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from lnviz.figures.live import encode, encode_rows

SHAPES = st.tuples(st.integers(1, 12), st.integers(0, 10))  # (frames, values per row)
FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=32)
ROWS = st.one_of(
    hnp.arrays(st.sampled_from([np.float64, np.float32]), SHAPES, elements=FLOATS).map(list),
    hnp.arrays(np.int64, SHAPES, elements=st.integers(-1000, 1000)).map(list),
    st.lists(  # rows of different lengths
        hnp.arrays(np.float64, st.integers(0, 10), elements=st.floats(width=32)),
        min_size=1,
        max_size=6,
    ),
    st.lists(FLOATS, min_size=1, max_size=6),  # one number per frame
    hnp.arrays(np.float64, st.integers(1, 12), elements=FLOATS),  # the same, as an array
    hnp.arrays(np.float64, SHAPES, elements=FLOATS),  # rows as one (frames, m) array
)


@given(ROWS)
def test_rows_encode_as_one_by_one(rows: list) -> None:
    one_by_one = [encode(v) for v in rows]
    fast = encode_rows(rows)
    assert json.dumps(fast, allow_nan=True) == json.dumps(one_by_one, allow_nan=True)
    assert [type(v) for v in fast] == [type(v) for v in one_by_one]
