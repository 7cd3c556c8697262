"""A visitor without a browser: Streamlit's own WebSocket protocol, spoken from asyncio.

A browser tab talks to a Streamlit server over one WebSocket (`/_stcore/stream`): it sends
`BackMsg.rerun_script` (the URL's query string, the page, every widget's value and, for a
control inside an `st.fragment`, that fragment's id) and receives `ForwardMsg`s (the page's
elements as deltas, then `script_finished`). `Visitor` does the same, so the load benchmark
drives the real server code path — routing, widgets bound to the URL, fragments, caches —
without the cost of a browser per visitor.

    async with Visitor.connect("http://127.0.0.1:8501") as v:
        run = await v.open("epsilon", "eps=0.1")
        run = await v.move_slider(random.Random(0))
        print(run.seconds, run.errors, v.digest())

Like a browser, it keeps Streamlit's message cache: a large element (≥ 10 kB, the server's
`global.minCachedMessageSize`) is kept by its hash for `maxCachedMessageAge` runs (2), each
rerun request lists the kept hashes, and the server sends such an element again as a
reference to it (`ref_hash`), as Streamlit's frontend (`ForwardMessageCache`) does.

Forms and buttons: `fill` a text input or radio inside a form, then `click` its submit
button (the form's values reach the server with the click, as in a browser); `click` any
button. `rerun_fragment` does what the frontend's timer does for `st.fragment(run_every=…)`
(the intervals the server asked for are in `auto_reruns`), and `text` is what the page
shows as text, e.g. to read a count or a confirmation:

    box = v.widget("text_input", label="Your answer")
    v.fill(box, "2/3")
    run = await v.click(v.widget("button", label="Send"))
    assert "Answer received" in v.text()

What a browser does and this client does not: draw, run Plotly, fetch static files and
media, and send the values of controls it never touched (the URL already carries them).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider

FINISHED_EARLY_FOR_RERUN = 2  # ForwardMsg.script_finished: another run follows at once
ERROR_ALERT = 1  # Alert.format ERROR (lnviz refuses bad values with warnings, not errors)
MAX_MESSAGE_BYTES = 16 * 2**20  # a client-side bound, above the server's maxMessageSize
MAX_CACHED_MESSAGE_AGE = 2  # runs; Streamlit's global.maxCachedMessageAge, sent in new_session


@dataclass
class _Cached:
    """A cacheable ForwardMsg as received, when it was last used, and its fragment."""

    raw: bytes
    run: int
    fragment_id: str


@dataclass
class MessageCache:
    """The browser's cache of large messages (Streamlit's frontend ForwardMessageCache):
    kept by hash, used by the server's references, dropped when not used for
    `max_age` full runs (a fragment's run ages only that fragment's messages)."""

    max_age: int = MAX_CACHED_MESSAGE_AGE
    runs: int = 0
    messages: dict[str, _Cached] = field(default_factory=dict)

    def resolve(self, fwd: ForwardMsg) -> ForwardMsg:
        """`fwd` itself, or the cached message a reference stands for (with the
        reference's metadata: its place on the page); caches cacheable messages."""
        if fwd.WhichOneof("type") == "ref_hash":
            cached = self.messages.get(fwd.ref_hash)
            if cached is None:
                raise RuntimeError(f"the server referred to a message not cached: {fwd.ref_hash}")
            cached.run = self.runs
            full = ForwardMsg()
            full.ParseFromString(cached.raw)
            full.metadata.CopyFrom(fwd.metadata)
            return full
        if fwd.metadata.cacheable and fwd.hash:
            fragment = fwd.delta.fragment_id if fwd.WhichOneof("type") == "delta" else ""
            self.messages[fwd.hash] = _Cached(fwd.SerializeToString(), self.runs, fragment)
        return fwd

    def finished(self, fragment_id: str) -> None:
        """A run finished: age the messages it could have used and drop the old ones."""
        self.runs += 1
        for key, m in list(self.messages.items()):
            if fragment_id and m.fragment_id != fragment_id:
                continue
            if self.runs - m.run > self.max_age:
                del self.messages[key]


@dataclass(frozen=True)
class Control:
    """A slider (or, on a page without one, a checkbox) the visitor can move."""

    widget_id: str
    kind: str  # "slider", "select_slider" or "checkbox"
    url_key: str  # its query-parameter key
    fragment_id: str  # "" when the control is not inside an st.fragment
    options: tuple[str, ...] = ()  # select_slider: the options as the URL spells them
    low: float = 0.0  # slider: range and step
    high: float = 0.0
    step: float = 0.0
    is_int: bool = False


@dataclass(frozen=True)
class Widget:
    """A button, text input or radio on the page (e.g. an answer form's controls)."""

    widget_id: str
    kind: str  # "button", "text_input" or "radio"
    label: str
    path: tuple[int, ...]  # where it is drawn
    fragment_id: str  # "" when not inside an st.fragment
    form_id: str = ""  # "" when not inside a form
    submits_form: bool = False  # a form's submit button
    options: tuple[str, ...] = ()  # radio: the options as shown

    @property
    def key(self) -> str:
        """The widget's key as the app gave it ("" if none): Streamlit's id ends with it."""
        parts = self.widget_id.split("-", 2)
        return parts[2] if self.widget_id.startswith("$$ID-") and len(parts) == 3 else ""


@dataclass
class Run:
    """One script run as the visitor saw it."""

    seconds: float  # from sending the rerun request to the final script_finished
    received_bytes: int  # all ForwardMsgs of the run, as sent on the wire
    chart_bytes: int  # Plotly figure JSON among them
    errors: list[str] = field(default_factory=list)  # exceptions and error alerts shown
    fragment: bool = False
    elements: int = 0  # elements and blocks the run drew (sent, or referenced from the cache)


@dataclass
class Visitor:
    """One browser tab's worth of protocol on one WebSocket."""

    ws: websockets.ClientConnection
    page: str = ""
    query: dict[str, str] = field(default_factory=dict)  # the URL's query, as a browser keeps it
    widget_values: dict[str, tuple[str, object]] = field(
        default_factory=dict
    )  # id -> (kind, value)
    controls: dict[str, Control] = field(default_factory=dict)  # by widget id, page order
    moved: dict[str, str] = field(default_factory=dict)  # URL key -> value of moved controls
    elements: dict[tuple[int, ...], bytes] = field(default_factory=dict)  # the drawn page
    cache: MessageCache = field(default_factory=MessageCache)
    widgets: dict[str, Widget] = field(default_factory=dict)  # buttons, inputs, radios drawn
    texts: dict[tuple[int, ...], str] = field(default_factory=dict)  # elements' text by path
    fragment_of: dict[tuple[int, ...], str] = field(default_factory=dict)  # element -> fragment
    auto_reruns: dict[str, float] = field(default_factory=dict)  # fragment id -> run_every s
    pending: dict[str, tuple[str, object]] = field(default_factory=dict)  # filled, not sent

    @classmethod
    @asynccontextmanager
    async def connect(cls, base_url: str, *, timeout_s: float = 30.0) -> AsyncIterator[Visitor]:
        """Open the WebSocket of a server at base_url (http://host:port[/prefix])."""
        ws_url = base_url.replace("http://", "ws://", 1).rstrip("/") + "/_stcore/stream"
        async with websockets.connect(
            ws_url,
            subprotocols=[websockets.Subprotocol("streamlit")],
            max_size=MAX_MESSAGE_BYTES,
            open_timeout=timeout_s,
            ping_interval=None,  # Streamlit keeps the socket alive itself
        ) as ws:
            yield cls(ws)

    async def open(self, page: str, query: str = "") -> Run:
        """Load a page (its url_path; "" is home) with a query string, as typing the URL does."""
        self.page, self.query = page, dict(parse_qsl(query, keep_blank_values=True))
        self.widget_values.clear()
        self.moved.clear()
        return await self._rerun(fragment_id="")

    async def move_slider(self, rng: random.Random, *, first: bool = False) -> Run:
        """Move one control by one step: a random slider, or with `first` the page's first
        (a checkbox where there is none)."""
        if not self.controls:
            return await self._rerun(fragment_id="")  # nothing to move: a reload
        sliders = [c for c in self.controls.values() if c.kind != "checkbox"]
        movable = sliders or list(self.controls.values())
        return await self.move(movable[0] if first else rng.choice(movable), rng)

    async def move(self, control: Control, rng: random.Random) -> Run:
        """Move `control` one step up or down (rng decides) and wait for the run."""
        kind, value = self._next_value(control, rng)
        self.widget_values[control.widget_id] = (kind, value)
        self.moved[control.url_key] = _url_text(value)
        self.query[control.url_key] = self.moved[control.url_key]
        return await self._rerun(fragment_id=control.fragment_id)

    async def full_rerun(self) -> Run:
        """Run the whole page again with the visitor's current state."""
        return await self._rerun(fragment_id="")

    async def rerun_fragment(self, fragment_id: str) -> Run:
        """Rerun one fragment, as the frontend's timer does for `run_every` (see
        `auto_reruns`): the request carries the fragment's id and the current values."""
        return await self._rerun(fragment_id=fragment_id)

    def widget(self, kind: str, *, label: str | None = None, key: str | None = None) -> Widget:
        """The first drawn widget of this kind with this label and/or a key that starts
        with `key`; LookupError if there is none."""
        for w in self.widgets.values():
            if w.kind == kind and label in (None, w.label) and w.key.startswith(key or ""):
                return w
        raise LookupError(f"no {kind} with label {label!r} and key {key!r} on the page")

    def fill(self, widget: Widget, value: str) -> None:
        """Type into a text input or pick a radio's option (its text); inside a form the
        value is sent when the form is submitted, outside one with the next request."""
        if widget.kind == "radio" and value not in widget.options:
            raise ValueError(f"{value!r} is not one of {widget.options}")
        if widget.kind not in ("text_input", "radio"):
            raise ValueError(f"cannot fill a {widget.kind}")
        target = self.pending if widget.form_id else self.widget_values
        target[widget.widget_id] = ("string", value)

    async def click(self, button: Widget) -> Run:
        """Click a button (a form's submit button sends the form's filled values): the
        rerun of its fragment, or of the page."""
        if button.kind != "button":
            raise ValueError(f"cannot click a {button.kind}")
        if button.submits_form:
            for widget_id in [i for i, w in self.widgets.items() if w.form_id == button.form_id]:
                if widget_id in self.pending:
                    self.widget_values[widget_id] = self.pending.pop(widget_id)
        return await self._rerun(fragment_id=button.fragment_id, trigger=button.widget_id)

    def text(self, fragment_id: str | None = None) -> str:
        """The text the page shows now (Markdown, alerts, labels), element by element in
        page order; with `fragment_id`, only that fragment's."""
        return "\n".join(
            self.texts[p]
            for p in sorted(self.texts)
            if fragment_id is None or self.fragment_of.get(p) == fragment_id
        )

    def digest(self) -> str:
        """A fingerprint of everything the page shows now (elements and their places)."""
        h = hashlib.sha256()
        for path in sorted(self.elements):
            h.update(repr(path).encode())
            h.update(self.elements[path])
        return h.hexdigest()

    @property
    def query_string(self) -> str:
        return urlencode(self.query)

    # ------------------------------------------------------------------ protocol

    async def _rerun(self, fragment_id: str, trigger: str = "") -> Run:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        state.page_name = self.page
        state.fragment_id = fragment_id
        state.cached_message_hashes.extend(self.cache.messages)
        for widget_id, (kind, value) in self.widget_values.items():
            w = state.widget_states.widgets.add()
            w.id = widget_id
            if kind == "bool":
                w.bool_value = bool(value)
            elif kind == "string":
                w.string_value = str(value)
            elif kind == "strings":
                w.string_array_value.data.extend(value)  # type: ignore[arg-type]
            else:
                w.double_array_value.data.extend(value)  # type: ignore[arg-type]
        if trigger:  # a click: true for this request only
            w = state.widget_states.widgets.add()
            w.id = trigger
            w.trigger_value = True
        if not fragment_id:
            self._forget(list(self.elements))
            self.controls.clear()
        written: set[tuple[int, ...]] = set()  # paths drawn by the run in progress
        run_fragments: tuple[str, ...] = (fragment_id,) if fragment_id else ()
        run = Run(seconds=0.0, received_bytes=0, chart_bytes=0, fragment=bool(fragment_id))
        start = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            raw = await self.ws.recv()
            run.received_bytes += len(raw)
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            fwd = self.cache.resolve(fwd)
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                run.elements += fwd.delta.WhichOneof("type") in ("new_element", "add_block")
                written.add(tuple(fwd.metadata.delta_path))
                self._apply(fwd, run)
            elif kind == "page_info_changed":  # the page rewrote its URL
                self.query = dict(parse_qsl(fwd.page_info_changed.query_string))
                self.query.update(self.moved)  # a browser writes moved controls back
            elif kind == "new_session":  # a run starts: of the page, or of fragments
                if fwd.new_session.config.max_cached_message_age:
                    self.cache.max_age = fwd.new_session.config.max_cached_message_age
                run_fragments = tuple(fwd.metadata.run.fragment_ids)
                written.clear()
                if not run_fragments:  # a page run: the browser drops its timers
                    self.auto_reruns.clear()
            elif kind == "auto_rerun":
                self.auto_reruns[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for stopped in fwd.stop_auto_rerun.fragment_ids:
                    self.auto_reruns.pop(stopped, None)
            elif kind == "page_not_found":
                run.errors.append(f"page not found: {self.page!r}")
            elif kind == "script_finished" and fwd.script_finished != FINISHED_EARLY_FOR_RERUN:
                # what the run did not draw again is gone (of its fragments, or of the page)
                self._forget(
                    [
                        p
                        for p in self.elements
                        if p not in written
                        and (not run_fragments or self.fragment_of.get(p) in run_fragments)
                    ]
                )
                self.cache.finished(fragment_id)
                run.seconds = time.perf_counter() - start
                if fwd.script_finished not in (0, 3):  # 1: compile error
                    run.errors.append(f"script finished with status {fwd.script_finished}")
                return run

    def _forget(self, paths: list[tuple[int, ...]]) -> None:
        """Drop these drawn elements, with their widgets."""
        for path in paths:
            del self.elements[path]
            self.texts.pop(path, None)
            self.fragment_of.pop(path, None)
        self.widgets = {i: w for i, w in self.widgets.items() if w.path in self.elements}

    def _apply(self, fwd: ForwardMsg, run: Run) -> None:
        delta = fwd.delta
        path = tuple(fwd.metadata.delta_path)
        which = delta.WhichOneof("type")
        if which in ("add_block", "new_element"):
            self.fragment_of[path] = delta.fragment_id
            self.texts.pop(path, None)
        if which == "add_block":
            block = delta.add_block
            if block.WhichOneof("type") == "expandable":
                # Whether an expander starts open follows the link on a first visit (a
                # folded control opens when the link carries its value); afterwards the
                # browser keeps the visitor's own choice. Not part of the page's state.
                block = type(block).FromString(block.SerializeToString())
                block.expandable.expanded = False
            self.elements[path] = b"block:" + block.SerializeToString()
            return
        if which != "new_element":
            return
        element = delta.new_element
        etype = element.WhichOneof("type")
        self.elements[path] = _drawn(element, etype)
        shown = _text(element, etype)
        if shown:
            self.texts[path] = shown
        if etype in ("button", "text_input", "radio"):
            self._remember_widget(element, etype, path, delta.fragment_id)
        if etype == "exception":
            run.errors.append(f"exception: {element.exception.message[:120]}")
        elif etype == "alert" and element.alert.format == ERROR_ALERT:
            run.errors.append(f"error: {element.alert.body[:120]}")
        elif etype == "plotly_chart":
            run.chart_bytes += len(element.plotly_chart.spec)
        elif etype == "slider" and element.slider.query_param_key:
            control = _slider_control(element.slider, delta.fragment_id)
            self._remember(control)
            if control.widget_id not in self.widget_values:
                self.widget_values[control.widget_id] = _slider_value(element.slider, control)
        elif etype == "checkbox" and element.checkbox.query_param_key:
            cb = element.checkbox
            self._remember(Control(cb.id, "checkbox", cb.query_param_key, delta.fragment_id))
            if cb.id not in self.widget_values:
                self.widget_values[cb.id] = ("bool", cb.value if cb.set_value else cb.default)

    def _remember(self, control: Control) -> None:
        self.controls[control.widget_id] = control

    def _remember_widget(
        self, element: Element, etype: str, path: tuple[int, ...], fragment_id: str
    ) -> None:
        inner = getattr(element, etype)
        self.widgets[inner.id] = Widget(
            inner.id,
            etype,
            inner.label,
            path,
            fragment_id,
            inner.form_id,
            submits_form=etype == "button" and inner.is_form_submitter,
            options=tuple(inner.options) if etype == "radio" else (),
        )

    def _next_value(self, c: Control, rng: random.Random) -> tuple[str, object]:
        """One step up or down from the control's current value, inside its range."""
        known = self.widget_values.get(c.widget_id)
        if c.kind == "checkbox":
            return "bool", not (known[1] if known else False)
        if c.kind == "select_slider":
            current = known[1][0] if known else None  # type: ignore[index]
            i = c.options.index(current) if current in c.options else len(c.options) // 2
            j = min(max(i + rng.choice((-1, 1)), 0), len(c.options) - 1)
            return "strings", [c.options[j]]
        current_value = float(known[1][0]) if known else c.low  # type: ignore[index]
        value = min(max(current_value + rng.choice((-1, 1)) * c.step, c.low), c.high)
        if c.is_int:
            value = float(round(value))
        return "doubles", [value]


def _drawn(element: Element, etype: str | None) -> bytes:
    """The element as the page draws it: a control without how its value reached the server.

    A control whose value came from the URL carries it in `value`/`raw_value` with
    `set_value`; one whose value came from the browser does not. Both draw the same.
    """
    if etype is None:
        return b""
    inner = getattr(element, etype)
    if etype == "download_button" and inner.deferred_file_id:
        # a file made on the click: its handle is new on every run, in every session
        copy = Element()
        copy.CopyFrom(element)
        copy.download_button.ClearField("deferred_file_id")
        return copy.SerializeToString()
    names = {f.name for f in inner.DESCRIPTOR.fields}
    if "set_value" not in names:
        return element.SerializeToString()
    copy = Element()
    copy.CopyFrom(element)
    copy.ClearField("has_one_shot_effect")  # the value was set by the server this run
    for name in ("set_value", "value", "raw_value"):
        if name in names:
            getattr(copy, etype).ClearField(name)
    return copy.SerializeToString()


def _text(element: Element, etype: str | None) -> str:
    """An element's text as shown: a Markdown, text, heading or alert's body, a control's
    label (not its help)."""
    if etype is None:
        return ""
    inner = getattr(element, etype)
    for name in ("body", "label"):
        if name in inner.DESCRIPTOR.fields_by_name:
            return str(getattr(inner, name))
    return ""


def _slider_control(s: Slider, fragment_id: str) -> Control:
    if s.type == Slider.Type.SELECT_SLIDER:
        return Control(s.id, "select_slider", s.query_param_key, fragment_id, tuple(s.options))
    return Control(
        s.id,
        "slider",
        s.query_param_key,
        fragment_id,
        low=s.min,
        high=s.max,
        step=s.step,
        is_int=s.data_type == Slider.DataType.INT,
    )


def _slider_value(s: Slider, c: Control) -> tuple[str, object]:
    """What the slider shows now: the value the server set (from the URL) or its default."""
    if c.kind == "select_slider":
        if s.set_value and s.raw_value:
            return "strings", list(s.raw_value)
        return "strings", [c.options[int(s.default[0])]]
    return "doubles", list(s.value) if s.set_value else list(s.default)


def _url_text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    first = value[0]  # type: ignore[index]
    if isinstance(first, float) and first.is_integer():
        return str(int(first))
    return str(first)
