"""The deployment files agree with the app and with each other.

deploy/k8s/*.yaml (parsed), deploy/Dockerfile and .dockerignore, and the nginx template
(rendered by deploy/replicas.py, checked block by block, and by `nginx -t` itself where
nginx is installed). The balancer's behaviour in a browser: tests/browser/test_balancer.py.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from deploy import replicas
from tests.conftest import require_tool

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"

PORT = 8501  # Streamlit's port in the image
HEALTH = "/_stcore/health"
SECRET_ENV = "STREAMLIT_SERVER_COOKIE_SECRET"
# What one replica measured after running every page (docs/deploy.md): ~185 MB.
MEASURED_RSS_MIB = 185


# --------------------------------------------------------------------------- Kubernetes


REDIS = "lnviz-redis"  # the class poll's store (redis.yaml): its Deployment, Service, policy
REDIS_URL_ENV = "LNVIZ_REDIS_URL"


def manifests() -> dict[str, dict[str, Any]]:
    """Every object of deploy/k8s/*.yaml: the app's by kind (one object of each kind),
    the poll store's as "<kind>/lnviz-redis"."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc is None:
                continue
            kind = doc["kind"]
            if doc.get("metadata", {}).get("name") == REDIS:
                kind = f"{kind}/{REDIS}"
            assert kind not in found, f"two {kind} objects ({path.name})"
            found[kind] = doc
    return found


@pytest.fixture(scope="module")
def k8s() -> dict[str, dict[str, Any]]:
    return manifests()


def container(k8s: dict[str, dict[str, Any]]) -> dict[str, Any]:
    containers = k8s["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def container_port(k8s: dict[str, dict[str, Any]], port: int | str) -> int:
    """A port number, or a port name resolved against the container's ports."""
    if isinstance(port, int):
        return port
    named = {p["name"]: p["containerPort"] for p in container(k8s)["ports"]}
    assert port in named, f"port name {port!r} is not one of the container's {named}"
    return named[port]


def mebibytes(quantity: str) -> float:
    """A Kubernetes memory quantity in MiB.

    >>> mebibytes("320Mi"), mebibytes("1Gi"), mebibytes("256M")
    (320.0, 1024.0, 244.140625)
    """
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 1e3, "M": 1e6, "G": 1e9}
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([KMG]i?)?", quantity)
    assert match, f"not a memory quantity: {quantity!r}"
    return float(match.group(1)) * units.get(match.group(2) or "", 1) / 2**20


def test_kustomization_lists_every_manifest(k8s: dict[str, dict[str, Any]]) -> None:
    listed = k8s["Kustomization"]["resources"]
    on_disk = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(listed) == on_disk
    assert set(k8s) == {
        "Deployment",
        "Service",
        "Ingress",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "Kustomization",
        f"Deployment/{REDIS}",
        f"Service/{REDIS}",
        f"NetworkPolicy/{REDIS}",
    }


def test_selectors_match_the_pod_labels(k8s: dict[str, dict[str, Any]]) -> None:
    deployment = k8s["Deployment"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selectors = {
        "Deployment": deployment["spec"]["selector"]["matchLabels"],
        "Service": k8s["Service"]["spec"]["selector"],
        "PodDisruptionBudget": k8s["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"],
    }
    for kind, selector in selectors.items():
        assert selector, f"{kind} selects nothing"
        assert selector.items() <= labels.items(), f"{kind} selector {selector} vs {labels}"


def test_probes_ask_streamlits_health_endpoint(k8s: dict[str, dict[str, Any]]) -> None:
    c = container(k8s)
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == HEALTH, probe
        assert container_port(k8s, get["port"]) == PORT, probe
    # a live but briefly busy server is not restarted: liveness waits longer than readiness
    live, ready = c["livenessProbe"], c["readinessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > (
        ready["periodSeconds"] * ready["failureThreshold"]
    )


def test_ports_agree_from_ingress_to_container(k8s: dict[str, dict[str, Any]]) -> None:
    service = k8s["Service"]
    [rule] = k8s["Ingress"]["spec"]["rules"]
    [path] = rule["http"]["paths"]
    backend = path["backend"]["service"]
    assert path["path"] == "/" and path["pathType"] == "Prefix"
    assert backend["name"] == service["metadata"]["name"]
    wanted = backend["port"]
    [svc_port] = [
        p
        for p in service["spec"]["ports"]
        if wanted in ({"name": p["name"]}, {"number": p["port"]})
    ]
    assert container_port(k8s, svc_port["targetPort"]) == PORT


def test_ingress_pins_visitors_and_keeps_websockets_open(k8s: dict[str, dict[str, Any]]) -> None:
    ingress = k8s["Ingress"]
    notes = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert ingress["spec"]["ingressClassName"] == "nginx"
    assert notes[prefix + "affinity"] == "cookie"
    assert notes[prefix + "affinity-mode"] == "persistent"
    assert notes[prefix + "session-cookie-name"] == replicas.COOKIE_NAME
    assert notes[prefix + "session-cookie-path"] == "/"
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(notes[prefix + timeout]) >= 3600, timeout
    assert all(isinstance(v, str) for v in notes.values()), "annotation values must be strings"


def test_autoscaler_drives_the_deployment_on_cpu(k8s: dict[str, dict[str, Any]]) -> None:
    hpa, deployment = k8s["HorizontalPodAutoscaler"], k8s["Deployment"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        deployment["apiVersion"],
        "Deployment",
        deployment["metadata"]["name"],
    )
    assert hpa["spec"]["minReplicas"] == deployment["spec"]["replicas"] == 2
    assert hpa["spec"]["maxReplicas"] >= 10
    [metric] = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    assert 50 <= metric["resource"]["target"]["averageUtilization"] <= 70
    # the pod disruption budget never blocks all of them
    assert k8s["PodDisruptionBudget"]["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_resources_fit_one_core_and_the_measured_memory(k8s: dict[str, dict[str, Any]]) -> None:
    res = container(k8s)["resources"]
    assert res["requests"]["cpu"] == "1"
    request = mebibytes(res["requests"]["memory"])
    limit = mebibytes(res["limits"]["memory"])
    assert MEASURED_RSS_MIB * 1.3 <= request <= limit, (request, limit)
    assert limit <= 4 * MEASURED_RSS_MIB


def test_pods_run_unprivileged(k8s: dict[str, dict[str, Any]]) -> None:
    pod = k8s["Deployment"]["spec"]["template"]["spec"]
    c = container(k8s)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == dockerfile_uid() != 0
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    assert c["securityContext"]["capabilities"]["drop"] == ["ALL"]
    if c["securityContext"].get("readOnlyRootFilesystem"):
        mounts = {m["mountPath"] for m in c["volumeMounts"]}
        assert "/tmp" in mounts, "a read-only root needs a writable /tmp"


def test_replicas_share_a_cookie_secret_from_a_secret(k8s: dict[str, dict[str, Any]]) -> None:
    [env] = [e for e in container(k8s)["env"] if e["name"] == SECRET_ENV]
    assert "value" not in env, "the cookie secret must not be written into the manifest"
    assert env["valueFrom"]["secretKeyRef"]["name"]
    assert "Secret" not in k8s


def test_replicas_share_the_poll_store_in_redis(k8s: dict[str, dict[str, Any]]) -> None:
    """The app names LNVIZ_REDIS_URL, whose host and port are the redis Service's, which
    selects the redis pods (and only them) on the container's port."""
    [env] = [e for e in container(k8s)["env"] if e["name"] == REDIS_URL_ENV]
    url = urllib.parse.urlsplit(env["value"])
    service, redis = k8s[f"Service/{REDIS}"], k8s[f"Deployment/{REDIS}"]
    assert url.scheme == "redis" and url.hostname == service["metadata"]["name"] == REDIS
    [svc_port] = [p for p in service["spec"]["ports"] if p["port"] == url.port]
    [redis_container] = redis["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in redis_container["ports"]}
    assert ports[svc_port["targetPort"]] == 6379
    redis_labels = redis["spec"]["template"]["metadata"]["labels"]
    web_labels = k8s["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= redis_labels.items()
    assert redis["spec"]["selector"]["matchLabels"].items() <= redis_labels.items()
    assert not service["spec"]["selector"].items() <= web_labels.items()
    assert not k8s["Service"]["spec"]["selector"].items() <= redis_labels.items()
    assert redis["spec"]["replicas"] == 1, "one store: two would be two polls"
    args = redis_container["args"]
    assert args[args.index("--save") + 1] == "" and args[args.index("--appendonly") + 1] == "no"


def test_only_the_app_reaches_redis_and_redis_runs_unprivileged(
    k8s: dict[str, dict[str, Any]],
) -> None:
    policy, redis = k8s[f"NetworkPolicy/{REDIS}"], k8s[f"Deployment/{REDIS}"]
    redis_labels = redis["spec"]["template"]["metadata"]["labels"]
    web_labels = k8s["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert policy["spec"]["podSelector"]["matchLabels"].items() <= redis_labels.items()
    [rule] = policy["spec"]["ingress"]
    [source] = rule["from"]
    assert source["podSelector"]["matchLabels"].items() <= web_labels.items()
    assert [p["port"] for p in rule["ports"]] == ["redis"]
    pod = redis["spec"]["template"]["spec"]
    [c] = pod["containers"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    assert c["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert c["resources"]["limits"]["memory"]


def test_local_replicas_get_the_redis_url_when_given() -> None:
    base = {"PATH": "/bin", REDIS_URL_ENV: "redis://inherited:6379/0"}
    env = replicas.replica_env("s" * 64, None, base)
    assert env[SECRET_ENV] == "s" * 64 and env[REDIS_URL_ENV] == "redis://inherited:6379/0"
    env = replicas.replica_env("s" * 64, "redis://127.0.0.1:6390/0", base)
    assert env[REDIS_URL_ENV] == "redis://127.0.0.1:6390/0" and env["PATH"] == "/bin"
    assert REDIS_URL_ENV not in replicas.replica_env("s", None, {"PATH": "/bin"})
    args = replicas.parser().parse_args(["--redis-url", "redis://127.0.0.1:6390/0"])
    assert args.redis_url == "redis://127.0.0.1:6390/0"
    assert replicas.parser().parse_args([]).redis_url is None


def test_no_secret_is_committed() -> None:
    for path in [*ROOT.joinpath("deploy").rglob("*"), DOCKERIGNORE]:
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_text(errors="replace")
            assert not re.search(r"\b[0-9a-f]{48,}\b", text), f"a key-like string in {path}"
            assert "cookieSecret =" not in text, path
    assert "cookieSecret" not in (ROOT / ".streamlit" / "config.toml").read_text()


# --------------------------------------------------------------------------- Docker


@dataclass
class Instruction:
    name: str
    args: str
    words: list[str] = field(default_factory=list)


def dockerfile() -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    lines: list[str] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continuation"
    out = []
    for line in lines:
        name, _, args = line.partition(" ")
        out.append(Instruction(name.upper(), args.strip()))
    return out


def exec_form(args: str) -> list[str]:
    assert args.startswith("["), f"not the exec form: {args}"
    words = yaml.safe_load(args)  # a JSON array is YAML
    assert isinstance(words, list)
    return [str(w) for w in words]


def dockerfile_uid() -> int:
    [user] = [i.args for i in dockerfile() if i.name == "USER"]
    uid = user.split(":")[0]
    assert uid.isdigit(), "USER numeric, so that runAsNonRoot can check it"
    return int(uid)


def test_image_is_slim_python_311_and_runs_as_a_user() -> None:
    steps = dockerfile()
    assert steps[0].name == "FROM" and steps[0].args == "python:3.11-slim"
    assert dockerfile_uid() not in (0,)
    assert [i.name for i in steps].index("USER") > max(
        n for n, i in enumerate(steps) if i.name in ("RUN", "COPY")
    ), "every RUN and COPY before USER: the app files stay root's, read-only"
    [useradd] = [i.args for i in steps if i.name == "RUN" and "useradd" in i.args]
    assert f"--uid {dockerfile_uid()}" in useradd


def test_image_installs_the_runtime_requirements_only() -> None:
    steps = dockerfile()
    installs = [i.args for i in steps if i.name == "RUN" and "pip install" in i.args]
    assert installs == ["pip install --no-cache-dir -r requirements.txt"]
    sources = set()
    for i in steps:
        if i.name == "COPY":
            *src, _dest = shlex.split(i.args)
            sources.update(s.rstrip("/") for s in src)
    assert sources == {"requirements.txt", "app.py", "pages", "lnviz", ".streamlit"}
    for src in sources:
        assert (ROOT / src).exists(), src
        assert not ignored(src), f"{src} is copied but .dockerignore drops it"


def test_image_serves_on_8501_with_a_stdlib_healthcheck() -> None:
    steps = dockerfile()
    assert [i.args for i in steps if i.name == "EXPOSE"] == [str(PORT)]
    [health] = [i.args for i in steps if i.name == "HEALTHCHECK"]
    command = exec_form(health[health.index("CMD") + 3 :].strip())
    assert command[:2] == ["python", "-c"]
    assert f"http://127.0.0.1:{PORT}{HEALTH}" in command[2] and "urllib" in command[2]
    compile(command[2], "<healthcheck>", "exec")
    [cmd] = [i.args for i in steps if i.name == "CMD"]
    assert exec_form(cmd) == [
        "streamlit",
        "run",
        "app.py",
        "--server.address",
        "0.0.0.0",
        "--server.port",
        str(PORT),
    ]


def dockerignore_patterns() -> list[str]:
    return [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def ignored(path: str) -> bool:
    """Whether a top-level path (or anything under it) is excluded (no `!` rules here)."""
    head = path.split("/")[0]
    return any(p.removeprefix("**/") in (path, head) for p in dockerignore_patterns())


