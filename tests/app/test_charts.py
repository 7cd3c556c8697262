"""ui.chart: a cached, pre-built figure reaches the browser exactly as st.plotly_chart sends it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from lnviz.figures._margins import planned as planned_margins
from lnviz.figures._palette import QUALITATIVE


def _script() -> None:
    import plotly.graph_objects as go
    import streamlit as st

    from lnviz.app import ui

    def build(n: int) -> go.Figure:
        fig = go.Figure(go.Scatter(x=list(range(n)), y=[v * v for v in range(n)], name="sq"))
        fig.update_layout(height=300, xaxis_title="t", title={"text": "squares"})
        return fig

    n = int(st.query_params.get("n", "5"))
    st.session_state[ui.PRESENT_KEY] = st.query_params.get("present") == "true"
    ui.chart(build, n, alt="squares", key="cached")
    st.plotly_chart(build(n), key="plain", theme="streamlit")


def _specs(query: dict[str, str]) -> tuple[dict, dict]:
    at = AppTest.from_function(_script, default_timeout=30)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception
    charts = at.get("plotly_chart")
    return json.loads(charts[0].proto.spec), json.loads(charts[1].proto.spec)


def test_cached_chart_sends_the_same_figure_as_plotly_chart() -> None:
    """The same figure, except for the margins planned for one layout pass and the
    palette as its colour sequence (Streamlit's own light hues fail 3:1 on white)."""
    cached, plain = _specs({"n": "7"})
    assert cached["layout"].pop("margin") == planned_margins(plain)
    assert cached["layout"].pop("colorway") == list(QUALITATIVE)
    plain["layout"].pop("margin", None)
    assert cached == plain
    assert cached["layout"]["xaxis"]["title"]["text"] == "t"
    assert len(cached["data"][0]["x"]) in (7, 1)  # plain list, or one base64 typed array


def test_chart_follows_its_arguments() -> None:
    five, _ = _specs({"n": "5"})
    nine, _ = _specs({"n": "9"})
    assert five != nine


def test_presentation_mode_enlarges_a_copy_not_the_cache() -> None:
    big, plain = _specs({"n": "6", "present": "true"})
    from lnviz.figures import _presentation as pres

    assert big["layout"]["height"] == int(300 * pres.SCALE)
    assert big["layout"]["font"]["size"] == pres.FONT > 12
    # The theme sizes tick labels, axis titles and legends itself; those get sizes too.
    assert big["layout"]["xaxis"]["tickfont"]["size"] == pres.TICKS > 12
    assert big["layout"]["yaxis"]["title"]["font"]["size"] == pres.TITLES > 14
    assert big["layout"]["legend"]["font"]["size"] == pres.TITLES
    again, _ = _specs({"n": "6"})
    assert big["layout"]["margin"]["l"] > again["layout"]["margin"]["l"]  # larger labels
    assert again["layout"]["height"] == 300  # the cached figure was not changed
    assert plain["layout"]["height"] == 300


def _same_name_script() -> None:
    import streamlit as st

    from lnviz.app import charts as ui

    builders = []
    for filename, title in (("page_a.py", "A"), ("page_b.py", "B")):
        src = (
            "import plotly.graph_objects as go\n"
            f"def figure(n):\n    return go.Figure(layout={{'title': {{'text': '{title}'}}}})\n"
        )
        scope: dict = {}
        exec(compile(src, filename, "exec"), scope)  # two pages, one function name
        builders.append(scope["figure"])
    for i, build in enumerate(builders):
        ui.chart(build, 3, alt="t", key=f"c{i}")
    st.write("done")


def test_two_pages_functions_of_one_name_do_not_share_a_cache_entry() -> None:
    at = AppTest.from_function(_same_name_script, default_timeout=30).run()
    assert not at.exception
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    assert titles == ["A", "B"]


def test_arguments_are_keyed_by_their_pickled_bytes() -> None:
    import numpy as np

    from lnviz.app import charts as ui
    from lnviz.core import analyze_core

    a, b = (
        analyze_core(np.array([1.0, 2.0, 3.0]), 1 / 3),
        analyze_core(np.array([1.0, 2, 3]), 1 / 3),
    )
    assert ui._args_digest((a,)) == ui._args_digest((b,))  # equal results, one entry
    c = analyze_core(np.array([1.0, 2.0, 3.5]), 1 / 3)
    assert ui._args_digest((c,)) != ui._args_digest((a,))
    assert ui._args_digest((a, 1)) != ui._args_digest((a, 1.0000001))


def _lambdas_script() -> None:
    import plotly.graph_objects as go

    from lnviz.app import charts as ui

    builders = [lambda: go.Figure(layout={"title": {"text": "first"}})]
    builders.append(lambda: go.Figure(layout={"title": {"text": "second"}}))
    for word in ("third", "fourth"):  # one code, told apart by their default values
        builders.append(lambda word=word: go.Figure(layout={"title": {"text": word}}))
    for i, build in enumerate(builders):
        ui.chart(build, alt="t", key=f"l{i}")


def test_lambdas_without_arguments_each_draw_their_own_figure() -> None:
    at = AppTest.from_function(_lambdas_script, default_timeout=30).run()
    assert not at.exception, [e.message for e in at.exception]
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    assert titles == ["first", "second", "third", "fourth"]


def test_the_spec_cache_builds_a_figure_once_and_hands_out_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four runs of one figure (one in presentation mode, which enlarges its copy) build it
    once, and the enlarged copy does not reach the next run."""
    from lnviz.app import charts

    built: list[int] = []
    real = charts.build_spec

    def counted(build: Any, args: tuple[Any, ...]) -> dict:
        built.append(1)
        return real(build, args)

    monkeypatch.setattr(charts, "build_spec", counted)
    charts._figure_spec.clear()
    first, _ = _specs({"n": "11"})
    for query in ({"n": "11"}, {"n": "11", "present": "true"}, {"n": "11"}):
        _specs(query)
    assert len(built) == 1
    again, _ = _specs({"n": "11"})
    assert again == first


_ALT_CALLS: list[int] = []


def _counted_alt(n: int) -> str:
    _ALT_CALLS.append(n)
    return f"{n} bars"


def test_alt_texts_are_worked_out_once_per_figure_and_told_apart_by_closure() -> None:
    from lnviz.app.charts import _alt_text, alt_text

    _alt_text.clear()
    _ALT_CALLS.clear()
    for n in (1, 1, 2, 1):
        assert alt_text("f", str(n), _counted_alt, (n,)) == f"{n} bars"
    assert _ALT_CALLS == [1, 2]
    # two lambdas of one code, told apart only by what they close over
    texts = [alt_text("f", "1", (lambda n, w=w: f"{w}: {n}"), (1,)) for w in ("left", "right")]
    assert texts == ["left: 1", "right: 1"]


def _alt_script() -> None:
    import streamlit as st

    from lnviz.app import ui
    from lnviz.figures._spec import Chart, FigureSpec

    n = st.slider("n", 1, 20, 3, key="n", bind="query-params")
    pair = Chart(
        lambda k: FigureSpec().add_trace("bar", y=list(range(k))).figure(),
        lambda k: f"A bar chart of {k} bars.",
    )
    ui.chart(pair, n, key="bars")


def test_a_charts_alt_text_follows_its_arguments_through_the_cache() -> None:
    at = AppTest.from_function(_alt_script, default_timeout=30).run()
    assert not at.exception, [e.message for e in at.exception]
    (chart,) = at.get("plotly_chart")
    assert "3 bars" in chart.proto.alt
    at.slider(key="n").set_value(7).run()
    (chart,) = at.get("plotly_chart")
    assert "7 bars" in chart.proto.alt
    at.slider(key="n").set_value(3).run()
    (chart,) = at.get("plotly_chart")
    assert "3 bars" in chart.proto.alt
