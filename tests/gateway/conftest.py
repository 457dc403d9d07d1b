"""Fixtures: one Redis (a node, or a Cluster for the modules that run on both: `tests.redis_modes`),
every rules service and one gateway for the whole gateway test session."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from deploy.throwaway import rules_servers
from tests import redis_modes
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings

# The modes' hook and the session's `redis_mode` fixture, shared by every suite that runs on both.
pytest_generate_tests, redis_mode = redis_modes.pytest_generate_tests, redis_modes.redis_mode


@pytest.fixture(scope="session")
def redis_url(redis_mode: str) -> Iterator[str]:
    with redis_modes.throwaway(redis_mode) as url:
        yield url


@pytest.fixture(scope="session")
def rules() -> Iterator[dict[str, str]]:
    with rules_servers() as addresses:
        yield addresses


@pytest.fixture(scope="session")
def gateway(redis_url: str, rules: dict[str, str]) -> Iterator[GatewayProcess]:
    with GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process


@pytest.fixture
def client(gateway: GatewayProcess) -> Iterator[Client]:
    """A fresh, signed-out client of the session's gateway (waiting out rate limits, as clients do)."""
    with patient_channel(gateway.address) as channel:
        yield Client(channel)


@pytest.fixture
def new_client(gateway: GatewayProcess) -> Iterator:  # type: ignore[type-arg]
    """A factory of signed-out clients (each on its own channel, waiting out rate limits)."""
    channels: list[grpc.Channel] = []

    def make() -> Client:
        channel = patient_channel(gateway.address)
        channels.append(channel)
        return Client(channel)

    yield make
    for channel in channels:
        channel.close()
