"""Run N replicas of lnviz behind a local nginx that pins each visitor to one replica.

Usage (from the repository root; needs the app's requirements and Debian's `nginx`):

    python deploy/replicas.py --replicas 2 --port 8080

starts two `streamlit run app.py` servers on free ports of 127.0.0.1 (each in its own
process group, all with one cookie secret generated for this run), waits for their health
checks, renders deploy/nginx/lnviz.conf.template into a temporary directory and runs nginx
in the foreground on 127.0.0.1:8080 with its pid file, logs and temporary files in that
directory (so it runs as root or not). It prints the address and stops everything on
Ctrl-C or SIGTERM. Responses carry `X-Lnviz-Upstream: <replica address>`, which names the
replica that answered (fine on loopback, not for a public server: `--no-upstream-header`).
The replicas keep the class poll's rooms in one SQLite file of this machine, or in Redis
with `--redis-url redis://127.0.0.1:6379/0` (their LNVIZ_REDIS_URL).

From Python (tests, load benchmarks):

    from deploy.replicas import balanced_app

    with balanced_app(2) as bal:          # port=None: a free port
        bal.url                           # 'http://127.0.0.1:<port>'
        [r.url for r in bal.replicas]     # each replica's own address
        bal.kill_replica(0)               # SIGKILL its process group (a crash)

Stdlib only, so it runs without the test dependencies.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).resolve().parent / "nginx" / "lnviz.conf.template"

HOST = "127.0.0.1"
COOKIE_NAME = "lnviz_replica"
UPSTREAM_HEADER = "X-Lnviz-Upstream"
SECRET_ENV = "STREAMLIT_SERVER_COOKIE_SECRET"
REDIS_URL_ENV = "LNVIZ_REDIS_URL"  # the class poll's shared store (lnviz/classpoll)
HEALTH_PATH = "/_stcore/health"

MAX_FAILS = 1  # one refused connection marks a replica down ...
FAIL_TIMEOUT_S = 10  # ... for this long; then one request tries it again
STARTUP_TIMEOUT_S = 60.0  # a cold start on a busy 2-core machine takes a few seconds

_PLACEHOLDER = re.compile(r"\$\{(LNVIZ_[A-Z_]+)\}")


# --------------------------------------------------------------------------- the config


def render_template(text: str, values: Mapping[str, str]) -> str:
    """Fill the `${LNVIZ_*}` placeholders of the nginx template; nginx's `$vars` stay.

    Every placeholder must have a value, and every value a placeholder.

    >>> render_template("listen ${LNVIZ_LISTEN}; set $x 1;", {"LNVIZ_LISTEN": "8080"})
    'listen 8080; set $x 1;'
    """
    wanted = set(_PLACEHOLDER.findall(text))
    given = set(values)
    if wanted != given:
        raise ValueError(f"template placeholders {sorted(wanted)} but values for {sorted(given)}")
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def upstream_servers(addresses: list[str], *, backup_from: int | None = None) -> str:
    """The `server` lines of an upstream block, with their failure limits; with
    `backup_from=i`, replica i first and the others as backups.

    >>> print(upstream_servers(["127.0.0.1:9001", "127.0.0.1:9002"]))
        server 127.0.0.1:9001 max_fails=1 fail_timeout=10s;
        server 127.0.0.1:9002 max_fails=1 fail_timeout=10s;
    >>> print(upstream_servers(["127.0.0.1:9001", "127.0.0.1:9002"], backup_from=1))
        server 127.0.0.1:9002 max_fails=1 fail_timeout=10s;
        server 127.0.0.1:9001 max_fails=1 fail_timeout=10s backup;
    """
    order = list(range(len(addresses)))
    if backup_from is not None:
        order.remove(backup_from)
        order.insert(0, backup_from)
    return "\n".join(
        f"    server {addresses[i]} max_fails={MAX_FAILS} fail_timeout={FAIL_TIMEOUT_S}s"
        + (" backup;" if backup_from is not None and i != backup_from else ";")
        for i in order
    )


def route(index: int) -> str:
    """The route cookie's value for replica `index` (its upstream is lnviz_<route>)."""
    return f"r{index}"


def route_upstreams(addresses: list[str]) -> str:
    """One upstream per replica for the visitors pinned to it: it first, the others as
    backups, with the newcomers' keepalive settings."""
    return "\n".join(
        f"upstream lnviz_{route(i)} {{\n"
        f"{upstream_servers(addresses, backup_from=i)}\n"
        "    keepalive 16;\n"
        "    keepalive_timeout 4s;\n"
        "}"
        for i in range(len(addresses))
    )


