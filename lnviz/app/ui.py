"""Streamlit helpers shared by the pages: URL-bound controls, validation messages, charts.

This is the only module of the package that imports Streamlit; `import lnviz` does not
import it. Every control is bound to the URL (bind="query-params") so a state is a link,
and every value that arrives by URL or text box is validated with a message that names the
field and the accepted range.
"""

from __future__ import annotations

import hashlib
import json
import math
import pickle
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import CodeType, ModuleType
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from lnviz.errors import LnvizError
from lnviz.figures._margins import planned as planned_margins
from lnviz.figures._presentation import enlarged
from lnviz.params import parse_vector

# Log-spaced epsilon values from 1e-6 to 10 (four per decade), plus the seed's 1/3 and 4/3.
_EPS_GRID = sorted({round(10 ** (k / 4), 12) for k in range(-24, 5)} | {1 / 3, 4 / 3})
EPS_LABELS = {1 / 3: "1/3", 4 / 3: "4/3", 0.0: "0"}


def eps_label(eps: float) -> str:
    """Display form of an epsilon value: 1/3, 4/3, 0 or two significant digits."""
    return EPS_LABELS.get(eps, f"{eps:.2g}")


def eps_options(allow_zero: bool = False) -> list[float]:
    return ([0.0] if allow_zero else []) + list(_EPS_GRID)


_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_AUTOLINK = re.compile(r"(?i)(?<=w)(?=ww)|(?<=:)(?=//)|(?<=@)")  # where GFM starts a bare link


def plain(text: object, limit: int = 80) -> str:
    """Visitor text made inert for Streamlit's markdown: shown exactly, rendering nothing.

    Every message that repeats what a visitor typed or linked goes through here: the text
    becomes one line of at most `limit` characters, every ASCII punctuation character is
    backslash-escaped (no emphasis, links, images, HTML, math, code or colour directives),
    and an invisible word joiner breaks bare addresses (www., ://, @) that GitHub-flavoured
    markdown would otherwise turn into links.

    >>> print(plain("[a](javascript:alert(1)) **b**"))
    \\[a\\]\\(javascript\\:alert\\(1\\)\\) \\*\\*b\\*\\*
    """
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MD_PUNCT.sub(r"\\\1", _AUTOLINK.sub("\u2060", text))


def _warn_long(key: str, raw: str | None, max_chars: int) -> None:
    """Streamlit cuts a linked text to the box's max_chars without a word: say so."""
    if raw is not None and len(raw) > max_chars:
        st.warning(
            f"The link's **{key}** has {len(raw):,} characters, but the box holds {max_chars}: "
            f"only the first {max_chars} are used.",
            icon=":material/link_off:",
        )


def refuse(err: LnvizError, instead: str) -> None:
    """Show a refused value: the error, escaped (it quotes the visitor), then what is used."""
    st.error(f"{plain(err, limit=600)} {instead}", icon=":material/error:")


def _warn_url(key: str, raw: str, accepted: str, used: str) -> None:
    st.warning(
        f"The link set **{key}** to “{plain(raw, 40)}”, which is not accepted ({accepted}). "
        f"Showing {key} = {used} instead.",
        icon=":material/link_off:",
    )


def _raw(key: str) -> str | None:
    """The link's value for `key`; a repeated key keeps its last value, with a message."""
    values = st.query_params.get_all(key)
    if len(values) > 1:
        _set_url_value(key, values[-1])
        st.warning(
            f"The link gives **{key}** {len(values)} values, but a control holds one: "
            f"using the last, “{plain(values[-1], 40)}”.",
            icon=":material/link_off:",
        )
    return values[-1] if values else None


def eps_slider(
    label: str = "ε (added to the variance)",
    *,
    key: str = "eps",
    default: float = 1 / 3,
    allow_zero: bool = False,
    help: str | None = None,
) -> float:
    """Epsilon on a log scale (1e-6 to 10, optionally 0), bound to the URL as `key`."""
    options = eps_options(allow_zero)
    raw = _raw(key)
    value = st.select_slider(
        label,
        options=options,
        value=default,
        format_func=eps_label,
        key=key,
        bind="query-params",
        help=help,
    )
    if raw is not None and raw != eps_label(value):
        lo = "0" if allow_zero else "1e-06"
        _warn_url(
            key,
            raw,
            f"one of the slider's values from {lo} to 10, e.g. 0.001 or 1/3",
            eps_label(value),
        )
    return float(value)


