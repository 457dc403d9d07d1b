"""Fixtures for the client tests: a real redis-server, every rules service and a real gateway, shared
by the tests of this folder (the same parts the gateway tests use)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.gateway.support import GatewayProcess, gateway_settings, redis_server, rules_servers


@pytest.fixture(scope="package")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="package")
def gateway(redis_url: str) -> Iterator[GatewayProcess]:
    with rules_servers() as rules, GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process
