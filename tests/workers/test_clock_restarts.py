"""A clocked game outlives its processes: the worker process is killed and the gateway stopped while a
player's time runs; once both are back (a new worker process, a new gateway), the timeout still fires
and the new gateway shows the same deadline. Runs on its own Redis, so no other test's worker sees
these tasks."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from deploy import throwaway
from deploy.throwaway import redis_server
from live import keys
from live.settings import Settings
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game, wait_for
from tests.workers.test_clocks import human_seat, timeouts

PER_MOVE_SECONDS = 3


@pytest.fixture(scope="module")
def own_settings(rules: dict[str, str]) -> Iterator[Settings]:
    with redis_server() as url:
        yield gateway_settings(url, rules)


def test_a_timeout_fires_after_the_worker_and_the_gateway_restart(own_settings: Settings) -> None:
    client = redis.Redis.from_url(own_settings.redis_url)
    worker = throwaway.start_worker_process(own_settings.redis_url, ",".join(own_settings.rules_addresses))
    try:
        with GatewayProcess(own_settings) as first, grpc.insecure_channel(first.address) as channel:
            player = Client(channel)
            player.sign_in_as_guest("player who walks away")
            clock = gateway_pb2.TurnClock(
                per_move_seconds=PER_MOVE_SECONDS, on_timeout=gateway_pb2.TIMEOUT_POLICY_BOT_PLAYS_TURN
            )
            game_id = new_game(first, TITLE, [human_seat(player, 0), bot_seat(first, 1, "random")], clock)

            def view() -> gateway_pb2.GameView:
                request = gateway_pb2.GetGameRequest(game_id=game_id)
                return player.games.GetGame(request, metadata=player.auth).game

            wait_for(lambda: 0 in view().acting_seats, 60, "the player's turn")
            deadline = view().deadline.ToMilliseconds()
            version = view().version
            token = player.token
        throwaway.stop_worker_process(worker, signal.SIGKILL)
        time.sleep(max(0.0, deadline / 1000 - time.time()) + 1)
        assert not timeouts(client, game_id), "a timeout came with no worker running"
        assert int(client.get(keys.game_version(game_id))) == version

        worker = throwaway.start_worker_process(
            own_settings.redis_url, ",".join(own_settings.rules_addresses)
        )
        with GatewayProcess(own_settings) as second, grpc.insecure_channel(second.address) as channel:
            player = Client(channel, token)
            request = gateway_pb2.GetGameRequest(game_id=game_id)
            assert (
                player.games.GetGame(request, metadata=player.auth).game.deadline.ToMilliseconds() == deadline
            )
            wait_for(lambda: timeouts(client, game_id), 60, "the timeout, from the new worker")
            assert timeouts(client, game_id) == [f"timeout:{game_id}:{version}".encode()]
            assert player.games.GetGame(request, metadata=player.auth).game.version > version
    finally:
        throwaway.stop_worker_process(worker, signal.SIGKILL)
        client.close()
