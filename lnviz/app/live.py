"""A live control: charts that follow the drag in the browser, the page that follows the release.

Design (issue 18):

- **States on the server, in advance, from the page's own builders.** The page names, for
  one value of the control, each chart the value moves with its figure builder and
  arguments (chart_frames); the charts are built at every grid value and what differs
  between them is sent (lnviz.figures.live.moving_parts: the moving traces' attributes
  and layout paths, float arrays as base64 float32). No second model, no trace indices
  written by hand: a frame is what the page would draw.
- **Switching in the browser.** A Streamlit components v2 component (JavaScript only, no
  iframe: live_component/live.js) draws a native range input. While it is dragged, each
  animation frame shows the frame of the value under the pointer on the page's own charts,
  only those on screen (the others catch up on release). Plotly.update redraws a whole chart
  (40-55 ms a chart in a software-rendered browser), so while the pointer moves a frame's
  trace attributes go through Plotly.animate without a redraw (Plotly's transition path
  redraws only the traces' lines, markers, bars and texts); the layout (titles, ranges,
  shapes) and trace types Plotly cannot animate follow with one Plotly.update once the
  pointer rests for 150 ms, and on release. Nothing is sent to the server during the drag.
- **The page's state on release.** Releasing the pointer (or pausing after arrow keys) sends
  the value once as a trigger; its callback puts it into the page's ordinary URL-bound
  control, so the link is updated and the page reruns once. Every chart, metric, note and
  alt text is then drawn by the server for the released value, as for any other move.
- **Why the page's charts, and the plotly.js that drew them.** The charts stay
  st.plotly_chart figures built by lnviz.figures (their theme, toolbar, alt text, download
  names and the tests that read them do not change), and the control drives them with the
  plotly.js that Streamlit loaded to draw them (window.Plotly, set by Streamlit's Plotly
  chart bundle): one plotly.js on the page, no CDN, no copy in the repository, and none of
  the 4.8 MB of the plotly package's own bundle sent again. A second plotly.js could not
  safely update figures that the first one drew.
- **Frames on demand.** Frames are built and sent only to a visitor who shows they are about
  to use the control: the pointer enters it (or the chart a point control drags), it gets
  the keyboard focus, or a finger presses it. The browser then sends one trigger
  ("wanted"), the control's fragment reruns once with its frames, and from then on this
  visitor's runs carry them for every new state. A class that only moves the ordinary
  sliders never pays for them (8-31 % of a move on the pages with live controls,
  docs/benchmarks.md). Until they arrive a drag works as the fallback below.
- **Fallback.** The ordinary slider stays on the page and stays the page's state: where the
  live control cannot run (no window.Plotly, a browser without the component), it says
  the charts update on release, and the slider works as before.

Where to call it: the release reruns what a widget at the same place would rerun. Outside
fragments that is the page (epsilon: ε feeds every section); inside an @st.fragment it is
that fragment, so the page control it sets must be drawn in the same fragment (invariance:
the scale factor a).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from lnviz.app.charts import build_spec, cache_key
from lnviz.app.controls import nearest
from lnviz.figures._spec import Chart
from lnviz.figures.live import TracesChange, moving_parts

_HERE = Path(__file__).parent / "live_component"
_LIVE = st.components.v2.component(
    "lnviz.live",
    js=(_HERE / "live.js").read_text(encoding="utf-8"),
    css=(_HERE / "live.css").read_text(encoding="utf-8"),
)

HINT = "Drag, or use the arrow keys: the charts follow in your browser; release to update the page."
HINT_STATIC = "The charts update when you release."
_HIDE_PAGE_CONTROL = "<style>.st-key-KEY { display: none; }</style>"


@dataclass(frozen=True)
class Frames:
    """A live control's frames (lnviz.figures.live payloads, one per chart it drives), named
    by `id` and built only when `payload` is read (frames on demand: module docstring).

    `id` is known without building them: a digest of the charts function's code, what it
    closes over and the options (lnviz.app.charts.cache_key), so equal states share one
    id. `payload` is the UTF-8 JSON object {"frames_id": id, "mode": "frames", "charts":
    [...]}, made once per state and sent as bytes, which Streamlit passes on as they are
    (the browser gets a Uint8Array; frames_id comes first, so live.js reads it without
    parsing a set it already holds). Sent as a dict holding the frames as text, every
    rerun encoded 30-200 kB of JSON twice (once to send it, once for an element identity
    that a keyed component does not use): 8-13 % of a rerun on the pages with live
    controls.
    """

    id: str
    name: str
    digest: str
    build: Callable[..., list[dict[str, Any]]] = field(compare=False, repr=False)
    args: tuple[Any, ...] = field(compare=False, repr=False)

    @property
    def payload(self) -> bytes:
        # by keyword: Streamlit looks up each positional argument's name with inspect.signature
        return _frames(
            name=self.name, digest=self.digest, frames_id=self.id, _build=self.build,
            _args=self.args,
        )  # fmt: skip


ChartsAt = Callable[[Any], Mapping[str, tuple[Chart, tuple[Any, ...]]]]


def chart_frames(charts_at: ChartsAt, options: Sequence[Any]) -> Frames:
    """The frames of the charts a live control moves, from the page's own builders:
    `charts_at(option)` names each chart's key, builder and arguments at that option, and
    each chart's frames are what differs between its figures over `options`
    (lnviz.figures.live.moving_parts). Built when a visitor asks for them, once per state.

    `charts_at` is part of the frames' key with what it closes over, so it should reach
    the page's state through its closure (pickled into the key), not through globals."""
    opts = tuple(options)
    name, digest = cache_key(charts_at, (opts,))
    frames_id = hashlib.blake2b(f"{name}\0{digest}".encode(), digest_size=12).hexdigest()
    return Frames(frames_id, name, digest, _built_frames, (charts_at, opts))