def test_dockerignore_keeps_tests_history_and_caches_out() -> None:
    patterns = dockerignore_patterns()
    assert not [p for p in patterns if p.startswith("!")]
    for path in (".git", "tests", "artifacts", ".venv", "venv", ".pytest_cache", ".hypothesis"):
        assert ignored(path), path
    assert "**/__pycache__" in patterns
    assert ".streamlit/secrets.toml" in patterns


# --------------------------------------------------------------------------- nginx


def blocks(text: str) -> list[Any]:
    """nginx config as nested lists: a directive is a list of words, a block is
    (words, [children]). Comments dropped; quoted strings kept whole.

    >>> blocks('a 1; b x { c "d e"; }  # note')
    [['a', '1'], (['b', 'x'], [['c', '"d e"']])]
    """
    tokens = re.findall(r'"[^"]*"|[{};]|[^\s{};"]+', re.sub(r"#[^\n]*", "", text))
    stack: list[list[Any]] = [[]]
    words: list[str] = []
    for tok in tokens:
        if tok == ";":
            stack[-1].append(words)
            words = []
        elif tok == "{":
            child: list[Any] = []
            stack[-1].append((words, child))
            stack.append(child)
            words = []
        elif tok == "}":
            assert not words, f"unterminated directive {words}"
            stack.pop()
        else:
            words.append(tok)
    assert len(stack) == 1 and not words, "unbalanced braces"
    return stack[0]


