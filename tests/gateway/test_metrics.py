"""The gateway's RPC metrics: a stream the client closes is CANCELLED, not an error, and streams are
timed apart from unary calls."""

from __future__ import annotations

import time

import prometheus_client
from boardgame.gateway.v1 import gateway_pb2

from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game, signed_in

WATCH = {"grpc_service": "boardgame.gateway.v1.GameService", "grpc_method": "WatchGame"}


def sample(name: str, **labels: str) -> float:
    """A sample of the test process's registry (the gateway serves in this process), 0 when absent."""
    return prometheus_client.REGISTRY.get_sample_value(name, labels) or 0.0


def closed_watches(code: str) -> float:
    return sample("grpc_server_handled_total", **WATCH, grpc_code=code)


def test_a_watch_stream_the_client_cancels_counts_as_cancelled_and_is_timed_as_a_stream(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    players: list[Client] = signed_in(new_client, 2)
    game_id = new_game(gateway, "puertorico", players)
    before = {code: closed_watches(code) for code in ("CANCELLED", "UNKNOWN", "OK")}
    opened = sample("grpc_server_started_total", **WATCH)
    lifetimes = sample("grpc_server_stream_seconds_count", **WATCH, grpc_code="CANCELLED")
    latencies = sample("grpc_server_handling_seconds_count", **WATCH, grpc_code="CANCELLED")
    stream = players[0].games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=players[0].auth
    )
    assert next(stream).game.game_id == game_id
    assert sample("grpc_server_msg_sent_total", **WATCH) >= 1
    stream.cancel()
    deadline = time.monotonic() + 10
    while closed_watches("CANCELLED") == before["CANCELLED"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert closed_watches("CANCELLED") == before["CANCELLED"] + 1
    assert closed_watches("UNKNOWN") == before["UNKNOWN"], "a client closing its stream is no error"
    assert sample("grpc_server_started_total", **WATCH) == opened + 1
    assert sample("grpc_server_stream_seconds_count", **WATCH, grpc_code="CANCELLED") == lifetimes + 1
    assert sample("grpc_server_handling_seconds_count", **WATCH, grpc_code="CANCELLED") == latencies, (
        "a stream's lifetime is no call latency"
    )
