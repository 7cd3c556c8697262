"""Script runs of a page, counted on the app's WebSocket.

The browser asks for a rerun with a `BackMsg.rerun_script`; the server ends every run
(whole page or fragment) with a `ForwardMsg.script_finished`. Counting those messages
misses no run. The script state Streamlit writes into the DOM
(`data-test-script-state`) can miss one: React may apply a fast fragment run's start and
end in one batch, and the DOM never shows "running" (two CI failures, December 2026).

Nothing here imports Playwright or Streamlit at module level (collection without them works).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# ForwardMsg.script_finished values: 0 successfully, 1 with a compile error, 2 cut short
# because another run follows (not counted: the run that follows ends the request), 3 a
# fragment run finished successfully.
FINISHED_EARLY_FOR_RERUN = 2


# Installed in every page (with RUN_COUNTER_JS): counts the frames the page's own script
# has been handed on the app's WebSocket. Playwright sees a frame when it arrives, a busy
# renderer hands it to Streamlit's script later; a test that waits for a run's end must
# also wait until the page has handled the frame that ended it (wait_finished).
FRAME_COUNTER_JS = """
(() => {
  const Native = window.WebSocket;
  window.__lnvizFrames = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).includes("_stcore/stream")) {
        this.addEventListener("message", () => { window.__lnvizFrames += 1; });
      }
    }
  };
})();
"""


@dataclass
class Runs:
    """Reruns a page asked for and runs that finished, since the page opened; the frames
    received on the current socket, and how many had come when the last run finished."""

    asked: int = 0
    finished: int = 0
    frames: int = 0
    frames_at_finish: int = 0

    def on_sent(self, payload: bytes | str) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(payload, bytes):
            msg = BackMsg()
            msg.ParseFromString(payload)
            self.asked += msg.WhichOneof("type") == "rerun_script"

    def on_received(self, payload: bytes | str) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.frames += 1
        if isinstance(payload, bytes):
            msg = ForwardMsg()
            msg.ParseFromString(payload)
            if msg.WhichOneof("type") == "script_finished":
                self.finished += msg.script_finished != FINISHED_EARLY_FOR_RERUN
                self.frames_at_finish = self.frames

    def on_new_socket(self) -> None:
        self.frames = self.frames_at_finish = 0  # a new page counts afresh too


_COUNTED: weakref.WeakKeyDictionary[Any, Runs] = weakref.WeakKeyDictionary()


def count_runs(page: Any) -> Runs:
    """Start counting the page's runs (before it opens the app's WebSocket); idempotent."""
    if page in _COUNTED:
        return _COUNTED[page]
    runs = _COUNTED[page] = Runs()

    def watch(ws: Any) -> None:
        if "_stcore/stream" in ws.url:
            runs.on_new_socket()
            ws.on("framesent", runs.on_sent)
            ws.on("framereceived", runs.on_received)

    page.on("websocket", watch)
    return runs


def runs_of(page: Any) -> Runs:
    """The page's run counts; a page nobody counted is a mistake in the test."""
    try:
        return _COUNTED[page]
    except KeyError:
        raise AssertionError("this page's runs are not counted: call count_runs(page)") from None


def wait_until(page: Any, done: Callable[[], bool], timeout_ms: float) -> bool:
    """Poll `done` every 50 ms (Playwright delivers the socket's frames meanwhile) until it
    holds or the time is up; whether it held."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not done():
        if time.monotonic() >= deadline:
            return False
        page.wait_for_timeout(50)
    return True


def wait_finished(
    page: Any, after: int, timeout_ms: float, describe: Callable[[], str] = str
) -> None:
    """Wait until a run finishes beyond the first `after` (Runs.finished) and the page's
    script has been handed the frame that ended it; on a timeout fail with `describe()`
    appended to the message."""
    runs = runs_of(page)
    if not wait_until(page, lambda: runs.finished > after, timeout_ms):
        raise AssertionError(
            f"no run finished within {timeout_ms / 1000:.0f} s after run {after} at {page.url} "
            f"({runs.asked} asked for) {describe()}"
        )
    # The page's counter moves in the frame's own message event, just before Streamlit's
    # listener handles it, so a later poll that sees it knows the frame has been handled.
    page.wait_for_function(
        "(n) => (window.__lnvizFrames ?? Infinity) >= n", arg=runs.frames_at_finish,
        timeout=timeout_ms, polling=50,
    )  # fmt: skip