def find(tree: list[Any], *head: str) -> Iterator[Any]:
    """Directives (lists) and blocks (tuples) whose first words are `head`."""
    for node in tree:
        words = node[0] if isinstance(node, tuple) else node
        if tuple(words[: len(head)]) == head:
            yield node


def one_block(tree: list[Any], *head: str) -> list[Any]:
    [block] = [n for n in find(tree, *head) if isinstance(n, tuple)]
    return block[1]


def values(tree: list[Any], name: str) -> list[list[str]]:
    return [n[1:] for n in find(tree, name) if isinstance(n, list)]


SERVERS = ["127.0.0.1:9101", "127.0.0.1:9102", "127.0.0.1:9103"]


@pytest.fixture(scope="module")
def site() -> list[Any]:
    return blocks(replicas.render_site("127.0.0.1:9100", SERVERS, "/tmp/a.log lnviz_upstream"))


def test_template_fills_every_placeholder_and_nothing_else() -> None:
    text = replicas.render_site("8080", SERVERS, "off", upstream_header=False)
    config = re.sub(r"#[^\n]*", "", text)  # the comments name the placeholders
    assert "${" not in config and "LNVIZ_" not in config
    assert replicas.UPSTREAM_HEADER not in config
    with pytest.raises(ValueError, match="LNVIZ_LISTEN"):
        replicas.render_template(replicas.TEMPLATE.read_text(), {})
    with pytest.raises(ValueError, match="LNVIZ_EXTRA"):
        replicas.render_template("${LNVIZ_LISTEN}", {"LNVIZ_LISTEN": "1", "LNVIZ_EXTRA": "2"})