def choice_slider(
    label: str,
    options: Sequence[float],
    *,
    key: str,
    default: float,
    fmt: Callable[[float], str] = lambda v: f"{v:g}",
    help: str | None = None,
) -> float:
    """A select slider over fixed numeric options, bound to the URL."""
    raw = _raw(key)
    value = st.select_slider(
        label,
        options=list(options),
        value=default,
        format_func=fmt,
        key=key,
        bind="query-params",
        help=help,
    )
    if raw is not None and raw != fmt(value):
        _warn_url(key, raw, f"one of {fmt(options[0])} … {fmt(options[-1])}", fmt(value))
    return float(value)


def number_slider(
    label: str,
    lo: float,
    hi: float,
    default: float,
    *,
    key: str,
    step: float | None = None,
    help: str | None = None,
) -> float:
    """A numeric slider in [lo, hi] bound to the URL; out-of-range links get a message."""
    raw = _raw(key)
    value = st.slider(label, lo, hi, default, step=step, key=key, bind="query-params", help=help)
    if raw is not None and not _same_number(raw, value):
        _warn_url(key, raw, f"a number from {lo:g} to {hi:g}", f"{value:g}")
    return value


def int_choice(
    label: str, options: Sequence[int], *, key: str, default: int, help: str | None = None
) -> int:
    """A select slider over allowed integers (e.g. divisors), bound to the URL.

    When the allowed set changes (another control moved), a stale value snaps to the
    nearest allowed one instead of failing.
    """
    opts = list(options)
    if key in st.session_state and st.session_state[key] not in opts:
        st.session_state[key] = min(opts, key=lambda o: abs(o - st.session_state[key]))
    raw = _raw(key)
    value = st.select_slider(
        label,
        options=opts,
        value=default if default in opts else opts[0],
        key=key,
        bind="query-params",
        help=help,
    )
    if raw is not None and raw != str(value):
        _warn_url(key, raw, "one of " + ", ".join(map(str, opts)), str(value))
    return int(value)


def int_input(
    label: str, lo: int, hi: int, default: int, *, key: str, help: str | None = None
) -> int:
    """A bounded integer input bound to the URL; a stale value is clamped into [lo, hi]."""
    if key in st.session_state and not lo <= st.session_state[key] <= hi:
        st.session_state[key] = max(lo, min(hi, st.session_state[key]))
    raw = _raw(key)
    if raw is not None and _infinite(raw):
        _forget_url_value(key)
    value = st.number_input(label, lo, hi, default, step=1, key=key, bind="query-params", help=help)
    if raw is not None and not _same_number(raw, value):
        _warn_url(key, raw, f"a whole number from {lo} to {hi}", str(value))
    return int(value)


def choice(
    label: str,
    options: Sequence[str],
    *,
    key: str,
    default: str | None = None,
    labels: Mapping[str, str] | None = None,
    horizontal: bool = True,
    help: str | None = None,
) -> str:
    """A radio choice among string options, bound to the URL."""
    raw = _raw(key)
    index = list(options).index(default) if default is not None else 0
    fmt = (lambda o: labels.get(o, o)) if labels else str
    value = st.radio(
        label,
        options,
        index=index,
        format_func=fmt,
        key=key,
        horizontal=horizontal,
        bind="query-params",
        help=help,
    )
    if raw is not None and raw not in (value, fmt(value)):
        _warn_url(key, raw, "one of " + ", ".join(fmt(o) for o in options), fmt(value))
    return str(value)


def toggle(label: str, *, key: str, default: bool = False, help: str | None = None) -> bool:
    """A checkbox bound to the URL; a link value other than true/false gets a message."""
    raw = _raw(key)
    value = bool(st.checkbox(label, value=default, key=key, bind="query-params", help=help))
    if raw is not None and raw.strip().lower() not in ("true", "false"):
        _warn_url(key, raw, "true or false", str(value).lower())
    return value


