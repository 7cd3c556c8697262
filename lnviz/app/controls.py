"""Controls bound to the URL, each refusing a bad value with a message naming field and range."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from lnviz.app.links import correct, raw_value
from lnviz.content.text import eps_label, plain
from lnviz.errors import LnvizError
from lnviz.lessons.spec import EPS_GRID
from lnviz.params import parse_number, parse_vector

_REPLACED_KEY = "_lnviz_replaced_choice"  # a choice keep_choice reset in this run
BOUND_KEY = "_lnviz_bound_controls"  # keys of the URL-bound controls drawn in this session


def _bound(key: str) -> str:
    """Record a URL-bound control's key (the router forgets it on a page change)."""
    st.session_state.setdefault(BOUND_KEY, set()).add(key)
    return key


def eps_options(allow_zero: bool = False) -> list[float]:
    return ([0.0] if allow_zero else []) + list(EPS_GRID)


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


def _refusal(key: str, raw: str, accepted: str, used: str) -> str:
    return (
        f"The link set **{key}** to “{plain(raw, 40)}”, which is not accepted ({accepted}). "
        f"Showing {key} = {used} instead."
    )


def _warn_url(key: str, raw: str, accepted: str, used: str) -> None:
    st.warning(_refusal(key, raw, accepted, used), icon=":material/link_off:")


def nearest(value: float, options: Sequence[float]) -> float:
    """The allowed value nearest `value`: by ratio for positives (log sliders), else difference."""

    def distance(option: float) -> float:
        if value > 0 and option > 0:
            return abs(math.log(value / option))
        return abs(value - option) + (0.0 if value == option else 1e9)

    return min(options, key=distance)


def _snap_link(key: str, raw: str | None, options: Sequence[float], fmt: Callable[[float], str]):
    """Snap a link value between a select slider's options to the nearest, with a note."""
    if raw is None or raw in {fmt(o) for o in options}:
        return raw
    lo, hi = min(options), max(options)
    try:
        value = parse_number(raw, key, lo, hi)
    except LnvizError:
        return raw
    snapped = nearest(value, options)
    st.session_state.pop(key, None)  # let the widget take the snapped link value
    message = (
        f"The link set **{key}** to {plain(raw, 40)}, between the slider's values: "
        f"showing the nearest, {fmt(snapped)}."
    )  # not for the same number written otherwise ("8.0", "1e1")
    correct(key, fmt(snapped), None if snapped == value else ("info", message))
    return fmt(snapped)  # (not reached: the page runs again)


def eps_slider(
    label: str = "ε (added to the variance)",
    *,
    key: str = "eps",
    default: float = 1 / 3,
    allow_zero: bool = False,
    help: str | None = None,
) -> float:
    """Epsilon on a log scale (1e-6 to 10, optionally 0), bound to the URL as `key`."""
    lo = "0" if allow_zero else "1e-06"
    accepted = f"one of the slider's values from {lo} to 10, e.g. 0.001 or 1/3"
    options = eps_options(allow_zero)
    return choice_slider(
        label, options, key=key, default=default, fmt=eps_label, help=help, accepted=accepted
    )


def choice_slider(
    label: str,
    options: Sequence[float],
    *,
    key: str,
    default: float,
    fmt: Callable[[float], str] = lambda v: f"{v:g}",
    help: str | None = None,
    accepted: str | None = None,
) -> float:
    """A select slider over fixed numbers, bound to the URL; a link value between options snaps."""
    raw = _snap_link(key, raw_value(key), options, fmt)
    value = st.select_slider(
        label,
        options=list(options),
        value=default,
        format_func=fmt,
        key=_bound(key),
        bind="query-params",
        help=help,
    )
    if raw is not None and raw != fmt(value):
        accepted = accepted or f"one of {fmt(options[0])} … {fmt(options[-1])}"
        _warn_url(key, raw, accepted, fmt(value))
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
    raw = raw_value(key)
    value = st.slider(
        label, lo, hi, default, step=step, key=_bound(key), bind="query-params", help=help
    )
    if raw is not None and not _same_number(raw, value):
        _warn_url(key, raw, f"a number from {lo:g} to {hi:g}", f"{value:g}")
    return value


