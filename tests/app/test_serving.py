"""lnviz.app.serving: TCP_NODELAY on the server's sockets, inherited by accepted connections."""

from __future__ import annotations

import socket
import sys

import pytest

from lnviz.app import serving

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")


def _nodelay(sock: socket.socket) -> int:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


@linux_only
def test_listener_without_nodelay_passes_it_on_after_disable_nagle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serving, "_done", False)
    # As Streamlit binds it: protocol 0, so asyncio would not set TCP_NODELAY itself.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert listener.proto == 0 and _nodelay(listener) == 0
        assert serving.disable_nagle() >= 1
        assert _nodelay(listener) == 1
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, _ = listener.accept()
            with accepted:
                assert _nodelay(accepted) == 1
                client.sendall(b"x")
                assert accepted.recv(1) == b"x"  # descriptors still open and working


@linux_only
def test_runs_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "_done", False)
    serving.disable_nagle()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as late:
        late.bind(("127.0.0.1", 0))
        late.listen()
        assert serving.disable_nagle() == 0
        assert _nodelay(late) == 0


def test_other_descriptors_are_left_alone(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(serving, "_done", False)
    with (tmp_path / "f").open("w") as f, socket.socket(socket.AF_UNIX) as unix:
        serving.disable_nagle()
        f.write("still open")  # a file and a Unix socket are untouched and usable
        assert unix.fileno() >= 0


def test_benchmarks_can_keep_streamlits_sockets_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serving, "_done", False)
    monkeypatch.setenv("LNVIZ_KEEP_NAGLE", "1")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert serving.disable_nagle() == 0
        assert _nodelay(listener) == 0
