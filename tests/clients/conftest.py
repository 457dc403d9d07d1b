"""Fixtures for the client tests: a real redis-server, every rules service and a real gateway, shared
by the tests of this folder (the same parts the gateway tests use)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.throwaway import redis_server, rules_servers, start_worker_process, stop_worker_process
from tests.gateway.support import GatewayProcess, gateway_settings


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
        {"CELERY_BROKER_URL": gateway.settings.redis_url, "WORKER_BEAT": "0"},
        quiet=False,
    )
    try:
        yield
    finally:
        stop_worker_process(process)
