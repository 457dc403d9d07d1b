"""Rules calls are balanced over every replica of a title's rules service, and a replica going away
mid-run costs no call and no move (retries of the pure RulesService calls, `live.balancing`)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from grpc_health.v1 import health, health_pb2

from live.balancing import RULES_SERVICE, target
from live.rules import RulesDirectory
from live.settings import Settings
from services.common.server import create_server
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game
from tests.gateway.test_resilience import acting_client
from tests.titles import GAME, TITLE

REPLICAS = 3
CALLS = 300  # rules calls in one batch


class CallCounter(grpc.ServerInterceptor):
    """Counts the RulesService calls its server takes."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        if details.method.startswith(f"/{RULES_SERVICE}/"):
            with self.lock:
                self.calls += 1
        return continuation(details)


@dataclass
class Replica:
    server: grpc.Server
    address: str
    counter: CallCounter
    health: health.HealthServicer


@pytest.fixture
def replicas() -> Iterator[list[Replica]]:
    """Three replicas of the rules service of the registry's first game, on free ports."""
    started = []
    for _ in range(REPLICAS):
        counter, health_servicer = CallCounter(), health.HealthServicer()
        server, port = create_server(
            "127.0.0.1:0", GAME, interceptors=[counter], health_servicer=health_servicer
        )
        server.start()
        started.append(Replica(server, f"127.0.0.1:{port}", counter, health_servicer))
    yield started
    for replica in started:
        replica.server.stop(0).wait()


def calls(replicas: list[Replica], since: list[int] | None = None) -> list[int]:
    """RulesService calls each replica took (since the counts `since`)."""
    return [replica.counter.calls - (since[i] if since else 0) for i, replica in enumerate(replicas)]


def play_moves(gateway: GatewayProcess, clients: list[Client], count: int) -> None:
    """Make `count` moves through the gateway (each the acting seat's first legal action), starting a
    new game whenever one ends; a move that fails raises."""
    game_id = new_game(gateway, TITLE, clients)
    for _ in range(count):
        actor, view = acting_client(clients, game_id)
        if view.status == gateway_pb2.GAME_STATUS_FINISHED:
            game_id = new_game(gateway, TITLE, clients)
            actor, view = acting_client(clients, game_id)
        response = actor.games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=view.legal_actions[0].action,
                expected_version=view.version,
                request_id=uuid.uuid4().hex,
            ),
            metadata=actor.auth,
        )
        assert response.version == view.version + 1


def test_every_replica_serves_the_gateway_and_a_stopped_one_costs_no_move(
    redis_url: str, replicas: list[Replica]
) -> None:
    addresses = tuple(replica.address for replica in replicas)
    settings = gateway_settings(redis_url, {}, rules_addresses=addresses)
    with GatewayProcess(settings) as gateway:
        connected = calls(replicas)  # the GetGameInfo each address was asked when connecting
        clients = [Client(patient_channel(gateway.address)) for _ in range(GAME.info.min_players)]
        for seat, client in enumerate(clients):
            client.sign_in_as_guest(f"player {seat}")
        play_moves(gateway, clients, 30)
        before = calls(replicas, connected)
        print("calls per replica for 30 moves:", before)
        assert all(before), f"every replica serves rules calls (calls per replica: {before})"

        stopping = threading.Timer(0.05, lambda: replicas[0].server.stop(0))
        stopping.start()
        play_moves(gateway, clients, 30)  # no move fails while and after a replica stops
        stopping.join()
        after = calls(replicas, connected)
        print("and after 30 more, one replica stopped early on:", after)
        assert after[1] > before[1] and after[2] > before[2], (before, after)
        for client in clients:
            client.channel.close()


def test_directory_balances_calls_in_flight_and_retries_a_replica_that_stops(
    replicas: list[Replica],
) -> None:
    async def run() -> tuple[list[int], list[int], list[int]]:
        directory = RulesDirectory(Settings().rules_timeout_seconds)
        await directory.connect(tuple(replica.address for replica in replicas))
        title = directory.get(TITLE)
        request = rules_pb2.GetGameInfoRequest()
        try:
            # the first batch may all go to the first replica ready; the next, to all of them
            await asyncio.gather(*(title.call("GetGameInfo", request) for _ in range(CALLS)))
            warm = calls(replicas)
            await asyncio.gather(*(title.call("GetGameInfo", request) for _ in range(CALLS)))
            before = calls(replicas, warm)
            warm = calls(replicas)
            in_flight = asyncio.gather(*(title.call("GetGameInfo", request) for _ in range(CALLS)))
            await asyncio.sleep(0.01)
            replicas[0].server.stop(0)  # the calls on their way to it are retried on the others
            await in_flight  # a call that failed would raise
            during = calls(replicas, warm)
            await asyncio.gather(*(title.call("GetGameInfo", request) for _ in range(CALLS)))
            return before, during, calls(replicas, warm)
        finally:
            await directory.close()

    before, during, after = asyncio.run(run())
    print(f"calls per replica of {CALLS}: before a stop {before}, then (cumulated) {during}, {after}")
    assert all(before), f"every replica serves calls: {before}"
    assert after[0] == during[0], "a stopped replica gets no more calls"
    assert sum(after[1:]) - sum(during[1:]) == CALLS


def test_a_replica_not_serving_by_its_health_gets_no_calls(replicas: list[Replica]) -> None:
    replicas[0].health.set(RULES_SERVICE, health_pb2.HealthCheckResponse.NOT_SERVING)

    async def run() -> list[int]:
        directory = RulesDirectory(Settings().rules_timeout_seconds)
        await directory.connect((*(replica.address for replica in replicas[1:]), replicas[0].address))
        connected = calls(replicas)
        title = directory.get(TITLE)
        try:
            for _ in range(3):
                await asyncio.gather(
                    *(title.call("GetGameInfo", rules_pb2.GetGameInfoRequest()) for _ in range(CALLS))
                )
            return calls(replicas, connected)
        finally:
            await directory.close()

    served = asyncio.run(run())
    print(f"calls per replica of {3 * CALLS}, the first one not serving: {served}")
    assert served[0] == 0 and all(served[1:]), served


def test_a_title_listed_several_times_is_one_target() -> None:
    assert target("t", ["rules:50051"]) == "rules:50051"
    assert target("t", ["dns:///rules:50051"]) == "dns:///rules:50051"
    assert target("t", ["127.0.0.1:5001", "127.0.0.1:5002", "127.0.0.1:5001"]) == (
        "ipv4:127.0.0.1:5001,127.0.0.1:5002"
    )
    assert target("t", ["[::1]:5001", "[::1]:5002"]) == "ipv6:[::1]:5001,[::1]:5002"
    for mixed in (["rules-a:50051", "rules-b:50051"], ["127.0.0.1:5001", "[::1]:5002"]):
        with pytest.raises(ValueError, match="dns:///"):
            target("t", mixed)
