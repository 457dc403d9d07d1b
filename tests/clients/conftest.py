"""Fixtures for the client tests: a real redis-server, every rules service and a real gateway, shared
by the tests of this folder (the same parts the gateway tests use)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from deploy.throwaway import redis_server, rules_servers, start_worker_process, stop_worker_process
from tests.deploy import facts
from tests.gateway.support import Client, GatewayProcess, gateway_settings


@pytest.fixture(scope="package")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="package")
def gateway(redis_url: str) -> Iterator[GatewayProcess]:
    with rules_servers() as rules, GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process


@pytest.fixture(scope="package")
def worker(gateway: GatewayProcess) -> Iterator[None]:
    """A worker (`python -m workers`, as `make run` and the deployments start it) on the gateway's Redis."""
    process = start_worker_process(
        gateway.settings.redis_url,
        ",".join(gateway.settings.rules_addresses),
        {"CELERY_BROKER_URL": gateway.settings.redis_url},
        quiet=False,
    )
    try:
        yield
    finally:
        stop_worker_process(process)


@dataclass
class Bg:
    """Runs `bg` as a process with its own session folder, as a person at a terminal would."""

    home: Path
    address: str

    def __call__(self, *args: str, stdin: str = "", timeout: float = 300) -> tuple[int, str, str]:
        """Run `bg ARGS...` with some standard input; (exit code, output, errors)."""
        env = {**os.environ, "BG_HOME": str(self.home), "BG_GATEWAY": self.address}
        result = subprocess.run(
            [sys.executable, "-m", "cli", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=facts.ROOT,
            timeout=timeout,
        )
        return result.returncode, result.stdout, result.stderr

    def api(self, channel: grpc.Channel) -> Client:
        """A gateway client signed in with the session `bg` saved, to check what it did."""
        token = json.loads((self.home / "session.json").read_text())["token"]
        return Client(channel, token)


@pytest.fixture
def bg(tmp_path: Path, gateway: GatewayProcess) -> Bg:
    """`bg` against the package's gateway."""
    return Bg(tmp_path / "bg", gateway.address)


@pytest.fixture
def channel(gateway: GatewayProcess) -> Iterator[grpc.Channel]:
    """A channel to the package's gateway."""
    with grpc.insecure_channel(gateway.address) as opened:
        yield opened