def _built_frames(charts_at: ChartsAt, options: tuple[Any, ...]) -> list[dict[str, Any]]:
    states = [charts_at(o) for o in options]
    frames = []
    for key in states[0]:
        try:
            figures = [build_spec(state[key][0].figure, state[key][1]) for state in states]
            frames.append(moving_parts(key, figures))
        except TracesChange:  # e.g. a stage undefined at some value: it follows on release,
            continue  # as a chart without frames does
    for chart in frames:
        for part in chart["layout"]:
            if part["path"] == "title.text":  # bold, as Streamlit's chart theme draws a title
                part["values"] = [_bold(v) for v in part["values"]]
    return [f for f in frames if f["data"] or f["layout"]]  # charts the control moves


def _bold(title: Any) -> Any:
    """A chart title as st.plotly_chart's "streamlit" theme shows it: wrapped in <b>."""
    return f"<b>{title}</b>" if isinstance(title, str) and not title.startswith("<b>") else title


# Shared by every page's live controls: 32 entries were evicted under a class of 30 (each
# visitor's moves make new states on six pages), so frames were rebuilt on most moves; an
# entry is 30-90 kB of JSON, so 128 hold about 10 MB.
@st.cache_data(max_entries=128, show_spinner=False)
def _frames(
    name: str,
    digest: str,
    frames_id: str,
    _build: Callable[..., list[dict[str, Any]]],
    _args: tuple[Any, ...],
) -> bytes:
    """build(*args) as the frames element's payload, cached by `name` and `digest`
    (lnviz.app.charts.cache_key)."""
    text = json.dumps(_build(*_args), separators=(",", ":"), sort_keys=True)
    return f'{{"frames_id":"{frames_id}","mode":"frames","charts":{text}}}'.encode()


FRAMES_SUFFIX = "--frames"  # the frames element's key: the control's key and this
FRAMES_RULE = f'[class*="{FRAMES_SUFFIX}"] {{ display: none; }}'  # (lnviz.app.layout's style)


WANTED_SUFFIX = "--wanted"  # session key (control key + this): the visitor asked for frames


def wanted(key: str) -> bool:
    """Whether this visitor has asked for the frames of the live control `key`."""
    return bool(st.session_state.get(f"{key}{WANTED_SUFFIX}"))


def _want(key: str) -> None:
    """The trigger's callback: from now on this visitor's runs carry the control's frames."""
    st.session_state[f"{key}{WANTED_SUFFIX}"] = True


def _send_frames(key: str, charts: Frames) -> None:
    """The frames, as an element of their own (hidden: lnviz.app.layout), beside the
    control `key`, once the visitor has asked for them (frames on demand). Its content
    changes only with the frames, so a rerun that moves the control's value does not send
    them again (Streamlit sends an element that the browser has already received as a
    reference to it)."""
    # In a box drawn in every run (hidden, as the frames are), so that the frames' arrival
    # does not shift the elements after it: a shifted expander would be drawn anew, folded.
    with st.container(key=f"{key}{FRAMES_SUFFIX}-box"):
        if wanted(key):
            _LIVE(key=f"{key}{FRAMES_SUFFIX}", data=charts.payload, height="content")


