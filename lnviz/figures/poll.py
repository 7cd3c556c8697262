"""The class poll's bars: rounds told apart by pattern and the right answer by label, not colour."""

from __future__ import annotations

import plotly.graph_objects as go

from lnviz.figures._palette import BLUE, ORANGE
from lnviz.figures._spec import Chart, FigureSpec

RIGHT_MARK = "✓ right · "  # the right answer's label starts with it, once revealed
_ROUND_STYLE = ((BLUE, ""), (ORANGE, "/"))  # (colour, bar pattern) of rounds 1 and 2


def _label(text: str, is_right: bool) -> str:
    return (RIGHT_MARK if is_right else "") + text


def answers_figure(
    labels: tuple[str, ...], rounds: tuple[tuple[int, ...], ...], right: int | None
) -> go.Figure:
    """Horizontal bars, one row per answer, one bar per round; `right` marks the revealed answer."""
    fig = FigureSpec()
    names = [_label(text, i == right) for i, text in enumerate(labels)]
    for number, counts in enumerate(rounds, start=1):
        colour, pattern = _ROUND_STYLE[(number - 1) % 2]
        fig.add_bar(
            y=names, x=list(counts), orientation="h", name=f"round {number}",
            marker={"color": colour, "pattern": {"shape": pattern}},
            text=[str(c) for c in counts], textposition="outside", cliponaxis=False,
            hovertemplate="%{y}: %{x}<extra>round " + str(number) + "</extra>",
        )  # fmt: skip
    most = max((max(c, default=0) for c in rounds), default=0)
    fig.update_layout(
        title={"text": "How the class answered"},
        barmode="group",
        height=max(220, 70 + 48 * len(labels) * max(1, len(rounds))),
        margin={"t": 60, "l": 10, "r": 30, "b": 40},
        legend={"orientation": "h", "y": 1.08, "x": 0},
        showlegend=len(rounds) > 1,
    )
    fig.update_xaxes(title={"text": "answers"}, rangemode="tozero", dtick=max(1, most // 8 + 1))
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig.figure()


def answers_alt(
    labels: tuple[str, ...], rounds: tuple[tuple[int, ...], ...], right: int | None
) -> str:
    """The counts in words, round by round."""
    parts = []
    for number, counts in enumerate(rounds, start=1):
        said = "; ".join(
            f"{_label(t, i == right)}: {c}"
            for i, (t, c) in enumerate(zip(labels, counts, strict=True))
        )
        parts.append(f"Round {number}, {sum(counts)} answers: {said or 'none yet'}.")
    return "Bar chart of how the class answered. " + " ".join(parts)


ANSWERS = Chart(answers_figure, answers_alt)
