"""Throwaway parts of the backend on this machine, on free ports, for tests and benchmarks: a
redis-server with the persistence a user gets (an AOF in a temporary folder, fsynced as
`deploy.durability` says), a Redis Cluster of three primaries and three replicas (without
persistence), a PostgreSQL server, every registered game's rules service in this process, and
`python -m workers` as a child process. Each cleans up after itself."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import redis

from deploy import durability, ports, postgres, probe, programs
from live.settings import RedisTls
from services.common import registry
from services.common.server import create_server as create_rules_server

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port nobody listens on right now (`deploy.ports.free_run`)."""
    return ports.free_run(1)


@contextlib.contextmanager
def redis_server(tls: RedisTls | None = None, fsync: str | None = None) -> Iterator[str]:
    """A throwaway redis-server (installed first if missing, as `make test` does); yields its URL. Its
    AOF is fsynced by `fsync` (always or everysec; default: REDIS_APPENDFSYNC's, as `make run`).
    With `tls`, it speaks TLS only (its certificate and CA are the ones named, and it asks clients for
    theirs) and the URL is rediss://."""
    notes: list[str] = []
    binary = programs.installed("redis-server", os.environ, notes)
    if binary is None:
        raise RuntimeError(programs.missing_hint("redis-server"))
    port = free_port()
    listen = ["--port", str(port)]
    if tls is not None:
        listen = ["--port", "0", "--tls-port", str(port), "--tls-cert-file", tls.cert_file]
        listen += ["--tls-key-file", tls.key_file, "--tls-ca-cert-file", tls.ca_file]
    url = f"{'rediss' if tls else 'redis'}://127.0.0.1:{port}/0"
    policy = fsync or durability.appendfsync(os.environ)
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [binary, *listen, "--bind", "127.0.0.1", "--dir", data, *durability.persistence_args(policy)],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(url, **(tls.options(url) if tls else {}))
        try:
            for _ in range(200):
                with contextlib.suppress(redis.ConnectionError):
                    if client.ping():
                        break
                time.sleep(0.02)
            yield url
        finally:
            client.close()
            process.terminate()
            process.wait(10)


CLUSTER_PRIMARIES = 3
CLUSTER_REPLICAS_PER_PRIMARY = 1
# How long a Cluster's nodes wait before they call an unanswering primary failed and promote its
# replica (Redis's default is 15 s; a throwaway cluster on loopback decides within about 2 s).
CLUSTER_NODE_TIMEOUT_MS = 1000
CLUSTER_BUS_OFFSET = 10000  # a node's cluster bus listens this far above its port
CLUSTER_START_SECONDS = 30  # six redis-servers answer within a second; this is slack for a loaded machine
CLUSTER_START_TRIES = 3  # a node whose port another process took first exits: the nodes start on others


@dataclass
class ThrowawayCluster:
    """A running throwaway Redis Cluster: its URL (redis+cluster://, naming one node) and its nodes'
    processes by port."""

    url: str
    nodes: dict[int, subprocess.Popen[bytes]]

    def client(self) -> redis.RedisCluster:
        """A cluster client starting from a node still running (close it after use)."""
        return redis.RedisCluster(host="127.0.0.1", port=self.alive()[0])

    def primary_of(self, key: str) -> int:
        """The port of the primary that holds `key`'s slot now."""
        with self.client() as client:
            return int(client.get_node_from_key(key).port)

    def alive(self) -> list[int]:
        """The ports of the nodes still running."""
        return [port for port, process in self.nodes.items() if process.poll() is None]

    def kill(self, port: int) -> None:
        """Kill the node on `port` outright (SIGKILL), as a crashed machine would stop."""
        self.nodes[port].kill()
        self.nodes[port].wait(10)

    def healthy(self) -> bool:
        """Whether every running node says the cluster is ok (every slot served by a primary) and every
        replica is in sync with its primary (a replica that never synced cannot take over)."""
        for port in self.alive():
            with contextlib.suppress(redis.RedisError), _node(port) as node:
                info = node.execute_command("CLUSTER", "INFO")
                replication = node.info("replication")
                synced = replication["role"] == "master" or replication.get("master_link_status") == "up"
                if b"cluster_state:ok" in info and synced:
                    continue
            return False
        return True


def _wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the throwaway Redis Cluster: timed out waiting for {what}")
        time.sleep(0.05)


def cluster_port() -> int:
    """A free port whose cluster bus port (10000 above it) is free too."""
    while True:
        port = free_port()
        if port + CLUSTER_BUS_OFFSET < 65536 and _free(port + CLUSTER_BUS_OFFSET):
            return port


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _node(port: int) -> redis.Redis:
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)


def _answers(port: int) -> bool:
    with contextlib.suppress(redis.RedisError), _node(port) as node:
        return bool(node.ping())
    return False


