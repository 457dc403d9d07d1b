"""The gateway's RPC metrics: a stream the client closes, or a call it gives up on, is CANCELLED, not
an error, and streams are timed apart from unary calls."""

from __future__ import annotations

import threading
import time

import grpc
import prometheus_client
import pytest
from boardgame.gateway.v1 import gateway_pb2

from tests.gateway._support_accounts import guest, own_gateway
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_backlog import BUSY_MICROSECONDS, BUSY_REDIS_SCRIPT
from tests.gateway.test_play import new_game, signed_in
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE

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
    game_id = new_game(gateway, TITLE, players)
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


@ONE_NODE  # it keeps the one node busy; a Cluster's other nodes would answer
def test_a_call_the_client_gives_up_on_counts_as_cancelled(redis_url: str, rules: dict[str, str]) -> None:
    """A unary call whose deadline passes while Redis is busy is CANCELLED on the server, not UNKNOWN."""
    me = {"grpc_service": "boardgame.gateway.v1.AccountService", "grpc_method": "GetMe"}
    with own_gateway(redis_url, rules) as own:
        player = guest(own.make_client)
        before = {
            code: sample("grpc_server_handled_total", **me, grpc_code=code)
            for code in ("CANCELLED", "UNKNOWN")
        }
        busy = threading.Thread(target=own.store.eval, args=(BUSY_REDIS_SCRIPT, 0, BUSY_MICROSECONDS))
        busy.start()
        time.sleep(0.05)
        with pytest.raises(grpc.RpcError) as raised:
            player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth, timeout=0.1)
        busy.join()
        assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        deadline = time.monotonic() + 10
        while sample("grpc_server_handled_total", **me, grpc_code="CANCELLED") == before["CANCELLED"]:
            assert time.monotonic() < deadline, "the cancelled call was never counted"
            time.sleep(0.02)
        assert sample("grpc_server_handled_total", **me, grpc_code="UNKNOWN") == before["UNKNOWN"]
