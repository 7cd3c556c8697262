"""Charts: a figure builder and its alt text drawn with one call, from a cache of built JSON."""

from __future__ import annotations

import functools
import hashlib
import html
import pickle
from collections.abc import Callable
from types import CodeType, ModuleType
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from lnviz.app.chrome import presenting
from lnviz.app.targets import current_url_path
from lnviz.figures._margins import planned as planned_margins
from lnviz.figures._numbers import tables
from lnviz.figures._presentation import enlarged
from lnviz.figures._spec import Chart, json_data


def download_name(key: str) -> str:
    """lnviz-<page>-<key>: the PNG name of a chart, the same rule on every page."""
    page = current_url_path() or "home"
    return f"lnviz-{page}-{key}"


def chart(
    pair: Chart | Callable[..., go.Figure],
    *args: Any,
    key: str,
    alt: str | None = None,
    static: bool = False,
) -> None:
    """Draw `pair.figure(*args)`, alt `pair.alt(*args)`, from JSON cached by (builder, args)."""
    if not isinstance(pair, Chart) and alt is None:
        raise TypeError("a bare figure function needs its alt text")
    build = pair.figure if isinstance(pair, Chart) else pair
    name, digest = cache_key(build, args)
    if isinstance(pair, Chart):
        alt = alt_text(name, digest, pair.alt, args)
    spec = _figure_spec(name, digest, build, args)  # a fresh copy
    if presenting() and not static:  # charts large and legible from the back of a room
        enlarged(spec)
    touch = touch_screen()
    if touch:  # a swipe that starts on a chart scrolls the page
        no_drag(spec)
    still = touch and has_scene(spec)  # a 3-D scene holds every touch for its camera
    config = {
        "staticPlot": static or still,
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": download_name(key), "scale": 2},
        "modeBarButtonsToRemove": ["lasso2d", "select2d"],
    }
    with_numbers = bool(st.session_state.get(TABLES_KEY))
    if still or with_numbers:  # a box: still on a phone (lnviz.app.layout), numbers below
        with st.container(key=f"{STILL_3D if still else 'chart-'}{key}"):
            st.plotly_chart(_BuiltFigure(spec), key=key, config=config, alt=alt, theme="streamlit")
            if with_numbers:
                numbers(spec)
        return
    st.plotly_chart(_BuiltFigure(spec), key=key, config=config, alt=alt, theme="streamlit")


TABLES_KEY = "lnviz-chart-tables"  # the sidebar switch: every chart's numbers as tables


def tables_switch() -> None:
    """The sidebar's switch for every chart's numbers as tables, drawn by the router: app-wide."""
    if not st.context.is_embedded:
        st.sidebar.toggle(
            "Charts as tables",
            key=TABLES_KEY,
            help="Under every chart, a table of the numbers it draws: for a screen reader, "
            "or to read exact values.",
        )


def numbers(spec: dict[str, Any]) -> None:
    """The chart's numbers folded under it, as HTML tables a screen reader reads (not a canvas)."""
    found = tables(spec)
    if found:
        with st.expander("The numbers behind this chart", icon=":material/table:"):
            st.html(numbers_html(found))


def numbers_html(found: list[tuple[str, dict[str, list[str]]]]) -> str:
    """Tables of text columns under their captions, every text escaped."""
    esc = functools.partial(html.escape, quote=True)
    out = []
    for caption, columns in found:
        head = "".join(f'<th scope="col">{esc(name)}</th>' for name in columns)
        rows = "".join(
            "<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>"
            for row in zip(*columns.values(), strict=True)
        )
        out.append(
            f'<p class="{NUMBERS_CLASS}-caption">{esc(caption)}</p><div class="{NUMBERS_CLASS}"'
            f' tabindex="0" role="region" aria-label="{esc(caption)}">'
            f"<table><tr>{head}</tr>{rows}</table></div>"
        )
    return "".join(out)


NUMBERS_CLASS = "lnviz-numbers"  # its style: lnviz.app.layout


MOBILE_MARKS = ("Mobi", "Android", "iPhone", "iPad")  # in a phone's or tablet's User-Agent
STILL_3D = "still-3d-"  # key prefix of the box around a 3-D chart drawn still on a phone