def released_value(key: str) -> int | None:
    """The index the live control `key` sent on release in this run, if any."""
    state = st.session_state.get(key)
    if state is None:
        return None
    value = state.get("released") if hasattr(state, "get") else getattr(state, "released", None)
    return int(value) if isinstance(value, int | float) else None


def live_control(
    label: str,
    *,
    key: str,
    param: str,
    options: Sequence[float],
    value: float,
    charts: Frames,
    fmt: Callable[[float], str],
    symbol: str,
    apply: Callable[[float], None] | None = None,
) -> None:
    """A live control over `options` for the page control `param` (its session key, bound
    to the URL), showing `value`; `charts` (chart_frames()) hold one frame per option,
    labelled "`symbol` = fmt(option)". On release the chosen option becomes
    st.session_state[param], or, when `apply` is given, `apply(option)` writes it (for a
    page control that is not one number, such as one coordinate of a vector typed in a
    text box).

    Without `apply` the live control is the one control of `param` a visitor sees: the
    page's own control stays the value's home (URL, presets, link checks) but is not drawn,
    so no quantity has two controls."""
    opts = list(options)
    index = opts.index(nearest(value, opts))

    def on_release() -> None:
        i = released_value(key)
        if i is not None and 0 <= i < len(opts):
            if apply is None:
                st.session_state[param] = opts[i]
            else:
                apply(opts[i])

    if apply is None:
        if not param.isidentifier():  # a page's own constant key, never a visitor's text
            raise ValueError(f"not a control key: {param!r}")
        hide = _HIDE_PAGE_CONTROL.replace("KEY", param)
        st.html(hide)
    _LIVE(
        key=key,
        data={
            "label": label,
            "labels": [f"{symbol} = {fmt(o)}" for o in opts],
            "index": index,
            "frames_id": charts.id,
            "hint": HINT,
            "hint_static": HINT_STATIC,
        },
        on_released_change=on_release,
        on_wanted_change=lambda: _want(key),
        height="content",
    )
    _send_frames(key, charts)  # after the control: asking for them does not move it


HINT_POINT = (
    "Drag the point x on the chart (or focus this box and use the arrow keys): the chart "
    "follows in your browser; release to update the page."
)
HINT_POINT_STATIC = "Type x in the box; the chart updates when you press Enter."


def live_point(
    label: str,
    *,
    key: str,
    chart: str,
    trace: int,
    xs: Sequence[float],
    ys: Sequence[float],
    value: Sequence[float],
    charts: Frames,
    symbol: str,
    apply: Callable[[tuple[float, float], str], None],
) -> None:
    """A live control in two dimensions: the visitor drags the point drawn by trace
    `trace` of the chart with Streamlit key `chart` (or moves it with the arrow keys, one
    lattice step each). The states are the lattice xs × ys (state k = (xs[k % nx],
    ys[k // nx])); `charts` (chart_frames()) hold one frame per state, and
    `value` is the page's point (the state nearest to it is current). While dragging, the
    browser turns the pointer into data coordinates with the chart's own axes, snaps to
    the lattice and shows that state's frame; on release the state is sent once and
    `apply(point, text)` writes it to the page (text: "x₁, x₂" as a vector box reads it).
    Presses away from the point keep the chart's own zoom and pan."""
    gx, gy = [float(v) for v in xs], [float(v) for v in ys]
    nx, ny = len(gx), len(gy)
    i = min(range(nx), key=lambda k: abs(gx[k] - float(value[0])))
    j = min(range(ny), key=lambda k: abs(gy[k] - float(value[1])))

    def on_release() -> None:
        k = released_value(key)
        if k is not None and 0 <= k < nx * ny:
            point = (gx[k % nx], gy[k // nx])
            apply(point, ", ".join(f"{round(v, 10) + 0.0:g}" for v in point))

    _send_frames(key, charts)
    _LIVE(
        key=key,
        data={
            "mode": "point",
            "label": label,
            "symbol": symbol,
            "chart": chart,
            "trace": int(trace),
            "xs": gx,
            "ys": gy,
            "index": j * nx + i,
            "value": [float(value[0]), float(value[1])],
            "frames_id": charts.id,
            "hint": HINT_POINT,
            "hint_static": HINT_POINT_STATIC,
        },
        on_released_change=on_release,
        on_wanted_change=lambda: _want(key),
        height="content",
    )
