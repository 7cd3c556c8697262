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

    async def _rerun(self, fragment_id: str) -> Run:
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
            elif kind == "strings":
                w.string_array_value.data.extend(value)  # type: ignore[arg-type]
            else:
                w.double_array_value.data.extend(value)  # type: ignore[arg-type]
        if not fragment_id:
            self.elements.clear()
            self.controls.clear()
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
                self._apply(fwd, run)
            elif kind == "page_info_changed":  # the page rewrote its URL
                self.query = dict(parse_qsl(fwd.page_info_changed.query_string))
                self.query.update(self.moved)  # a browser writes moved controls back
            elif kind == "new_session" and fwd.new_session.config.max_cached_message_age:
                self.cache.max_age = fwd.new_session.config.max_cached_message_age
            elif kind == "page_not_found":
                run.errors.append(f"page not found: {self.page!r}")
            elif kind == "script_finished" and fwd.script_finished != FINISHED_EARLY_FOR_RERUN:
                self.cache.finished(fragment_id)
                run.seconds = time.perf_counter() - start
                if fwd.script_finished not in (0, 3):  # 1: compile error
                    run.errors.append(f"script finished with status {fwd.script_finished}")
                return run

    def _apply(self, fwd: ForwardMsg, run: Run) -> None:
        delta = fwd.delta
        path = tuple(fwd.metadata.delta_path)
        which = delta.WhichOneof("type")
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