def vector_input(
    label: str,
    default: str,
    *,
    key: str,
    min_len: int = 1,
    max_len: int = 8,
    lo: float = -1e4,
    hi: float = 1e4,
    length: int | None = None,
    help: str | None = None,
) -> np.ndarray:
    """A text box of comma-separated numbers, bound to the URL and validated.

    A bad entry shows a message naming the field and the accepted range, and the default
    is used instead, so the page never fails on what a visitor typed.
    """
    if length is not None:
        min_len = max_len = length
    raw = _raw(key)
    text = st.text_input(
        label,
        value=default,
        key=key,
        bind="query-params",
        max_chars=200,
        help=help
        or f"{min_len}–{max_len} numbers between {lo:g} and {hi:g}, "
        "separated by commas; fractions like 1/3 work.",
    )
    _warn_long(key, raw, 200)
    try:
        return parse_vector(text, label_name(label), min_len=min_len, max_len=max_len, lo=lo, hi=hi)
    except LnvizError as err:
        refuse(err, f"Using the default `{default}`.")
        return parse_vector(default, key, min_len=min_len, max_len=max_len, lo=lo, hi=hi)


def text_field(
    label: str,
    default: str,
    parse: Callable[[str], Any],
    *,
    key: str,
    fallback: Any,
    instead: str,
    max_chars: int = 400,
    help: str | None = None,
    **widget: Any,
) -> Any:
    """A free-form text box bound to the URL, read by a parser from lnviz.params.

    `parse` turns the text into a value or raises LnvizError; a refused text shows the
    escaped message followed by `instead` (what the page does about it) and gives
    `fallback`, so what a visitor typed or linked never reaches the page unchecked.
    Other keyword arguments (placeholder, type, ...) go to st.text_input.
    """
    raw = _raw(key)
    text = st.text_input(
        label, default, key=key, bind="query-params", max_chars=max_chars, help=help, **widget
    )
    _warn_long(key, raw, max_chars)
    try:
        return parse(text)
    except LnvizError as err:
        refuse(err, instead)
        return fallback


def link_text(key: str) -> str | None:
    """The link's raw text for a key that no control binds (e.g. ?term=), or None.

    A repeated key gives its last value, with a message. Parse the text with lnviz.params
    and show a refusal with `refuse` or with a message that names the key.
    """
    return _raw(key)


def label_name(label: str) -> str:
    """The short field name of a label ('z (input vector)' -> 'z')."""
    return label.split(" (")[0].strip()


def set_state(**values: Any) -> None:
    """Button callback: put values into bound widgets (they then update the URL)."""
    for key, value in values.items():
        st.session_state[key] = value


def presets(items: Mapping[str, Mapping[str, Any]], *, key: str) -> None:
    """A row of one-click presets; each sets several controls at once."""
    cols = st.columns(len(items))
    for i, (name, values) in enumerate(items.items()):
        cols[i].button(
            name,
            key=f"{key}-{i}",
            on_click=set_state,
            kwargs=dict(values),
            width="stretch",
        )


def presenting() -> bool:
    """Whether presentation mode (larger type and charts, prose folded) is on."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def notice(items: Iterable[str], *, title: str = "What to notice") -> None:
    """The 'what to notice' list of a section (folded in presentation mode)."""
    with st.expander(title, expanded=not presenting(), icon=":material/visibility:"):
        st.markdown("\n".join(f"- {item}" for item in items))


def chart(
    build: Callable[..., go.Figure],
    *args: Any,
    alt: str,
    key: str,
    filename: str,
    static: bool = False,
) -> None:
    """Draw build(*args), a pure figure function, with data-driven alt text and a PNG name.

    Building a figure and its JSON costs 1–10 ms (lnviz.figures._spec; benchmarks/
    figures.py), more than most of the engine's numbers behind it. The finished figure's
    JSON is cached by (build, args), so a state that any visitor has seen before is drawn
    from the cache (about 0.5 ms), and it reaches st.plotly_chart as a _BuiltFigure: no
    second validation.
    """
    digest = _args_digest((args, _bound_values(build)))
    spec = _figure_spec(_builder_name(build), digest, build, args)  # a copy from the cache
    if presenting() and not static:  # charts large and legible from the back of a room
        enlarged(spec)
    config = {
        "staticPlot": static,
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": f"lnviz-{filename}", "scale": 2},
        "modeBarButtonsToRemove": ["lasso2d", "select2d"],
    }
    st.plotly_chart(_BuiltFigure(spec), key=key, config=config, alt=alt, theme="streamlit")


def _builder_name(build: Callable[..., Any]) -> str:
    """Which figure function: its name, file and line, and a digest of its code.

    Name and file alone do not tell lambdas apart (every one is "<lambda>"), nor two pages'
    functions of one name; the code's digest also separates two lambdas on one line.
    """
    code = build.__code__
    body = hashlib.blake2b(_code_bytes(code), digest_size=8).hexdigest()
    where = f"{code.co_filename}:{code.co_firstlineno}"
    return f"{build.__module__}.{build.__qualname__} in {where} {body}"


def _code_bytes(code: CodeType) -> bytes:
    """A code object's instructions, names and constants (nested code objects by content)."""
    consts = b"".join(
        _code_bytes(c) if isinstance(c, CodeType) else repr(c).encode() for c in code.co_consts
    )
    return code.co_code + repr(code.co_names).encode() + consts