def render_site(
    listen: str, addresses: list[str], access_log: str, *, upstream_header: bool = True
) -> str:
    """The http-level lnviz config for these replicas (the rendered template)."""
    debug = f"add_header {UPSTREAM_HEADER} $upstream_addr always;" if upstream_header else ""
    routes = [route(i) for i in range(len(addresses))]
    return render_template(
        TEMPLATE.read_text(),
        {
            "LNVIZ_LISTEN": listen,
            "LNVIZ_UPSTREAM_SERVERS": upstream_servers(addresses),
            "LNVIZ_ROUTE_UPSTREAMS": route_upstreams(addresses),
            "LNVIZ_ROUTES": "\n".join(f"    {r} lnviz_{r};" for r in routes),
            "LNVIZ_ANSWERED": "\n".join(
                f'    "~(^|, ){re.escape(a)}$" {r};' for a, r in zip(addresses, routes, strict=True)
            ),
            "LNVIZ_KEPT_ROUTES": "\n".join(f'    "{r}:{r}" "";' for r in routes),
            "LNVIZ_ACCESS_LOG": access_log,
            "LNVIZ_DEBUG_HEADERS": debug,
        },
    )


def write_nginx_conf(
    workdir: Path,
    port: int,
    addresses: list[str],
    *,
    upstream_header: bool = True,
    workers: int = 1,
) -> Path:
    """Write a complete nginx.conf for a local run into `workdir`; return its path.

    Everything nginx writes (pid, logs, request-body and proxy temp files) goes into
    `workdir`. Run as root, nginx's workers run as the same user (`user root root;`), as
    the temp directory is that user's.
    """
    tmp = workdir / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    site = workdir / "lnviz.conf"
    site.write_text(
        render_site(
            f"{HOST}:{port}",
            addresses,
            f"{workdir / 'access.log'} lnviz_upstream",
            upstream_header=upstream_header,
        )
    )
    user = "user root root;\n" if os.geteuid() == 0 else ""
    temp_paths = "".join(
        f"    {kind}_temp_path {tmp / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = workdir / "nginx.conf"
    conf.write_text(
        "# Written by deploy/replicas.py for a local run.\n"
        f"{user}"
        f"worker_processes {workers};\n"
        f"pid {workdir / 'nginx.pid'};\n"
        f"error_log {workdir / 'error.log'} warn;\n"
        "events {\n    worker_connections 1024;\n}\n"
        "http {\n"
        f"{temp_paths}"
        "    default_type application/octet-stream;\n"
        f"    include {site};\n"
        "}\n"
    )
    return conf


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


REDIS_SERVER = "/usr/bin/redis-server"  # Debian's, for the class poll's shared store


def start_redis(port: int, workdir: Path) -> subprocess.Popen[bytes]:
    """redis-server on 127.0.0.1:`port`, nothing persisted, its files in `workdir`."""
    cmd = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
           "--appendonly", "no", "--dir", str(workdir), "--daemonize", "no"]  # fmt: skip
    return subprocess.Popen(
        cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def redis_ready(port: int, proc: subprocess.Popen[bytes], timeout_s: float = 10.0) -> bool:
    """Whether the server on `port` answers PING (+PONG) before `timeout_s`, while it runs."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5) as c:
            c.sendall(b"PING\r\n")
            if c.recv(16).startswith(b"+PONG"):
                return True
        time.sleep(0.05)
    return False


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server on a free loopback port: (its URL, the process); stopped after.
    RuntimeError if three tries on free ports do not start one."""
    for _attempt in range(3):  # the free port can be taken before the server binds it
        port = free_port()
        proc = start_redis(port, workdir)
        if redis_ready(port, proc):
            break
        proc.kill()
        proc.wait()
    else:
        raise RuntimeError(f"{REDIS_SERVER} did not start")
    try:
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the child gets SIGTERM if its parent dies without stopping it."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _spawn(cmd: list[str], log_path: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    with log_path.open("wb") as log:
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as a whole
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )


