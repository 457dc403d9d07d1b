"""Fixtures for the client tests: a real redis-server, every rules service and a real gateway, shared
by the tests of this folder (the same parts the gateway tests use)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.deploy import facts
from tests.gateway.support import GatewayProcess, gateway_settings, redis_server, rules_servers


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
    env = {
        **os.environ,
        "REDIS_URL": gateway.settings.redis_url,
        "CELERY_BROKER_URL": gateway.settings.redis_url,
        "RULES_ADDRESSES": ",".join(gateway.settings.rules_addresses),
        "WORKER_CONCURRENCY": "1",
        "WORKER_BEAT": "0",
        "METRICS_PORT": "off",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "workers", "--loglevel=WARNING"],
        env=env,
        cwd=facts.ROOT,
    )
    try:
        yield
    finally:
        process.terminate()
        process.wait(30)