def test_newcomers_take_every_replica_in_turn(site: list[Any]) -> None:
    upstream = one_block(site, "upstream", "lnviz")
    assert not values(upstream, "hash"), "round robin: a class arriving at once splits evenly"
    assert values(upstream, "zone"), "the turn is shared by nginx's workers"
    servers = values(upstream, "server")
    assert [s[0] for s in servers] == SERVERS
    for s in servers:
        options = dict(o.split("=") for o in s[1:])
        assert int(options["max_fails"]) >= 1 and options["fail_timeout"].endswith("s")


def test_each_route_prefers_its_replica_and_backs_up_on_the_others(site: list[Any]) -> None:
    for i, address in enumerate(SERVERS):
        upstream = one_block(site, "upstream", f"lnviz_{replicas.route(i)}")
        servers = values(upstream, "server")
        assert servers[0][0] == address and "backup" not in servers[0]
        assert sorted(s[0] for s in servers[1:]) == sorted(set(SERVERS) - {address})
        assert all(s[-1] == "backup" for s in servers[1:])


def test_idle_upstream_connections_close_before_the_replica_closes_them(
    site: list[Any],
) -> None:
    import uvicorn

    replica_idle_s = uvicorn.Config(app="x").timeout_keep_alive  # what Streamlit runs with
    names = ["lnviz"] + [f"lnviz_{replicas.route(i)}" for i in range(len(SERVERS))]
    for name in names:
        [[timeout]] = values(one_block(site, "upstream", name), "keepalive_timeout")
        assert timeout.endswith("s") and int(timeout[:-1]) < replica_idle_s, name