def _stop(proc: subprocess.Popen[bytes], first: signal.Signals = signal.SIGTERM) -> None:
    """Signal the process group; SIGKILL it if it lingers; reap it."""
    if proc.poll() is not None:
        return
    for sig, wait_s in ((first, 10.0), (signal.SIGKILL, 10.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError as err:
        return f"(no log: {err})"


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + HEALTH_PATH, timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


@dataclass
class Replica:
    """One `streamlit run` on 127.0.0.1: a replica behind the balancer, or a server alone."""

    index: int
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path

    @property
    def address(self) -> str:
        """host:port, as nginx's $upstream_addr (and the X-Lnviz-Upstream header) name it."""
        return f"{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def rss_bytes(self) -> int | None:
        """The server's resident memory (Linux /proc), or None if unknown or stopped."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return None
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        return int(match.group(1)) * 1024 if match else None

    def log_tail(self, lines: int = 30) -> str:
        return _tail(self.log_path, lines)


@dataclass
class Balancer:
    """nginx on 127.0.0.1:`port` in front of `replicas`."""

    port: int
    replicas: list[Replica]
    workdir: Path
    nginx: subprocess.Popen[bytes]
    cookie_secret: str = field(repr=False)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def access_log(self) -> Path:
        """One line per request: `... upstream=<replica address> affinity=<key> ...`."""
        return self.workdir / "access.log"

    @property
    def error_log(self) -> Path:
        return self.workdir / "error.log"

    def replica_at(self, address: str) -> Replica:
        """The replica that an X-Lnviz-Upstream value (or $upstream_addr) names."""
        for replica in self.replicas:
            if replica.address == address:
                return replica
        raise KeyError(f"no replica at {address!r}: {[r.address for r in self.replicas]}")

    def kill_replica(self, index: int, sig: signal.Signals = signal.SIGKILL) -> None:
        """Stop one replica's process group (SIGKILL: as if it crashed) and reap it."""
        _stop(self.replicas[index].proc, first=sig)

    def log_tails(self, lines: int = 20) -> str:
        """The end of every log, for failure messages."""
        parts = [
            f"--- nginx error log ---\n{_tail(self.error_log, lines)}",
            f"--- nginx output ---\n{_tail(self.workdir / 'nginx.out', lines)}",
        ]
        for r in self.replicas:
            parts.append(f"--- replica {r.index} ({r.address}) ---\n{r.log_tail(lines)}")
        return "\n".join(parts)


def replica_env(
    secret: str, redis_url: str | None = None, base: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """A replica's environment: `base`, the shared cookie secret and, if given, the poll
    store's URL (else `base`'s LNVIZ_REDIS_URL, if any, is kept)."""
    env = {**base, "PYTHONUNBUFFERED": "1", SECRET_ENV: secret}
    if redis_url:
        env[REDIS_URL_ENV] = redis_url
    return env


def streamlit_command(
    port: int, script: str = "app.py", options: Mapping[str, str] | None = None
) -> list[str]:
    """The command of one server of `script` on 127.0.0.1:`port` (run from the repository root).

    `options` add or override Streamlit settings, e.g. {"runner.postScriptGC": "true"}.
    """
    settings = {
        "server.headless": "true",
        "server.fileWatcherType": "none",
        "browser.gatherUsageStats": "false",
        "server.address": HOST,
        "server.port": str(port),
        **(options or {}),
    }
    cmd = [sys.executable, "-m", "streamlit", "run", script]
    for key, value in settings.items():
        cmd += [f"--{key}", value]
    return cmd


@contextlib.contextmanager
def serve(
    script: str = "app.py",
    *,
    log_path: Path,
    options: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout_s: float = STARTUP_TIMEOUT_S,
) -> Iterator[Replica]:
    """One server of `script` on a free port of 127.0.0.1, healthy; stopped after the block.

    The browser tests and the benchmarks start their servers through this. `env` is added
    to this process's environment. Raises RuntimeError (with the log's end) if the server
    exits or does not answer its health check within `timeout_s`.
    """
    port = free_port()
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = _spawn(streamlit_command(port, script, options), log_path, environment)
    server = Replica(0, port, proc, log_path)
    try:
        _wait_all([(script, proc, server.url, log_path)], timeout_s)
        yield server
    finally:
        _stop(proc)


def _wait_all(
    procs: list[tuple[str, subprocess.Popen[bytes], str, Path]], timeout_s: float
) -> None:
    """Wait until every (name, process, url, log) answers its health check."""
    deadline = time.monotonic() + timeout_s
    waiting = list(procs)
    while waiting:
        for item in list(waiting):
            name, proc, url, log = item
            code = proc.poll()
            if code is not None:
                raise RuntimeError(
                    f"{name} exited with code {code} before answering {url}{HEALTH_PATH}\n"
                    f"--- its log ---\n{_tail(log)}"
                )
            if _healthy(url):
                waiting.remove(item)
        if waiting and time.monotonic() > deadline:
            name, _, url, log = waiting[0]
            raise RuntimeError(
                f"{name} did not answer {url}{HEALTH_PATH} within {timeout_s:.0f} s\n"
                f"--- its log ---\n{_tail(log)}"
            )
        if waiting:
            time.sleep(0.1)


@contextlib.contextmanager
def balanced_app(
    n: int = 2,
    port: int | None = None,
    *,
    workdir: Path | None = None,
    upstream_header: bool = True,
    nginx: str = "nginx",
    nginx_workers: int = 1,
    timeout_s: float = STARTUP_TIMEOUT_S,
    redis_url: str | None = None,
) -> Iterator[Balancer]:
    """Start `n` replicas and nginx in front of them; stop them all on leaving the block.

    `port=None` picks a free port. `workdir` (default: a new temporary directory, removed
    afterwards) receives the rendered config, nginx's logs and each replica's log
    (`replica-<i>.log`). The replicas share one cookie secret: $STREAMLIT_SERVER_COOKIE_SECRET
    if set, else one generated for this run. `redis_url` becomes the replicas'
    LNVIZ_REDIS_URL (the class poll's store; without it they share one SQLite file of this
    machine). Raises RuntimeError (with the logs' ends) if something does not start.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    nginx_path = shutil.which(nginx)
    if nginx_path is None:
        raise RuntimeError(f"{nginx!r} not found (Debian: apt-get install nginx)")
    owned = workdir is None
    work = Path(tempfile.mkdtemp(prefix="lnviz-balancer-")) if workdir is None else workdir
    work.mkdir(parents=True, exist_ok=True)
    secret = os.environ.get(SECRET_ENV) or secrets.token_hex(32)
    env = replica_env(secret, redis_url)
    replicas: list[Replica] = []
    proxy: subprocess.Popen[bytes] | None = None
    try:
        for i in range(n):
            rport = free_port()
            log = work / f"replica-{i}.log"
            replicas.append(Replica(i, rport, _spawn(streamlit_command(rport), log, env), log))
        _wait_all([(f"replica {r.index}", r.proc, r.url, r.log_path) for r in replicas], timeout_s)

        lport = port or free_port()
        conf = write_nginx_conf(
            work,
            lport,
            [r.address for r in replicas],
            upstream_header=upstream_header,
            workers=nginx_workers,
        )
        cmd = [nginx_path, "-p", str(work), "-c", str(conf), "-e", str(work / "error.log")]
        proxy = _spawn([*cmd, "-g", "daemon off;"], work / "nginx.out", os.environ)
        balancer = Balancer(lport, replicas, work, proxy, secret)
        try:
            _wait_all([("nginx", proxy, balancer.url, work / "error.log")], timeout_s)
        except RuntimeError as err:
            output = _tail(work / "nginx.out")
            raise RuntimeError(f"{err}\n--- nginx output ---\n{output}") from None
        yield balancer
    finally:
        if proxy is not None:
            _stop(proxy)
        for replica in replicas:
            _stop(replica.proc)
        if owned:
            shutil.rmtree(work, ignore_errors=True)


# --------------------------------------------------------------------------- the command


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def parser() -> argparse.ArgumentParser:
    """The command's options."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2, help="how many servers (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1")
    parser.add_argument(
        "--no-upstream-header",
        action="store_true",
        help=f"do not add {UPSTREAM_HEADER} (the answering replica) to responses",
    )
    parser.add_argument("--nginx-workers", type=int, default=1, help="nginx worker processes")
    parser.add_argument(
        "--redis-url",
        default=None,
        help=f"the class poll's Redis, as the replicas' {REDIS_URL_ENV} (default: they "
        "share one SQLite file of this machine)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run until Ctrl-C / SIGTERM, or until nginx or every replica stops."""
    args = parser().parse_args(argv)

    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        with balanced_app(
            args.replicas,
            args.port,
            upstream_header=not args.no_upstream_header,
            nginx_workers=args.nginx_workers,
            redis_url=args.redis_url,
        ) as bal:
            print(f"lnviz: {bal.url}  (nginx, config and logs in {bal.workdir})", flush=True)
            for r in bal.replicas:
                print(f"  replica {r.index}: {r.url}  pid {r.pid}  log {r.log_path}", flush=True)
            print("Ctrl-C stops everything.", flush=True)
            while bal.nginx.poll() is None and any(r.alive() for r in bal.replicas):
                time.sleep(0.5)
            which = "nginx" if bal.nginx.poll() is not None else "every replica"
            print(f"{which} stopped; shutting down.", file=sys.stderr)
            print(bal.log_tails(), file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        print("stopped.", flush=True)
        return 0
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
