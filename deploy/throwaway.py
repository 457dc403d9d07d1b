"""Throwaway parts of the backend on this machine, on free ports, for tests and benchmarks: a
redis-server without persistence, a PostgreSQL server, every registered game's rules service in this
process, and `python -m workers` as a child process. Each cleans up after itself."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import redis

from deploy import postgres, programs
from live.settings import RedisTls
from services.common import registry
from services.common.server import create_server as create_rules_server

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server(tls: RedisTls | None = None) -> Iterator[str]:
    """A throwaway redis-server (installed first if missing, as `make test` does); yields its URL.
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
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [binary, *listen, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", data],
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
        process = subprocess.Popen(
            postgres.server_argv(bin_dir, data, "127.0.0.1", port, durable=False),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=data,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
        )
        url = postgres.url("127.0.0.1", port)
        try:
            for _ in range(500):
                if postgres.answers(url) or process.poll() is not None:
                    break
                time.sleep(0.02)
            if process.poll() is not None:
                raise RuntimeError(f"postgres exited with code {process.returncode} while starting")
            yield url
        finally:
            process.send_signal(signal.SIGINT)  # a fast shutdown: open sessions are ended
            process.wait(30)


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
) -> subprocess.Popen[bytes]:
    """`python -m workers` (as `make run` and the deployments start it) on this Redis and these rules
    services (comma-separated), one child process, no metrics, logging warnings and worse; `env` adds
    or overrides variables. It runs in its own session so `stop_worker_process` stops it whole; `quiet`
    discards its output."""
    output = subprocess.DEVNULL if quiet else None
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
            **(env or {}),
        },
        stdout=output,
        stderr=output,
        start_new_session=True,
    )


def stop_worker_process(process: subprocess.Popen[bytes], signum: int = signal.SIGTERM) -> None:
    """Send `signum` to a worker process's whole process group (if it still runs) and wait for it."""
    if process.poll() is None:
        os.killpg(process.pid, signum)
    process.wait(30)
