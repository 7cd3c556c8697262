"""Fuzzing of lnviz.params, the one validated path for typed and linked values.

Every parser, fed anything at all, either returns a clean value (finite, within its bounds,
of the promised length) or raises LnvizError with a bounded one-line message naming the
field; clean values written back as text parse to themselves.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lnviz.errors import LnvizError
from lnviz.params import (
    _NUMBER,
    MAX_TEXT,
    clamp_int,
    parse_entries,
    parse_number,
    parse_search,
    parse_slug,
    parse_vector,
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text that reaches every branch: anything printable, number-shaped strings (which pass
# the syntax check and stress the arithmetic), and hand-picked hostile values.
HOSTILE = [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e308", "1e309", "-1e999", "1e999/1",
    "1/1e-5", "0/0", "1/0", "10" * 20, "1" + "0" * 30, "", " ", "-", ".", "1/", "/1",
    "<script>alert(1)</script>", "**x**", "[a](javascript:alert(1))", "`x`", "١٢",
    "1_000", "0x10", "1e-400", "\x00", "１２", "9" * 10_000,
]  # fmt: skip
numberish = st.from_regex(_NUMBER, fullmatch=True)
anything = st.one_of(st.text(max_size=60), numberish, st.sampled_from(HOSTILE))
vectorish = st.lists(st.one_of(numberish, st.sampled_from(HOSTILE)), max_size=20).map(", ".join)
bounds = st.tuples(st.floats(-1e6, 1e6, allow_nan=False), st.floats(0, 1e6, allow_nan=False)).map(
    lambda lw: (lw[0], lw[0] + lw[1])
)


def assert_clean_error(err: LnvizError, field: str) -> None:
    """A refusal names its field, is one line and stays short enough for a message box."""
    message = str(err)
    assert err.name == field
    assert message.startswith(f"{field} = ")
    assert "\n" not in message
    assert len(message) < 700, len(message)


# --------------------------------------------------------------------------- numbers


@FUZZ
@given(text=anything, lohi=bounds)
@example(text="1e999/1", lohi=(-1e6, 1e6))  # once an OverflowError, not an LnvizError
@example(text="1e308/0.1", lohi=(-1e6, 1e6))
def test_parse_number_returns_a_bounded_finite_float_or_refuses(text, lohi) -> None:
    lo, hi = lohi
    try:
        value = parse_number(text, "eps", lo, hi)
    except LnvizError as err:
        assert_clean_error(err, "eps")
        return
    assert isinstance(value, float)
    assert math.isfinite(value)
    assert lo <= value <= hi


@FUZZ
@given(x=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))
def test_parse_number_round_trips_every_float_it_accepts(x: float) -> None:
    assert parse_number(repr(x), "x") == x
    assert parse_number(f" {x!r} ", "x") == x  # surrounding blanks are ignored


@FUZZ
@given(p=st.integers(-(10**5), 10**5), q=st.integers(1, 10**5))
def test_parse_number_reads_fractions_exactly(p: int, q: int) -> None:
    assert parse_number(f"{p}/{q}", "x") == float(Fraction(p, q))


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e309", "1e999/1", "abc", "", "1/0"])
def test_parse_number_refuses_non_numbers_and_infinities(text: str) -> None:
    with pytest.raises(LnvizError, match=r"a number from -10 to 10"):
        parse_number(text, "z", -10, 10)


@pytest.mark.parametrize(("text", "lo", "hi"), [("11", -10, 10), ("-0.5", 0, 1), ("1e7", 0, 1e6)])
def test_parse_number_refuses_values_out_of_range(text: str, lo: float, hi: float) -> None:
    with pytest.raises(LnvizError) as info:
        parse_number(text, "a", lo, hi)
    assert f"from {lo:g} to {hi:g}" in str(info.value)


# --------------------------------------------------------------------------- vectors


@FUZZ
@given(text=st.one_of(anything, vectorish), n=st.integers(1, 8), extra=st.integers(0, 8))
def test_parse_vector_returns_a_bounded_finite_vector_or_refuses(text, n, extra) -> None:
    try:
        v = parse_vector(text, "z", min_len=n, max_len=n + extra, lo=-100, hi=100)
    except LnvizError as err:
        assert_clean_error(err, "z")
        return
    assert v.dtype == np.float64
    assert v.ndim == 1
    assert n <= v.size <= n + extra
    assert np.isfinite(v).all()
    assert (v >= -100).all() and (v <= 100).all()


@FUZZ
@given(xs=st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=1, max_size=16))
def test_parse_vector_round_trips(xs: list[float]) -> None:
    for sep in (", ", " ", ";"):
        text = sep.join(map(repr, xs))
        if len(text) <= MAX_TEXT:
            np.testing.assert_array_equal(parse_vector(text, "z", lo=-1e4, hi=1e4), xs)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1", "(got 1)"),
        (",".join(["1"] * 17), "(got 17)"),
        ("1, 2, nan", "('nan' is not a number in range)"),
        ("9" * 10_000, f"(at most {MAX_TEXT} characters)"),
    ],
)
def test_parse_vector_says_why(text: str, reason: str) -> None:
    with pytest.raises(LnvizError) as info:
        parse_vector(text, "z", min_len=2, max_len=16)
    assert reason in str(info.value)
    assert_clean_error(info.value, "z")


# --------------------------------------------------------------------------- integers

ints_and_junk = st.one_of(
    st.integers(),
    st.integers().map(str),
    st.floats(),
    st.none(),
    st.booleans(),
    anything,
)


@FUZZ
@given(value=ints_and_junk, lo=st.integers(-100, 100), width=st.integers(0, 100))
def test_clamp_int_returns_an_int_in_range_or_refuses(value, lo, width) -> None:
    hi = lo + width
    try:
        out = clamp_int(value, "seed", lo, hi)
    except LnvizError as err:
        assert_clean_error(err, "seed")
        assert f"a whole number from {lo} to {hi}" in str(err)
        return
    assert type(out) is int
    assert lo <= out <= hi


@FUZZ
@given(n=st.integers(-(10**40), 10**40), lo=st.integers(-100, 100), width=st.integers(0, 100))
def test_clamp_int_round_trips_and_clamps(n: int, lo: int, width: int) -> None:
    hi = lo + width
    assert clamp_int(str(n), "b", lo, hi) == min(hi, max(lo, n))
    assert clamp_int(n, "b", lo, hi) == min(hi, max(lo, n))


# --------------------------------------------------------------------------- tensor edits

shapes = st.tuples(st.integers(1, 8), st.integers(1, 16), st.integers(1, 32))


@FUZZ
@given(text=st.one_of(anything, st.text(alphabet="0123456789,;= .-/e", max_size=80)), shape=shapes)
def test_parse_entries_returns_valid_edits_or_refuses(text, shape) -> None:
    try:
        edits = parse_entries(text, "edits", shape)
    except LnvizError as err:
        assert_clean_error(err, "edits")
        return
    assert len(edits) <= 32
    for b, t, f, value in edits:
        assert 0 <= b < shape[0] and 0 <= t < shape[1] and 0 <= f < shape[2]
        assert math.isfinite(value) and -1000 <= value <= 1000


@FUZZ
@given(data=st.data(), shape=shapes)
def test_parse_entries_round_trips(data, shape) -> None:
    entry = st.tuples(
        st.integers(0, shape[0] - 1),
        st.integers(0, shape[1] - 1),
        st.integers(0, shape[2] - 1),
        st.floats(-1000, 1000, allow_nan=False),
    )
    edits = data.draw(st.lists(entry, max_size=12))
    text = "; ".join(f"{b},{t},{f}={v!r}" for b, t, f, v in edits)
    if len(text) <= MAX_TEXT:
        assert parse_entries(text, "edits", shape) == tuple(edits)


@pytest.mark.parametrize(
    "text",
    ["9,0,0=1", "0,0,0", "0,0,0=nan", "0,0,0=1e999/1", "; ".join(["0,0,0=1"] * 33), "x" * 500],
)
def test_parse_entries_refuses(text: str) -> None:
    with pytest.raises(LnvizError) as info:
        parse_entries(text, "edits", (2, 2, 2))
    assert "b,t,f=value" in str(info.value)


# --------------------------------------------------------------------------- names and words


@FUZZ
@given(text=st.one_of(anything, st.text(alphabet="abcXYZ019-_ \n.<>", max_size=70)))
def test_parse_slug_returns_a_safe_slug_or_refuses(text: str) -> None:
    try:
        slug = parse_slug(text, "term", 60)
    except LnvizError as err:
        assert_clean_error(err, "term")
        assert "hyphens" in err.accepted
        return
    assert 1 <= len(slug) <= 60
    assert set(slug) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")
    assert not slug.startswith("-") and not slug.endswith("-") and "--" not in slug
    assert parse_slug(slug.upper(), "term", 60) == slug  # round trip, case forgiven


@FUZZ
@given(text=anything, limit=st.integers(0, 80))
def test_parse_search_returns_collapsed_bounded_text_or_refuses(text: str, limit: int) -> None:
    try:
        words = parse_search(text, "search", limit)
    except LnvizError as err:
        assert_clean_error(err, "search")
        assert f"at most {limit} characters" in err.accepted
        return
    assert len(words) <= limit
    assert words == " ".join(words.split())  # one line, single blanks, no edges
    assert parse_search(words, "search", limit) == words
