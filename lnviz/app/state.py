"""The controls a lesson's state spec declares (lnviz.lessons.spec), drawn by lnviz.app.controls."""

from __future__ import annotations

from typing import Any

from lnviz.app.controls import (
    choice,
    choice_slider,
    eps_slider,
    int_choice,
    int_input,
    number_slider,
    text_field,
    toggle,
    vector_input,
)
from lnviz.lessons import spec


def control(key: spec.Key, **given: Any) -> Any:
    """The control the spec declares for `key`; `given` adds what only the page knows."""
    kw = {"key": key.name, "help": key.help, "default": key.default} | given
    label = kw.pop("label", key.label)
    match key:
        case spec.Eps():
            return eps_slider(label, allow_zero=key.allow_zero, **kw)
        case spec.Number():
            return number_slider(label, key.lo, key.hi, kw.pop("default"), step=key.step, **kw)
        case spec.Whole():
            return int_input(label, key.lo, key.hi, kw.pop("default"), **kw)
        case spec.Toggle():
            return toggle(label, **kw)
        case spec.Vector():
            bounds = {"min_len": key.min_len, "max_len": key.max_len, "lo": key.lo, "hi": key.hi}
            return vector_input(label, kw.pop("default"), **(bounds | kw))
        case spec.Text():
            default, parse = kw.pop("default"), kw.pop("parse")
            return text_field(label, default, parse, max_chars=key.max_chars, **kw)
        case spec.Options():
            options = kw.pop("options", key.options)
            if all(isinstance(o, str) for o in options):  # words: a radio
                return choice(label, options, **kw)
            if all(isinstance(o, int) and not isinstance(o, bool) for o in options):
                return int_choice(label, options, **kw)  # whole numbers: snapped, kept in range
            return choice_slider(label, options, **kw)
    raise TypeError(f"no control for {type(key).__name__}")
