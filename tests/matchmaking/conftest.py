"""Fixtures: one redis-server, every rules service, and two gateway processes (`python -m gateway`) on
it, so that searches meet across replicas."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.probe import serving
from deploy.throwaway import (
    free_port,
    redis_server,
    rules_servers,
    start_gateway_process,
    stop_worker_process,
)
from tests.workers.support import wait_for

GATEWAYS = 2


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="module")
def rules() -> Iterator[dict[str, str]]:
    with rules_servers() as addresses:
        yield addresses


@pytest.fixture(scope="module")
def gateways(redis_url: str, rules: dict[str, str]) -> Iterator[list[str]]:
    ports = [free_port() for _ in range(GATEWAYS)]
    processes = [start_gateway_process(redis_url, ",".join(rules.values()), port) for port in ports]
    addresses = [f"127.0.0.1:{port}" for port in ports]
    try:
        for address in addresses:
            wait_for(lambda address=address: serving(address), 60, f"the gateway at {address}")
        yield addresses
    finally:
        for process in processes:
            stop_worker_process(process)