def _bound_values(build: Callable[..., Any]) -> tuple[Any, ...]:
    """What a function carries besides its code: defaults and closed-over values (a lambda
    made in a loop differs from its siblings only there)."""
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
    """A digest of a figure function's arguments, from their pickled bytes.

    Engine results are frozen dataclasses of arrays and numbers, and pickle writes every
    field and every array's bytes, so equal arguments give equal digests and different
    ones (as good as) never the same. Streamlit's own argument hashing walks each object
    field by field in Python: 1–4 ms per page's charts against 0.1–0.8 ms for this, paid
    on every rerun, seen charts included. (What pickle cannot take, such as a lambda,
    Streamlit's hashing could not take either.)
    """
    data = pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@st.cache_data(max_entries=512, show_spinner=False)
def _figure_spec(
    name: str, digest: str, _build: Callable[..., go.Figure], _args: tuple[Any, ...]
) -> dict:
    """The figure of _build(*_args) as JSON data, cached by `name` (which function) and
    `digest` (which arguments: _args_digest); the underscored parameters are not hashed.

    Stored as plain JSON types (arrays already in Plotly's base64 form), a cached figure is
    quick to copy out of the cache and to encode again for the browser.
    """
    return _build_spec(_build, _args)


def _build_spec(build: Callable[..., go.Figure], args: tuple[Any, ...]) -> dict:
    """The figure's JSON data, with margins that let the browser draw it in one pass."""
    spec = json.loads(pio.to_json(build(*args), validate=False))
    spec.setdefault("layout", {})["margin"] = planned_margins(spec)
    return spec


class _BuiltFigure(go.Figure):
    """A figure that plotly already built and validated, carried as its dict.

    st.plotly_chart accepts a go.Figure without validating it again and asks it for
    to_dict(); a plain dict it would validate again (as long as building it). Constructing
    an empty go.Figure alone costs about 1 ms, so this class skips plotly's __init__: it
    only answers to_dict(), which is all Streamlit 1.67 asks of it (tests/test_charts.py).
    """

    def __init__(self, spec: dict) -> None:  # no super().__init__: nothing to validate
        self._spec = spec

    def to_dict(self) -> dict:
        return self._spec


def ensure_router() -> None:
    """Hand a page that Streamlit ran directly over to the router in app.py.

    Until app.py's st.navigation has run once in a server process, Streamlit treats the
    pages/ folder as an old-style multipage app: a first visit straight to /epsilon runs
    pages/epsilon.py alone, with an automatic sidebar and without the router's page config
    (upstream issue streamlit/streamlit#9624). st.navigation clears that mode; a page that
    finds it still on clears it too and reruns, which goes through the router. Page files
    are named like their url_path, so the rerun lands on the same page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


PRESENT_KEY = "present"  # URL key of presentation mode, shared by every page

_PRESENT_CSS = """<style>
  [data-testid="stMainBlockContainer"] { max-width: 96rem; }
  [data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.3rem; }
  [data-testid="stMain"] h1 { font-size: 3.2rem; }
  [data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: 2.2rem; }
  [data-testid="stMetricValue"] div { font-size: 2.8rem; }
  .katex { font-size: 1.35em; }
