"""Turn off Nagle's algorithm on the server's TCP sockets (a 40 ms stall on every rerun).

Streamlit 1.67 binds its listening socket itself and hands it to uvicorn. That socket is
created with protocol number 0, so asyncio, which enables TCP_NODELAY only for sockets that
report IPPROTO_TCP, leaves Nagle's algorithm on for every connection it accepts (the same
cause as uvicorn issue #3149). A rerun answers with several small WebSocket frames in a
row; Nagle holds the second one until the browser acknowledges the first, and browsers
delay that acknowledgement (40 ms on Linux), so every interaction waits about 40 ms for
nothing — measured here: a one-slider page's rerun took 44 ms over the WebSocket, 4 ms with
TCP_NODELAY.

`disable_nagle()` sets TCP_NODELAY on every TCP socket the process holds. Linux copies the
option from a listening socket to the connections it accepts, so one call, on the first
script run of a server process, covers every later visitor too. Elsewhere (no /proc) it
does nothing, and so it does with LNVIZ_KEEP_NAGLE=1 in the environment (benchmarks use it
to measure Streamlit as it comes).
"""

from __future__ import annotations

import os
import socket

__all__ = ["disable_nagle"]

_FD_DIR = "/proc/self/fd"
_done = False


def disable_nagle() -> int:
    """Set TCP_NODELAY on this process's TCP sockets (once per process); how many changed.

    >>> isinstance(disable_nagle(), int)
    True
    """
    global _done
    if _done or os.environ.get("LNVIZ_KEEP_NAGLE") == "1":
        return 0
    _done = True
    try:
        fds = [int(name) for name in os.listdir(_FD_DIR)]
    except OSError:  # not Linux: nothing to do
        return 0
    return sum(_set_nodelay(fd) for fd in fds)


def _set_nodelay(fd: int) -> bool:
    try:
        sock = socket.socket(fileno=fd)  # borrows the descriptor; detached below
    except OSError:  # not a socket, or already closed
        return False
    try:
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            return False
        if sock.type != socket.SOCK_STREAM:
            return False
        if sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY):
            return False
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return True
    except OSError:
        return False
    finally:
        sock.detach()  # the descriptor stays open and owned by whoever opened it
