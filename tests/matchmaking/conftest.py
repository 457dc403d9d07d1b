"""Fixtures: one Redis (a node, or a Cluster: `tests.redis_modes`), every rules service, and two gateway
processes (`python -m gateway`) on it, so that searches meet across replicas."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.throwaway import (
    free_port,
    gateway_serving,
    rules_servers,
    start_gateway_process,
    stop_worker_process,
)
from tests import redis_modes

# The modes' hook and the session's `redis_mode` fixture, shared by every suite that runs on both.
pytest_generate_tests, redis_mode = redis_modes.pytest_generate_tests, redis_modes.redis_mode

GATEWAYS = 2


@pytest.fixture(scope="module")
def redis_url(redis_mode: str) -> Iterator[str]:
    """A fresh Redis per module: no module meets another's queues."""
    with redis_modes.throwaway(redis_mode) as url:
        yield url


@pytest.fixture(scope="module")
def rules() -> Iterator[dict[str, str]]:
    with rules_servers() as addresses:
        yield addresses


@pytest.fixture(scope="module")
def gateways(redis_url: str, rules: dict[str, str]) -> Iterator[list[str]]:
    ports = [free_port() for _ in range(GATEWAYS)]
    broker = {"CELERY_BROKER_URL": redis_modes.broker_of(redis_url)}
    processes = [start_gateway_process(redis_url, ",".join(rules.values()), port, broker) for port in ports]
    addresses = [f"127.0.0.1:{port}" for port in ports]
    try:
        for process, address in zip(processes, addresses, strict=True):
            gateway_serving(process, address)
        yield addresses
    finally:
        for process in processes:
            stop_worker_process(process)
