"""A bot of every level (`live.levels`), seated by AddBot through the gateway, plays whole games through
the real worker: every move is one the rules accepted (a replay re-derives the game), each level's
moves are its own bot's (the worker's think-time metric by level), and each bot is named after its
level. The worker's budget cap (`SEARCH_SECONDS`) keeps the search levels short."""

from __future__ import annotations

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live.levels import LEVELS
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import EVERY_TITLE_ON_ONE_NODE
from tests.workers.support import finalized, wait_for
from workers import metrics

TITLES = sorted(registry.games())


def moves_decided(title: str, level: str) -> float:
    """How many decisions the worker's bots of `level` took on `title` (this process's worker)."""
    for family in metrics.BOT_THINK_SECONDS.collect():
        for sample in family.samples:
            if sample.name.endswith("_count") and sample.labels == {"title": title, "strength": level}:
                return sample.value
    return 0.0


@EVERY_TITLE_ON_ONE_NODE
@pytest.mark.parametrize("title", TITLES)
def test_a_bot_of_every_level_plays_a_legal_game_to_the_end(
    title: str, gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    info = registry.get(title).info
    count = min(max(len(LEVELS), info.min_players), info.max_players)
    seated = [LEVELS[index % len(LEVELS)] for index in range(count)]
    before = {level.name: moves_decided(title, level.name) for level in LEVELS}
    with grpc.insecure_channel(gateway.address) as channel:
        host = Client(channel)
        host.sign_in_as_guest("levels host")
        lobby = host.lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=title, seat_count=count), metadata=host.auth
        ).lobby
        own_seat = next(seat.seat for seat in lobby.seats if seat.player.player_id == lobby.host_player_id)
        for index, level in enumerate(seated):
            seat = own_seat if index == count - 1 else None  # the last bot takes the host's seat
            lobby = host.lobbies.AddBot(
                gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=level.strength, seat=seat),
                metadata=host.auth,
            ).lobby
        game_id = host.lobbies.StartGame(
            gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=host.auth
        ).game_id
        wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")
        record = host.games.GetGameRecord(
            gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=host.auth
        ).record
        replay = host.games.ReplayGame(gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=host.auth)

    assert replay.consistent and replay.actions_replayed == len(record.actions) > 0, replay.mismatch
    assert record.scores.final and record.scores.winners
    by_strength = sorted((seat.bot_strength, seat.player.display_name) for seat in record.seats)
    expected = sorted(
        (level.strength, f"{level.display_name} {1 + seated[:i].count(level)}")
        for i, level in enumerate(seated)
    )
    assert by_strength == expected
    assert all(seat.player.bot and not seat.resigned for seat in record.seats)
    for level in set(seated):
        assert moves_decided(title, level.name) > before[level.name], f"no move of the {level.name} level"