def int_choice(
    label: str, options: Sequence[int], *, key: str, default: int, help: str | None = None
) -> int:
    """A select slider over allowed integers, bound to the URL; link and stale values snap."""
    opts = list(options)
    if key in st.session_state and st.session_state[key] not in opts:
        st.session_state[key] = nearest(st.session_state[key], opts)
    raw = _snap_link(key, raw_value(key), opts, str)
    value = st.select_slider(
        label,
        options=opts,
        value=default if default in opts else opts[0],
        key=_bound(key),
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
    raw = raw_value(key)
    accepted = f"a whole number from {lo} to {hi}"
    if raw is not None and _infinite(raw):  # Streamlit's int(float(raw)) would raise
        used = str(st.session_state.get(key, default))
        correct(key, None, ("warning", _refusal(key, raw, accepted, used)))
    value = st.number_input(
        label, lo, hi, default, step=1, key=_bound(key), bind="query-params", help=help
    )
    if raw is not None and not _same_number(raw, value):
        _warn_url(key, raw, accepted, str(value))
    return int(value)


def keep_choice(key: str, options: Sequence[str], default: str) -> None:
    """A choice whose value is no longer an option gets `default`, silently: the visitor did it."""
    if st.session_state.get(key, default) not in options:
        st.session_state[key] = default
        st.session_state[_REPLACED_KEY] = key  # its link value is stale, not refused


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
    raw = raw_value(key)
    index = list(options).index(default) if default is not None else 0
    fmt = (lambda o: labels.get(o, o)) if labels else str
    value = st.radio(
        label,
        options,
        index=index,
        format_func=fmt,
        key=_bound(key),
        horizontal=horizontal,
        bind="query-params",
        help=help,
    )
    replaced = st.session_state.get(_REPLACED_KEY) == key
    if replaced:
        del st.session_state[_REPLACED_KEY]
    if raw is not None and raw not in (value, fmt(value)) and not replaced:
        _warn_url(key, raw, "one of " + ", ".join(fmt(o) for o in options), fmt(value))
    return str(value)


def toggle(label: str, *, key: str, default: bool = False, help: str | None = None) -> bool:
    """A checkbox bound to the URL; a link value other than true/false gets a message."""
    raw = raw_value(key)
    value = bool(st.checkbox(label, value=default, key=_bound(key), bind="query-params", help=help))
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
    """Comma-separated numbers bound to the URL; a bad entry is refused and the default used."""
    if length is not None:
        min_len = max_len = length
    raw = raw_value(key)
    text = st.text_input(
        label,
        value=default,
        key=_bound(key),
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
    """A text box bound to the URL, read by `parse`; refused: `instead` said, `fallback` given."""
    raw = raw_value(key)
    text = st.text_input(
        label,
        default,
        key=_bound(key),
        bind="query-params",
        max_chars=max_chars,
        help=help,
        **widget,
    )
    _warn_long(key, raw, max_chars)
    try:
        return parse(text)
    except LnvizError as err:
        refuse(err, instead)
        return fallback


def link_text(key: str) -> str | None:
    """The link's raw text for a key no control binds (?term=), or None: for lnviz.params."""
    return raw_value(key)


def label_name(label: str) -> str:
    """The short field name of a label ('z (input vector)' -> 'z')."""
    return label.split(" (")[0].strip()


def set_state(**values: Any) -> None:
    """Button callback: put values into bound widgets (they then update the URL)."""
    for key, value in values.items():
        st.session_state[key] = value


def presets(items: Mapping[str, Mapping[str, Any]], *, key: str) -> None:
    """A row of one-click presets setting several controls; the buttons wrap, short on a phone."""
    with st.container(horizontal=True, gap="small", key=f"{key}-row"):
        for i, (name, values) in enumerate(items.items()):
            st.button(
                name,
                key=f"{key}-{i}",
                on_click=set_state,
                kwargs=dict(values),
                width="content",
            )


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
