"""Fixtures of the fuzz tests: one redis-server, every rules service on its own port and one gateway,
all real, shared by the fuzz tests and stopped after them (so that no call of theirs is still being
counted in the process's metrics when other tests read them); and the table of what the requests got,
printed at the end of the run."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy.throwaway import redis_server, rules_servers
from tests.fuzz.outcomes import TALLY
from tests.fuzz.players import Player
from tests.fuzz.volume import PROFILE
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings

PLAYERS = 8  # guests of the fuzz: more than any title's seats


@pytest.fixture(scope="package")
def fuzz_redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="package")
def fuzz_redis(fuzz_redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(fuzz_redis_url)
    yield client
    client.close()


@pytest.fixture(scope="package")
def fuzz_rules() -> Iterator[dict[str, str]]:
    """Title -> address of its rules service."""
    with rules_servers() as addresses:
        yield addresses


@pytest.fixture(scope="package")
def fuzz_rules_channels(fuzz_rules: dict[str, str]) -> Iterator[dict[str, grpc.Channel]]:
    """Title -> a channel to its rules service, which must still serve once the fuzz is over."""
    channels = {title: grpc.insecure_channel(address) for title, address in fuzz_rules.items()}
    yield channels
    for channel in channels.values():
        assert_serving(channel)
        channel.close()


@pytest.fixture(scope="package")
def fuzz_gateway(fuzz_redis_url: str, fuzz_rules: dict[str, str]) -> Iterator[GatewayProcess]:
    """The gateway, which must still serve once the fuzz is over."""
    with GatewayProcess(gateway_settings(fuzz_redis_url, fuzz_rules)) as process:
        yield process
        with grpc.insecure_channel(process.address) as channel:
            assert_serving(channel)


def assert_serving(channel: grpc.Channel) -> None:
    """The server behind `channel` says it serves (gRPC health), so the fuzz crashed nothing."""
    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The requests the fuzz tests sent, per kind, and what they got."""
    if not TALLY.total:
        return
    terminalreporter.section(f"fuzz: {TALLY.total} requests ({PROFILE} profile)")
    for row in TALLY.rows():
        terminalreporter.write_line(row)


@pytest.fixture(scope="package")
def fuzz_players(fuzz_gateway: GatewayProcess) -> Iterator[list[Player]]:
    """Guests signed in on the session's gateway, each on its own channel that waits out rate limits
    as the docs ask of clients: enough to seat any game with some left over as spectators."""
    players = []
    for index in range(PLAYERS):
        client = Client(patient_channel(fuzz_gateway.address))
        session = client.sign_in_as_guest(f"fuzzer {index}")
        players.append(Player(client, session.player))
    yield players
    for player in players:
        player.client.channel.close()
