"""A real worker process killed in the middle of a bot turn: the turn is redelivered to the next
worker, the game finishes, and nothing is applied twice. Runs on its own Redis, so the in-process test
worker of the other modules never sees these tasks."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator

import pytest
import redis

from deploy import throwaway
from deploy.throwaway import redis_server
from live import keys
from live.connection import sync_client
from live.settings import Settings
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import bot_seat, finalized, new_game, start_bot_worker, wait_for
from workers import scoring

SLOW_SEARCH_SECONDS = 3.0
VISIBILITY_TIMEOUT_SECONDS = 3
KILL_TEST_ENV = {"VISIBILITY_TIMEOUT_SECONDS": str(VISIBILITY_TIMEOUT_SECONDS)}


@pytest.fixture(scope="module")
def own_settings(rules: dict[str, str]) -> Iterator[Settings]:
    with redis_server() as url:
        yield gateway_settings(url, rules)


@pytest.fixture(scope="module")
def own_gateway(own_settings: Settings) -> Iterator[GatewayProcess]:
    with GatewayProcess(own_settings) as process:
        yield process


def running_tasks(client: redis.Redis) -> list[str]:
    """The names of the tasks delivered and not yet acknowledged (kombu's `unacked` hash)."""
    return [json.loads(value)[0]["headers"]["task"] for value in client.hvals("unacked")]


def test_a_worker_killed_in_a_bot_turn_loses_nothing_and_applies_nothing_twice(
    own_settings: Settings, own_gateway: GatewayProcess
) -> None:
    client = sync_client(own_settings.redis_url)
    first = start_bot_worker(own_settings, SLOW_SEARCH_SECONDS, KILL_TEST_ENV)
    second = None
    try:
        seats = [bot_seat(own_gateway, 0, "search"), bot_seat(own_gateway, 1, "search")]
        game_id = new_game(own_gateway, TITLE, seats)
        wait_for(
            lambda: "workers.take_turn" in running_tasks(client), 60, "the first worker to take a bot turn"
        )
        version = int(client.get(keys.game_version(game_id)))
        throwaway.stop_worker_process(first, signal.SIGKILL)
        assert int(client.get(keys.game_version(game_id))) == version, "the turn finished before the kill"
        assert "workers.take_turn" in running_tasks(client)

        second = start_bot_worker(own_settings, 0.002, KILL_TEST_ENV)
        wait_for(lambda: finalized(client, game_id), 240, "the game to be finished by the second worker")
        final = int(client.get(keys.game_version(game_id)))
        requests = client.hgetall(keys.game_requests(game_id))
        kept = range(final - Settings().event_history, final)  # the request ids of the kept changes
        assert set(requests) == {f"bot:{game_id}:{v}".encode() for v in kept}
        assert [
            int(entry_id.split(b"-")[0]) for entry_id, _ in client.xrange(keys.game_log(game_id))
        ] == list(range(1, final + 1))
        assert own_gateway.run(scoring.finalize(own_gateway.app, game_id)) is False  # type: ignore[arg-type]
        for seat in seats:
            assert client.hget(keys.rating(TITLE, seat.player.player_id), "games") == b"1"
        wait_for(lambda: client.hlen("unacked") == 0, 30, "every task to be acknowledged")
    finally:
        throwaway.stop_worker_process(first, signal.SIGKILL)
        if second is not None:
            throwaway.stop_worker_process(second, signal.SIGTERM)
        client.close()