def touch_screen() -> bool:
    """A phone or tablet by User-Agent (MDN's "Mobi"): there a drag on a chart must scroll."""
    agent = st.context.headers.get("User-Agent", "") if st.context.headers else ""
    return any(mark in agent for mark in MOBILE_MARKS)


def no_drag(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` (in place) with dragging off on its plane and scenes, so a swipe scrolls the page."""
    layout = spec.setdefault("layout", {})
    for name, part in layout.items():
        if name.startswith("scene") and isinstance(part, dict):
            part["dragmode"] = False
    layout["dragmode"] = False
    return spec


def has_scene(spec: dict[str, Any]) -> bool:
    """Whether the figure draws in 3-D (a scene in its layout)."""
    return any(name.startswith("scene") for name in spec.get("layout", {}))


def cache_key(build: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, str]:
    """(which function, which arguments) of `build(*args)`: a cached chart's or frames' key."""
    return _builder_name(build), _args_digest((args, _bound_values(build)))


def _builder_name(build: Callable[..., Any]) -> str:
    """Which figure function: name, file, line, code digest (every lambda is "<lambda>")."""
    return _code_name(build.__code__, build.__module__, build.__qualname__)


@functools.lru_cache(maxsize=4096)  # far more than the app's figure functions
def _code_name(code: CodeType, module: str, qualname: str) -> str:
    body = hashlib.blake2b(_code_bytes(code), digest_size=8).hexdigest()
    return f"{module}.{qualname} in {code.co_filename}:{code.co_firstlineno} {body}"


def _code_bytes(code: CodeType) -> bytes:
    """A code object's instructions, names and constants (nested code objects by content)."""
    consts = b"".join(
        _code_bytes(c) if isinstance(c, CodeType) else repr(c).encode() for c in code.co_consts
    )
    return code.co_code + repr(code.co_names).encode() + consts


def _bound_values(build: Callable[..., Any]) -> tuple[Any, ...]:
    """A function's defaults and closed-over values: a lambda made in a loop differs only there."""
    cells = tuple(_picklable(c.cell_contents) for c in build.__closure__ or ())
    return (build.__defaults__, build.__kwdefaults__, cells)


def _picklable(value: Any) -> Any:
    """A closed-over module or function by name (pickle takes neither), else the value."""
    if isinstance(value, ModuleType):
        return ("module", value.__name__)
    if hasattr(value, "__code__"):
        return ("function", _builder_name(value))
    return value


def _args_digest(args: tuple[Any, ...]) -> str:
    """A digest of the pickled arguments: one pass in C, not Streamlit's field-by-field hashing."""
    data = pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@st.cache_data(max_entries=512, show_spinner=False)  # specs: 5-150 kB each
def _figure_spec(name: str, digest: str, _build: Callable[..., go.Figure], _args: Any) -> dict:
    """Built figures' JSON by (function, arguments' digest): only these two strings are hashed."""
    return build_spec(_build, _args)


@st.cache_data(max_entries=4096, show_spinner=False)  # alt texts: 0.1-1 kB each
def _alt_text(name: str, digest: str, alt_name: str, _alt: Callable[..., str], _args: Any) -> str:
    """A chart's alt text cached by figure key and alt function (some read hundreds of batches)."""
    return str(_alt(*_args))


def alt_text(name: str, digest: str, alt: Callable[..., str], args: tuple[Any, ...]) -> str:
    """`alt(*args)` through the cache; a lambda's closure or defaults are part of its key."""
    bound = _bound_values(alt)
    extra = "" if bound == (None, None, ()) else _args_digest(bound)
    return _alt_text(name, digest, _builder_name(alt) + extra, alt, args)


def build_spec(build: Callable[..., go.Figure], args: tuple[Any, ...]) -> dict:
    """The figure's JSON data, with margins that let the browser draw it in one pass."""
    spec = json_data(build, *args)
    spec.setdefault("layout", {})["margin"] = planned_margins(spec)
    return spec


class _BuiltFigure(go.Figure):
    """A built, validated figure carried as its dict: st.plotly_chart only asks it for to_dict()."""

    def __init__(self, spec: dict) -> None:  # no super().__init__: nothing to validate
        self._spec = spec

    def to_dict(self) -> dict:
        return self._spec