def map_entries(site: list[Any], source: str, target: str) -> dict[str, str]:
    return {k.strip('"'): v.strip('"') for k, v in one_block(site, "map", source, target)}


def test_the_route_cookie_picks_an_upstream_and_nothing_else(site: list[Any]) -> None:
    routes = map_entries(site, "$cookie_lnviz_replica", "$lnviz_upstream")
    assert routes == {"default": "lnviz"} | {
        replicas.route(i): f"lnviz_{replicas.route(i)}" for i in range(len(SERVERS))
    }
    server = one_block(site, "server")
    for location in ("/_stcore/stream", "/"):
        assert values(one_block(server, "location", location), "proxy_pass") == [
            ["http://$lnviz_upstream"]
        ]


def test_the_cookie_is_set_to_the_replica_that_answered_when_it_names_another(
    site: list[Any],
) -> None:
    answered = map_entries(site, "$upstream_addr", "$lnviz_answered")
    assert answered.pop("default") == ""

    def route_of(upstream_addr: str) -> str:  # as nginx's map: the first regex that matches
        hits = [r for pattern, r in answered.items() if re.search(pattern[1:], upstream_addr)]
        return hits[0] if hits else ""

    assert [route_of(a) for a in SERVERS] == [replicas.route(i) for i in range(len(SERVERS))]
    assert route_of(f"{SERVERS[0]}, {SERVERS[2]}") == replicas.route(2), "the last one tried"
    assert route_of(SERVERS[0] + "1") == "" and route_of("10.0.0.1:9101") == ""

    cookie = map_entries(site, '"$cookie_lnviz_replica:$lnviz_answered"', "$lnviz_set_cookie")
    assert cookie.pop("default") == "lnviz_replica=$lnviz_answered; Path=/; HttpOnly; SameSite=Lax"
    assert cookie.pop("~:$") == "", "no replica answered: no cookie"
    assert cookie == {f"{r}:{r}": "" for r in map(replicas.route, range(len(SERVERS)))}
    server = one_block(site, "server")
    assert ["Set-Cookie", "$lnviz_set_cookie", "always"] in values(server, "add_header")
    for _, children in (n for n in find(server, "location") if isinstance(n, tuple)):
        assert not values(children, "add_header"), "a location's add_header drops Set-Cookie"


def test_websocket_upgrade_and_long_timeouts(site: list[Any]) -> None:
    upgrade = one_block(site, "map", "$http_upgrade", "$connection_upgrade")
    assert ["default", "upgrade"] in upgrade
    server = one_block(site, "server")
    headers = {h[0]: h[1] for h in values(server, "proxy_set_header")}
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$connection_upgrade"
    assert headers["Host"] == "$http_host", "Streamlit compares the Origin with Host:port"
    for forwarded in ("X-Forwarded-For", "X-Forwarded-Proto", "X-Real-IP"):
        assert forwarded in headers
    assert values(server, "proxy_http_version") == [["1.1"]]
    assert values(server, "proxy_next_upstream") == [["error", "timeout"]]
    stream = one_block(server, "location", "/_stcore/stream")
    assert values(stream, "proxy_buffering") == [["off"]]
    assert values(stream, "proxy_read_timeout") == [["1h"]]
    assert values(stream, "proxy_send_timeout") == [["1h"]]


def test_upstream_header_only_when_asked() -> None:
    def header_lines(upstream_header: bool) -> list[list[str]]:
        text = replicas.render_site("1", SERVERS, "off", upstream_header=upstream_header)
        server = one_block(blocks(text), "server")
        return [h for h in values(server, "add_header") if h[0] == replicas.UPSTREAM_HEADER]

    assert header_lines(True) == [[replicas.UPSTREAM_HEADER, "$upstream_addr", "always"]]
    assert header_lines(False) == []


def test_nginx_accepts_the_rendered_config(tmp_path: Path) -> None:
    nginx = require_tool(shutil.which("nginx") or "/usr/sbin/nginx")
    conf = replicas.write_nginx_conf(tmp_path, 9100, SERVERS)
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr
    main = blocks(conf.read_text())
    assert all(str(tmp_path) in v[0] for v in values(main, "pid") + values(main, "error_log"))
    http = one_block(main, "http")
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        [[path]] = values(http, f"{kind}_temp_path")
        assert path.startswith(str(tmp_path)), kind


def test_replicas_module_doctests() -> None:
    import doctest

    result = doctest.testmod(replicas, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 2 and result.failed == 0, result
