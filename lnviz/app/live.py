"""Live controls: charts follow a drag in the browser, the page follows the release."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from lnviz.app.charts import build_spec, cache_key, chart
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
    """A control's frames, named by a digest of their state and built only when sent."""

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


Charts = Mapping[str, tuple[Chart, tuple[Any, ...]]]  # chart key -> (builder, arguments)
ChartsAt = Callable[[Any], Charts]


def draw(charts: Charts, key: str) -> None:
    """Draw chart `key` of `charts_at(value)`: the page and its frames share one source."""
    pair, args = charts[key]
    chart(pair, *args, key=key)


def chart_frames(charts_at: ChartsAt, options: Sequence[Any]) -> Frames:
    """Frames of `charts_at(option)` over `options`; state via its closure (it is the key)."""
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
    for moving in frames:
        for part in moving["layout"]:
            if part["path"] == "title.text":  # bold, as Streamlit's chart theme draws a title
                part["values"] = [_bold(v) for v in part["values"]]
    return [f for f in frames if f["data"] or f["layout"]]  # charts the control moves


def _bold(title: Any) -> Any:
    """A chart title as st.plotly_chart's "streamlit" theme shows it: wrapped in <b>."""
    return f"<b>{title}</b>" if isinstance(title, str) and not title.startswith("<b>") else title


# Shared by every page's live controls: at 32 entries a class of 30 evicted most states
# and frames were rebuilt on most moves (sizes in docs/benchmarks.md, "Timings behind the code").
@st.cache_data(max_entries=128, show_spinner=False)
def _frames(
    name: str,
    digest: str,
    frames_id: str,
    _build: Callable[..., list[dict[str, Any]]],
    _args: tuple[Any, ...],
) -> bytes:
    """build(*args) as the frames element's JSON bytes, cached by `name` and `digest`."""
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
    """The frames as a hidden element of their own: a move of the value does not resend them."""
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
    """A drag over `options` whose release sets `param` (or calls `apply`); without `apply`
    it replaces the page's own control on screen, so no quantity has two controls."""
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
    """Drag trace `trace`'s point on chart `chart` over the lattice xs × ys (state k =
    (xs[k % nx], ys[k // nx])); the release calls `apply(point, "x₁, x₂")` once."""
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
