"""Whole games played by bots through the gateway and a real worker, then finalized and rated."""

from __future__ import annotations

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.games import full_record
from live.settings import Settings
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import EVERY_TITLE_ON_A_CLUSTER, EVERY_TITLE_ON_ONE_NODE
from tests.workers.support import STRENGTHS, bot_seat, finalized, new_game, wait_for
from workers import scoring

TITLES = sorted(registry.games())
MIXED = ("random", "heuristic", "search", "random")


@EVERY_TITLE_ON_A_CLUSTER
@pytest.mark.parametrize("title", TITLES)
def test_four_bots_of_mixed_strengths_play_to_the_end_and_are_rated(
    title: str, gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    info = registry.get(title).info
    count = min(max(4, info.min_players), info.max_players)
    seats = [bot_seat(gateway, seat, MIXED[seat % len(MIXED)]) for seat in range(count)]
    game_id = new_game(gateway, title, seats)
    wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")

    result = gateway.run(scoring.result(gateway.app.redis, game_id))  # type: ignore[union-attr]
    record = result["record"]
    version = int(redis_client.get(keys.game_version(game_id)))
    assert record.scores.final and record.scores.winners
    assert not record.actions, "the result does not keep the log twice"
    app = gateway.app
    whole, _ = gateway.run(full_record(app, gateway.run(app.store.meta(game_id))))  # type: ignore[union-attr]
    assert [a.version for a in whole.actions] == list(range(1, version + 1))
    assert record.seed and record.seed_sha256
    ranks = result["ranks"]
    assert ranks == {s.seat: s.rank for s in record.scores.scores}
    requests = redis_client.hgetall(keys.game_requests(game_id))
    kept = range(version - Settings().event_history, version)  # the request ids of the kept changes
    assert set(requests) == {f"bot:{game_id}:{v}".encode() for v in kept}

    ratings = result["ratings"]
    for seat in seats:
        pid = seat.player.player_id
        before_mu, after_mu = ratings[pid]["before"][0], ratings[pid]["after"][0]
        stored = redis_client.hgetall(keys.rating(title, pid))
        assert int(stored[b"games"]) == 1
        assert int(stored[b"wins"]) == (1 if ranks[seat.seat] == 1 else 0)
        assert float(stored[b"mu"]) == pytest.approx(after_mu)
        if ranks[seat.seat] == 1 and len(record.scores.winners) == 1:
            assert after_mu > before_mu
        if ranks[seat.seat] == count:
            assert after_mu < before_mu
        assert redis_client.zscore(keys.leaderboard(title), pid) == pytest.approx(ratings[pid]["after"][2])
    assert redis_client.zscore(keys.title_games(title), game_id) is not None

    assert gateway.run(scoring.finalize(gateway.app, game_id)) is False  # type: ignore[arg-type]
    assert int(redis_client.hget(keys.rating(title, seats[0].player.player_id), "games")) == 1

    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("reader")
        board = client.leaderboard.GetLeaderboard(
            gateway_pb2.GetLeaderboardRequest(title=title, page_size=100), metadata=client.auth
        )
        listed = {e.player.player_id: e for e in board.entries}
        for seat in seats:
            entry = listed[seat.player.player_id]
            assert entry.games == 1 and entry.player.bot


@EVERY_TITLE_ON_ONE_NODE
@pytest.mark.parametrize("title", TITLES)
def test_a_lobby_of_bots_and_a_host_who_resigns_plays_to_the_end(
    title: str, gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    info = registry.get(title).info
    count = min(max(4, info.min_players), info.max_players)
    with grpc.insecure_channel(gateway.address) as channel:
        host = Client(channel)
        host.sign_in_as_guest("host")
        lobby = host.lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=title, seat_count=count), metadata=host.auth
        ).lobby
        for index in range(1, count):
            strength = STRENGTHS[MIXED[index % len(MIXED)]]
            host.lobbies.AddBot(
                gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=strength), metadata=host.auth
            )
        game_id = host.lobbies.StartGame(
            gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=host.auth
        ).game_id
        host.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=host.auth)
        wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")
        record = host.games.GetGameRecord(
            gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=host.auth
        ).record
    result = gateway.run(scoring.result(gateway.app.redis, game_id))  # type: ignore[union-attr]
    seats = {s.seat: s for s in record.seats}
    resigned = [s for s in seats.values() if s.resigned]
    assert len(resigned) == 1 and resigned[0].player.guest
    assert result["ranks"][resigned[0].seat] == count
    assert sorted(s.bot_strength for s in seats.values() if not s.resigned) == sorted(
        STRENGTHS[MIXED[i % len(MIXED)]] for i in range(1, count)
    )
    assert record.scores == result["record"].scores