@contextlib.contextmanager
def redis_cluster() -> Iterator[ThrowawayCluster]:
    """A throwaway Redis Cluster on loopback: six redis-servers in cluster mode without persistence,
    joined by `redis-cli --cluster create` as three primaries with one replica each; yields it."""
    notes: list[str] = []
    binary = programs.installed("redis-server", os.environ, notes)
    cli = shutil.which("redis-cli")
    if binary is None or cli is None:
        raise RuntimeError(programs.missing_hint("redis-server"))
    with tempfile.TemporaryDirectory() as data:
        nodes: dict[int, subprocess.Popen[bytes]] = {}
        try:
            for attempt in range(1, CLUSTER_START_TRIES + 1):
                nodes = _start_nodes(binary, Path(data) / str(attempt))
                if _nodes_answer(nodes):
                    break
                _stop_nodes(nodes)  # a node lost its port to another process meanwhile: other ports
            else:
                raise RuntimeError(
                    f"the throwaway Redis Cluster: its nodes did not start in {CLUSTER_START_TRIES} tries"
                )
            node_ports = list(nodes)
            subprocess.run(
                [
                    cli,
                    "--cluster",
                    "create",
                    *(f"127.0.0.1:{port}" for port in node_ports),
                    "--cluster-replicas",
                    str(CLUSTER_REPLICAS_PER_PRIMARY),
                    "--cluster-yes",
                ],
                stdout=subprocess.DEVNULL,
                check=True,
            )
            cluster = ThrowawayCluster(f"redis+cluster://127.0.0.1:{node_ports[0]}", nodes)
            _wait_until(cluster.healthy, 30, "every node to see every slot served")
            yield cluster
        finally:
            _stop_nodes(nodes)


def _start_nodes(binary: str, data: Path) -> dict[int, subprocess.Popen[bytes]]:
    """The cluster's redis-servers in cluster mode without persistence, each on a free port whose bus
    port is free too, their data under `data`; by port."""
    count = CLUSTER_PRIMARIES * (1 + CLUSTER_REPLICAS_PER_PRIMARY)
    node_ports: list[int] = []
    while len(node_ports) < count:
        port = cluster_port()
        taken = {p + d for p in node_ports for d in (0, CLUSTER_BUS_OFFSET)}
        if not {port, port + CLUSTER_BUS_OFFSET} & taken:
            node_ports.append(port)
    nodes = {}
    for port in node_ports:
        node_dir = data / str(port)
        node_dir.mkdir(parents=True)
        nodes[port] = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(node_dir),
                "--cluster-enabled",
                "yes",
                "--cluster-node-timeout",
                str(CLUSTER_NODE_TIMEOUT_MS),
            ],
            stdout=subprocess.DEVNULL,
        )
    return nodes


def _nodes_answer(nodes: dict[int, subprocess.Popen[bytes]]) -> bool:
    """Whether every node answers within CLUSTER_START_SECONDS; False as soon as one has exited."""
    deadline = time.monotonic() + CLUSTER_START_SECONDS
    while not all(_answers(port) for port in nodes):
        if any(process.poll() is not None for process in nodes.values()):
            return False
        if time.monotonic() > deadline:
            raise RuntimeError("the throwaway Redis Cluster: timed out waiting for its nodes to start")
        time.sleep(0.05)
    return True


def _stop_nodes(nodes: dict[int, subprocess.Popen[bytes]]) -> None:
    for process in nodes.values():
        process.terminate()
    for process in nodes.values():
        process.wait(10)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL (installed first if missing) on a fresh data directory and a free
    loopback port, without durability; yields its DATABASE_URL."""
    notes: list[str] = []
    binary = programs.installed("postgres", os.environ, notes)
    if binary is None:
        raise RuntimeError(programs.missing_hint("postgres"))
    bin_dir, port = Path(binary).parent, free_port()
    with tempfile.TemporaryDirectory() as scratch:
        postgres.hand_over(Path(scratch))
        data = Path(scratch) / "data"
        postgres.init(bin_dir, data, durable=False)
        user = postgres.server_user()
        log = tempfile.TemporaryFile()  # noqa: SIM115 - read back (`_logged`) if the server fails to start
        process = subprocess.Popen(
            postgres.server_argv(bin_dir, data, "127.0.0.1", port, durable=False),
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=data,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
        )
        process.stderr = log
        url = postgres.url("127.0.0.1", port)
        try:
            for _ in range(500):
                if postgres.answers(url) or process.poll() is not None:
                    break
                time.sleep(0.02)
            if process.poll() is not None:
                raise RuntimeError(
                    f"postgres exited with code {process.returncode} while starting:\n{_logged(process)}"
                )
            yield url
        finally:
            process.send_signal(signal.SIGINT)  # a fast shutdown: open sessions are ended
            process.wait(30)
            log.close()


@contextlib.contextmanager
def rules_servers() -> Iterator[dict[str, str]]:
    """Every registered game's rules service on a free port; yields name -> address."""
    servers = []
    addresses = {}
    for name, game in registry.games().items():
        server, port = create_rules_server("127.0.0.1:0", game)
        server.start()
        servers.append(server)
        addresses[name] = f"127.0.0.1:{port}"
    try:
        yield addresses
    finally:
        for server in servers:
            server.stop(0)


