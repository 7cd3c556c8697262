"""Numbers grouped as the lecturer sees them: equal to 3 significant digits, each group
with the forms its answers were written in."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from lnviz.classpoll.questions import NumberGroup, group_numbers, rounded
from lnviz.classpoll.rooms import Poll
from lnviz.content.answers import read_answer
from tests.classpoll.test_rooms import NUMBER, started


def test_one_third_in_three_forms_is_one_group_with_its_forms_counted(
    make_poll: Callable[..., Poll],
) -> None:
    poll = make_poll(ttl_s=3600)
    code, key = started(poll, NUMBER)
    for text in ("1/3", "0.333", "1/3", "0.3333", "1/3", "0.5", "1/2", "-0.333"):
        poll.submit(code, Poll.new_voter(), text)
    groups = poll.tally(code, key, 1).number_groups
    assert groups == (
        NumberGroup(-0.333, 1, (("-0.333", 1),)),
        NumberGroup(0.333, 5, (("1/3", 3), ("0.333", 1), ("0.3333", 1))),
        NumberGroup(0.5, 2, (("0.5", 1), ("1/2", 1))),
    )


def test_values_apart_in_the_third_digit_are_apart() -> None:
    groups = group_numbers([("0.333", 0.333), ("0.334", 0.334), ("1000", 1000.0), ("1e3", 1e3)])
    assert [(g.value, g.count) for g in groups] == [(0.333, 1), (0.334, 1), (1000.0, 2)]
    zeros = group_numbers([("0", 0.0), ("-0", -0.0)])
    assert zeros == (NumberGroup(0.0, 2, (("-0", 1), ("0", 1))),)


def test_rounding_keeps_three_significant_digits() -> None:
    assert [rounded(x) for x in (1 / 3, 2 / 3, 12345.0, -0.0012345, 1e-9 / 3)] == [
        0.333, 0.667, 12300.0, -0.00123, 3.33e-10,
    ]  # fmt: skip


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), finite), max_size=40))
def test_groups_partition_the_answers(answers: list[tuple[str, float]]) -> None:
    groups = group_numbers(answers)
    assert sum(g.count for g in groups) == len(answers)
    values = [g.value for g in groups]
    assert values == sorted(values) and len(set(values)) == len(values)
    for g in groups:
        assert sum(n for _, n in g.forms) == g.count
        assert [n for _, n in g.forms] == sorted((n for _, n in g.forms), reverse=True)
        members = [text for text, v in answers if rounded(v) == g.value]
        assert sorted(members) == sorted(t for t, n in g.forms for _ in range(n))


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=999))
def test_a_fraction_and_its_decimal_to_three_digits_share_a_group(fraction: Fraction) -> None:
    """(A decimal of four digits may not: 59/23 = 2.5652... is 2.57, its "2.565" is 2.56.)"""
    exact = f"{fraction.numerator}/{fraction.denominator}"
    decimal = f"{float(fraction):.3g}"
    groups = group_numbers([(exact, read_answer(exact)), (decimal, read_answer(decimal))])
    assert len(groups) == 1 and groups[0].count == 2
