"""The gateway as operators run it: two replicas on one Redis behave as one; an outage of a rules
service or of Redis gives UNAVAILABLE and writes nothing; oversize requests are refused; metrics."""

from __future__ import annotations

import threading
import time
import uuid

import grpc
import prometheus_client
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import any_pb2

from deploy.throwaway import redis_server
from gateway.errors import _translate
from live import keys
from live.connection import sync_client
from services.common import registry
from services.common.server import create_server as create_rules_server
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game, signed_in

TITLE = sorted(registry.games())[0]


def clients_on(gateway: GatewayProcess, count: int) -> list[Client]:
    clients = [Client(grpc.insecure_channel(gateway.address)) for _ in range(count)]
    for i, client in enumerate(clients):
        client.sign_in_as_guest(f"p{i}")
    return clients


def acting_client(clients: list[Client], game_id: str) -> tuple[Client, gateway_pb2.GameView]:
    view = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[view.acting_seats[0]]
    return actor, actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game


def test_two_gateways_on_one_redis_behave_as_one(
    redis_url: str, rules: dict[str, str], gateway: GatewayProcess
) -> None:
    with GatewayProcess(gateway_settings(redis_url, rules)) as second:
        clients = clients_on(gateway, 3)
        game_id = new_game(gateway, TITLE, clients)
        watcher = Client(grpc.insecure_channel(second.address), token=clients[2].token)
        stream = watcher.games.WatchGame(gateway_pb2.WatchGameRequest(game_id=game_id), metadata=watcher.auth)
        assert next(stream).game.version == 0
        actor, view = acting_client(clients, game_id)
        on_second = Client(grpc.insecure_channel(second.address), token=actor.token)
        outcomes: list[str] = []
        barrier = threading.Barrier(2)

        def submit(client: Client, request_id: str) -> None:
            barrier.wait()
            try:
                client.games.SubmitAction(
                    gateway_pb2.SubmitActionRequest(
                        game_id=game_id,
                        action=view.legal_actions[0].action,
                        expected_version=0,
                        request_id=request_id,
                    ),
                    metadata=client.auth,
                )
                outcomes.append("ok")
            except grpc.RpcError as error:
                outcomes.append(error.code().name)

        threads = [threading.Thread(target=submit, args=(c, r)) for c, r in ((actor, "a"), (on_second, "b"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["ABORTED", "ok"]
        update = next(stream)
        assert update.game.version == 1 and update.events, (
            "a change made through one replica reaches the other's watcher"
        )
        stream.cancel()


def test_rules_service_outage_gives_unavailable_and_writes_nothing(redis_url: str) -> None:
    game = registry.get(TITLE)
    server, port = create_rules_server("127.0.0.1:0", game)
    server.start()
    with GatewayProcess(gateway_settings(redis_url, {TITLE: f"127.0.0.1:{port}"})) as gateway:
        clients = clients_on(gateway, 3)
        game_id = new_game(gateway, TITLE, clients)
        actor, view = acting_client(clients, game_id)
        server.stop(0).wait()
        with pytest.raises(grpc.RpcError) as caught:
            actor.games.SubmitAction(
                gateway_pb2.SubmitActionRequest(
                    game_id=game_id,
                    action=view.legal_actions[0].action,
                    expected_version=0,
                    request_id="down",
                ),
                metadata=actor.auth,
            )
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        store = sync_client(redis_url)
        assert store.get(keys.game_version(game_id)) == b"0"
        assert store.xlen(keys.game_log(game_id)) == 0
        assert not store.hexists(keys.game_requests(game_id), "down")


def test_redis_outage_gives_unavailable(rules: dict[str, str]) -> None:
    with redis_server() as url, GatewayProcess(gateway_settings(url, rules)) as gateway:
        client = clients_on(gateway, 1)[0]
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        redis.Redis(port=port).shutdown(nosave=True)
        with pytest.raises(grpc.RpcError) as caught:
            client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE


def test_oversize_request_is_refused(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    huge = any_pb2.Any(
        type_url="type.googleapis.com/x", value=b"x" * (gateway.settings.max_message_bytes + 1)
    )
    with pytest.raises(grpc.RpcError) as caught:
        clients[0].games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id, action=huge, expected_version=0, request_id="big"
            ),
            metadata=clients[0].auth,
        )
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def _sample(name: str, labels: dict[str, str]) -> float:
    return prometheus_client.REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_count_rpcs_moves_and_conflicts(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    labels = {
        "grpc_service": "boardgame.gateway.v1.GameService",
        "grpc_method": "SubmitAction",
        "grpc_code": "OK",
    }
    aborted = dict(labels, grpc_code="ABORTED")
    before = (
        _sample("grpc_server_handled_total", labels),
        _sample("grpc_server_handled_total", aborted),
        _sample("gateway_moves_applied_total", {"title": TITLE}),
        _sample("gateway_write_conflicts_total", {"title": TITLE}),
    )
    actor, view = acting_client(clients, game_id)
    request = gateway_pb2.SubmitActionRequest(
        game_id=game_id, action=view.legal_actions[0].action, expected_version=0, request_id=uuid.uuid4().hex
    )
    actor.games.SubmitAction(request, metadata=actor.auth)
    request.request_id = uuid.uuid4().hex
    with pytest.raises(grpc.RpcError):
        actor.games.SubmitAction(request, metadata=actor.auth)
    deadline = time.monotonic() + 5
    while _sample("grpc_server_handled_total", aborted) == before[1] and time.monotonic() < deadline:
        time.sleep(0.01)  # the server records an aborted call just after the client sees the error
    after = (
        _sample("grpc_server_handled_total", labels),
        _sample("grpc_server_handled_total", aborted),
        _sample("gateway_moves_applied_total", {"title": TITLE}),
        _sample("gateway_write_conflicts_total", {"title": TITLE}),
    )
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down"),
        redis.exceptions.TryAgainError("TRYAGAIN Multiple keys request during rehashing of slot"),
        redis.exceptions.SlotNotCoveredError("Slot 1234 is not covered by the cluster"),
        redis.exceptions.ReadOnlyError("You can't write against a read only replica."),
    ],
    ids=["cluster-down", "try-again", "slot-not-covered", "read-only"],
)
def test_what_a_cluster_failing_over_answers_is_unavailable_not_internal(error: Exception) -> None:
    """What redis-py raises while a Cluster's replica takes over a dead primary's slots: the call is
    refused as UNAVAILABLE (retry), as for a lost connection, never INTERNAL."""
    translated = _translate(error)
    assert (translated.code, translated.reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
