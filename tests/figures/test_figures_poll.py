"""The class poll's answers chart: counts as drawn, rounds told apart without colour, the
right answer named only once revealed."""

from __future__ import annotations

from lnviz.figures.poll import ANSWERS, RIGHT_MARK

LABELS = ("grows", "stays the same", "shrinks")


def test_each_round_is_a_trace_with_its_counts() -> None:
    fig = ANSWERS.figure(LABELS, ((3, 5, 1), (1, 8, 0)), None)
    assert [t.name for t in fig.data] == ["round 1", "round 2"]
    assert list(fig.data[0].x) == [3, 5, 1] and list(fig.data[1].x) == [1, 8, 0]
    assert list(fig.data[1].text) == ["1", "8", "0"]
    patterns = {t.marker.pattern.shape for t in fig.data}
    assert len(patterns) == 2  # the rounds differ by pattern, not only by colour


def test_the_right_answer_is_named_after_the_reveal_only() -> None:
    hidden = ANSWERS.figure(LABELS, ((3, 5, 1),), None)
    shown = ANSWERS.figure(LABELS, ((3, 5, 1),), 1)
    assert not any(RIGHT_MARK in y for y in hidden.data[0].y)
    assert list(shown.data[0].y) == [LABELS[0], RIGHT_MARK + LABELS[1], LABELS[2]]
    assert RIGHT_MARK not in ANSWERS.alt(LABELS, ((3, 5, 1),), None)
    assert f"{RIGHT_MARK}{LABELS[1]}: 5" in ANSWERS.alt(LABELS, ((3, 5, 1),), 1)


def test_alt_text_gives_every_count_and_total() -> None:
    alt = ANSWERS.alt(LABELS, ((3, 5, 1), (1, 8, 0)), None)
    assert "Round 1, 9 answers: grows: 3; stays the same: 5; shrinks: 1." in alt
    assert "Round 2, 9 answers" in alt
    assert "none yet" in ANSWERS.alt((), ((),), None)


def test_the_chart_goes_through_the_json_every_chart_takes() -> None:
    """What reaches the browser (lnviz.figures._spec.json_data, with the colour cues):
    two rounds keep their own patterns."""
    from lnviz.figures import _spec

    data = _spec.json_data(ANSWERS.figure, LABELS, ((3, 5, 1), (1, 8, 0)), 1)["data"]
    assert [t["marker"]["pattern"]["shape"] for t in data] == ["", "/"]
