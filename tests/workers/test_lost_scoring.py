"""A finished game is scored however its scoring task is lost: a `finalize` rejected while Redis
restarted (its retry could not be sent) left the game unscored for good, as nothing queued it again.
The final commit now writes a `score` watchdog with the version (`live.clocks`), which the clock sweep
finds if the game is still unscored when it falls due.

The game is played to its end by the test (two human seats, random legal moves through the write path)
while no worker runs, so the one `finalize` its commit queued waits in the broker; the test takes it
out, as a rejection does, and only then starts a worker, as a user runs it."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator

import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from deploy import throwaway
from gateway import auth
from live import clocks, keys, moves
from live.connection import sync_client
from live.queues import ARCHIVE_QUEUE  # the scoring's queue, a list on the broker
from live.settings import Settings
from services.common.rng import Rng
from tests import redis_modes
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import finalized, new_game, start_bot_worker, wait_for
from workers import turns
from workers.bots.random_bot import random_action

MOVES_AT_MOST = 5_000


@pytest.fixture
def own_settings(redis_mode: str, rules: dict[str, str]) -> Iterator[Settings]:
    with redis_modes.throwaway(redis_mode) as url:
        yield gateway_settings(url, rules)


def human_seat(gateway: GatewayProcess, seat: int) -> gateway_pb2.GameSeat:
    player = gateway.run(auth.create_player(gateway.app, f"player {secrets.token_hex(4)}", guest=False))  # type: ignore[arg-type]
    return gateway_pb2.GameSeat(seat=seat, player=player)


async def play_to_the_end(app: object, game_id: str) -> int:
    """Random legal moves through the write path until the game is over; the final version."""
    rng = Rng(7)
    for _ in range(MOVES_AT_MOST):
        loaded = await turns.load(app, game_id)  # type: ignore[arg-type]
        assert loaded is not None
        acting = list(loaded.game.acting_seats(loaded.state))
        if not acting:
            return loaded.version
        action = random_action(loaded.game, loaded.state, acting[0], rng)
        packed = turns.pack_action(loaded.game, action)
        await moves.play(app, game_id, acting[0], packed, loaded.version, f"test:{loaded.version}")  # type: ignore[arg-type]
    raise AssertionError(f"the game did not end in {MOVES_AT_MOST} moves")


def take_out_finalize(broker: redis.Redis, game_id: str) -> int:
    """Remove the queued `finalize` of the game from the broker's queue, as a rejection does; how many."""
    removed = 0
    for raw in broker.lrange(ARCHIVE_QUEUE, 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] == clocks.FINALIZE and game_id in message["headers"]["argsrepr"]:
            removed += broker.lrem(ARCHIVE_QUEUE, 1, raw)
    return removed


def test_a_finished_game_whose_scoring_was_lost_is_scored_when_its_watchdog_falls_due(
    own_settings: Settings,
) -> None:
    with GatewayProcess(own_settings) as gateway:
        client = sync_client(own_settings.redis_url)
        broker = redis.Redis.from_url(own_settings.broker_url)
        worker = None
        try:
            game_id = new_game(gateway, TITLE, [human_seat(gateway, 0), human_seat(gateway, 1)])
            gateway.run(play_to_the_end(gateway.app, game_id))
            gateway.run(gateway.app.followups.drain())  # its follow-ups queued the scoring
            assert take_out_finalize(broker, game_id) == 1
            entry = clocks.entry_of(client.hgetall(keys.game_clock(game_id)))
            assert entry is not None and entry.kind == clocks.KIND_SCORE
            worker = start_bot_worker(own_settings, 0.01)
            wait_for(
                lambda: finalized(client, game_id),
                clocks.SCORE_WATCHDOG_MS / 1000 + 30,
                "the lost scoring to be queued again by its watchdog",
            )
            wait_for(
                lambda: not client.exists(keys.game_clock(game_id)),
                10,
                "the watchdog to be removed once the game is scored",
            )
            assert client.zscore(keys.deadlines(), game_id) is None
        finally:
            if worker is not None:
                throwaway.stop_worker_process(worker)
            client.close()
            broker.close()