def start_worker_process(
    redis_url: str,
    rules_addresses: str,
    env: Mapping[str, str] | None = None,
    quiet: bool = True,
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """`python -m workers` (as `make run` and the deployments start it) on this Redis and these rules
    services (comma-separated), one child process, no metrics, logging warnings and worse; `env` adds
    or overrides variables. It runs in its own session so `stop_worker_process` stops it whole; `quiet`
    discards its output, `log` takes it instead."""
    output = log if log is not None else subprocess.DEVNULL if quiet else None
    return subprocess.Popen(
        [sys.executable, "-m", "workers"],
        cwd=ROOT,
        env={
            **os.environ,
            "REDIS_URL": redis_url,
            "RULES_ADDRESSES": rules_addresses,
            "WORKER_CONCURRENCY": "1",
            "LOG_LEVEL": "WARNING",
            "METRICS_PORT": "off",
            "WEB_ADDRESS": f"127.0.0.1:{free_port()}",  # the browser listener, on a port of its own
            **(env or {}),
        },
        stdout=output,
        stderr=output,
        start_new_session=True,
    )


def start_rules_process(
    module: str, address: str, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`python -m <module>` (a title's rules service, as `make run` starts it) on `address`, no metrics,
    logging warnings and worse to a temporary file (`serving_or_failed` shows it when it fails to come
    up), in its own session (stop it with `stop_worker_process`); `env` adds or overrides variables."""
    return _logged_process(
        module, ROOT, {"RULES_ADDRESS": address, "LOG_LEVEL": "WARNING", "METRICS_PORT": "off", **(env or {})}
    )


def start_gateway_process(
    redis_url: str,
    rules_addresses: str,
    port: int,
    env: Mapping[str, str] | None = None,
    tree: Path = ROOT,
) -> subprocess.Popen[bytes]:
    """`python -m gateway` of `tree` (another checkout's gateway/ and live/ come first on its path) on
    127.0.0.1:`port`, this Redis and these rules services, no metrics, logging warnings and worse to
    a temporary file (`gateway_serving` shows it when the gateway fails to come up), in its own
    session (stop it with `stop_worker_process`)."""
    return _logged_process(
        "gateway",
        tree,
        {
            "REDIS_URL": redis_url,
            "RULES_ADDRESSES": rules_addresses,
            "GATEWAY_ADDRESS": f"127.0.0.1:{port}",
            "LOG_LEVEL": "WARNING",
            "METRICS_PORT": "off",
            "WEB_ADDRESS": f"127.0.0.1:{free_port()}",  # the browser listener, on a port of its own
            **(env or {}),
        },
    )


def _logged_process(module: str, tree: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """`python -m module` from `tree` with `env` added, its stderr in a temporary file (read back by
    `serving_or_failed`), in its own session."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - it lives as long as the process: its Popen holds it
    process = subprocess.Popen(
        [sys.executable, "-m", module],
        cwd=tree,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    process.stderr = log
    return process


GATEWAY_START_SECONDS = 120  # a cold start on a loaded two-core machine takes a few seconds; this is slack


def gateway_serving(
    process: subprocess.Popen[bytes], address: str, timeout: float = GATEWAY_START_SECONDS
) -> None:
    """Wait until the gateway `process` started by `start_gateway_process` serves at `address`; fail
    at once if it exits, or after `timeout` seconds, either way with what it logged."""
    serving_or_failed(process, address, "the gateway", timeout)


def serving_or_failed(
    process: subprocess.Popen[bytes], address: str, what: str, timeout: float = GATEWAY_START_SECONDS
) -> None:
    """Wait until `process` (started by `start_rules_process` or `start_gateway_process`) serves gRPC
    health at `address`; fail at once if it exits, or after `timeout` seconds, with what it logged."""
    deadline = time.monotonic() + timeout
    while not probe.serving(address):
        if process.poll() is not None or time.monotonic() > deadline:
            exited = process.returncode is not None
            state = f"exited with {process.returncode}" if exited else "is not serving"
            raise RuntimeError(f"{what} at {address} {state}; it logged:\n{_logged(process)}")
        time.sleep(0.05)


def _logged(process: subprocess.Popen[bytes]) -> str:
    log = process.stderr
    if log is None:
        return "(nothing kept)"
    log.seek(0)
    return log.read()[-4000:].decode(errors="replace") or "(nothing)"


def stop_worker_process(process: subprocess.Popen[bytes], signum: int = signal.SIGTERM) -> None:
    """Send `signum` to a worker process's whole process group (if it still runs) and wait for it."""
    if process.poll() is None:
        os.killpg(process.pid, signum)
    process.wait(30)