</style>"""


def page_intro(title: str, lead: str) -> None:
    """The page's title and lead, the sidebar's share box and presentation switch.

    In presentation mode (for a projector) type and charts grow, the lead paragraph and
    the 'what to notice' lists fold away, and the state stays in the link like any control.
    """
    ensure_router()
    present = presenting()
    if not st.context.is_embedded:  # an embedding site shows its own frame and link
        with st.sidebar:
            present = toggle(
                "Presentation mode",
                key=PRESENT_KEY,
                help="Larger type and charts, explanations folded: for projecting in class.",
            )
            share_link()
    if present:
        st.html(_PRESENT_CSS)
    st.title(title)
    if present:
        with st.expander("About this page", icon=":material/info:"):
            st.markdown(lead)
    else:
        st.markdown(lead)


_SHARE_HTML = """
<div class="row"><input id="u" readonly aria-label="Link to this view">
<button id="b" type="button">Copy link</button></div>
<style>
  body {{ margin: 0; font: 14px "Source Sans Pro", sans-serif; background: transparent; }}
  .row {{ display: flex; gap: 6px; }}
  input {{ flex: 1; min-width: 0; padding: 6px 8px; border-radius: 6px; font: inherit;
          border: 1px solid {border}; background: {field}; color: {text}; }}
  button {{ padding: 6px 10px; border-radius: 6px; border: 1px solid {border};
           background: {field}; color: {text}; font: inherit; cursor: pointer; }}
</style>
<script>
  const u = document.getElementById("u"), b = document.getElementById("b");
  const here = () => {{ try {{ return window.parent.location.href; }} catch (e) {{ return ""; }} }};
  const tick = () => {{ const h = here(); if (u.value !== h) u.value = h; }};
  tick(); setInterval(tick, 600);
  b.addEventListener("click", async () => {{
    tick();
    try {{ await navigator.clipboard.writeText(u.value); }}
    catch (e) {{ u.select(); document.execCommand("copy"); }}
    b.textContent = "Copied"; setTimeout(() => (b.textContent = "Copy link"), 1500);
  }});
</script>
"""


def share_link() -> None:
    """The live address of this exact view (every control is in it), with a copy button.

    The address is read in the browser, so it follows every control as it moves, including
    those inside fragments. Nothing a visitor typed is inserted into this HTML.
    """
    dark = st.context.theme.type == "dark"
    colors = (
        {"border": "#3d4150", "field": "#262730", "text": "#fafafa"}
        if dark
        else {"border": "#d5d7de", "field": "#ffffff", "text": "#31333f"}
    )
    st.caption("Share this view: the link holds every control's value.")
    st.iframe(_SHARE_HTML.format(**colors), height=44, alt="Link to this view with a copy button")


def fmt(x: float, digits: int = 6) -> str:
    """A number for prose: fixed digits, trailing zeros trimmed, inf and nan spelled out."""
    if math.isnan(x):
        return "undefined"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def fmt_vec(v: np.ndarray, digits: int = 4) -> str:
    return "(" + ", ".join(fmt(float(x), digits) for x in np.asarray(v).ravel()) + ")"


def _forget_url_value(key: str) -> None:
    """Drop a URL value before a bound widget is seeded from it.

    Streamlit 1.67 seeds an int number_input with int(float(value)); for "inf" that raises
    OverflowError, which it does not catch, so the page would fail. The seed is read from
    the query string the session started with, so it is removed there as well.
    """
    _set_url_value(key, None)


def _set_url_value(key: str, value: str | None) -> None:
    """Replace (or, with None, drop) a URL value before a bound widget is seeded from it.

    Both the query string the session started with (what seeds widgets) and the current
    one change, and the browser's address follows. The current one is edited in place:
    `st.query_params[key] = ...` refuses a key that a widget of this or an earlier page
    has bound.
    """
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as qp:
        initial = getattr(qp, "_initial_query_params", {})
        current = getattr(qp, "_query_params", {})
        for params, new in ((initial, [value]), (current, value)):
            if value is None:
                params.pop(key, None)
            elif key in params:
                params[key] = new
        getattr(qp, "_send_query_param_msg", lambda: None)()


def _infinite(raw: str) -> bool:
    """True for text that parses as an infinite float ("inf", "-Infinity", "1e999")."""
    try:
        return math.isinf(float(raw))
    except ValueError:
        return False


def _same_number(raw: str, value: float) -> bool:
    try:
        return math.isclose(float(raw), float(value), rel_tol=1e-9, abs_tol=1e-12)
    except ValueError:
        return False
