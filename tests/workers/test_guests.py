"""A guest's game played to its end by a real worker: its scoring renews the guest (its first rating
and history expire with it) and leaves it off the leaderboard, and the game still reads once the guest
is gone."""

from __future__ import annotations

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import guests, keys, matchmaking
from live.settings import Settings
from tests.gateway.support import Client, GatewayProcess
from tests.titles import GAME, TITLE
from tests.workers.support import STRENGTHS, finalized, wait_for
from workers import scoring


def test_a_finished_guest_expires_with_its_ratings_and_its_games_still_read(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    with grpc.insecure_channel(gateway.address) as channel, grpc.insecure_channel(gateway.address) as other:
        host, reader = Client(channel), Client(other)
        player = host.sign_in_as_guest("Passing").player
        reader.sign_in_as_guest("reader")
        lobby = host.lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=GAME.info.min_players), metadata=host.auth
        ).lobby
        for _ in range(1, GAME.info.min_players):
            request = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=STRENGTHS["random"])
            host.lobbies.AddBot(request, metadata=host.auth)
        game_id = host.lobbies.StartGame(
            gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=host.auth
        ).game_id
        assert redis_client.ttl(keys.player(player.player_id)) == -1, "kept while its game is live"
        host.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=host.auth)
        wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")

        own = [key for key in guests.keys_of(player.player_id, [TITLE]) if redis_client.exists(key)]
        assert keys.rating(TITLE, player.player_id) in own and keys.player_games(player.player_id) in own
        idle = Settings().guest_idle_seconds
        assert all(idle - 60 < redis_client.ttl(key) <= idle for key in own), {
            key: redis_client.ttl(key) for key in own
        }

        assert redis_client.zscore(keys.leaderboard(TITLE), player.player_id) is None, "temporary: not shown"
        assert redis_client.hget(keys.leaderboard_games(TITLE), player.player_id) is None
        result = gateway.run(scoring.result(gateway.app.redis, game_id))  # type: ignore[union-attr]
        searched = gateway.run(matchmaking.rating(gateway.app.redis, TITLE, player.player_id))  # type: ignore[union-attr]
        assert searched == pytest.approx(result["ratings"][player.player_id]["after"][2]), (
            "its searches use it"
        )

        redis_client.delete(*own)  # what its expiry does, 30 days on
        record = reader.games.GetGameRecord(
            gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=reader.auth
        ).record
        assert player in [seat.player for seat in record.seats]
        view = reader.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=reader.auth).game
        assert player.display_name in [seat.player.display_name for seat in view.seats]
