"""Turn clocks: deadlines kept in Redis, swept by beat, and the lobby's timeout policy applied through
the move path."""

from __future__ import annotations

import grpc
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import clocks, keys
from tests.gateway.support import Client, GatewayProcess
from tests.titles import TITLE
from tests.workers.support import bot_seat, finalized, new_game, wait_for
from workers import scoring


def human_seat(client: Client, seat: int) -> gateway_pb2.GameSeat:
    """The signed-in client's player on `seat`."""
    me = client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth).player
    return gateway_pb2.GameSeat(seat=seat, player=me)


def timeouts(redis_client: redis.Redis, game_id: str) -> list[bytes]:
    """The request ids of the moves a timeout made."""
    return [r for r in redis_client.hkeys(keys.game_requests(game_id)) if r.startswith(b"timeout:")]


def resign(client: Client, game_id: str) -> None:
    """Hand the client's seat to a bot, so the game finishes quickly."""
    client.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=client.auth)


def test_a_bot_plays_the_turn_of_a_player_out_of_time(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("slow player")
        clock = gateway_pb2.TurnClock(
            per_move_seconds=1, on_timeout=gateway_pb2.TIMEOUT_POLICY_BOT_PLAYS_TURN
        )
        game_id = new_game(gateway, TITLE, [human_seat(client, 0), bot_seat(gateway, 1, "random")], clock)

        def human_to_act() -> bool:
            view = client.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=client.auth)
            return 0 in view.game.acting_seats

        wait_for(human_to_act, 30, "the human's turn")
        due = wait_for(
            lambda: gateway.run(clocks.deadline_ms(gateway.app.redis, game_id)),  # type: ignore[union-attr]
            5,
            "the human's deadline",
        )
        assert due - clocks.now_ms() <= 1000
        wait_for(lambda: timeouts(redis_client, game_id), 10, "a timeout move")
        view = client.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=client.auth).game
        assert (
            not view.seats[0].resigned
            and view.seats[0].player.player_id == human_seat(client, 0).player.player_id
        )
        resign(client, game_id)
        wait_for(lambda: finalized(redis_client, game_id), 120, "the game to finish")


def test_a_player_out_of_time_forfeits_and_ranks_last(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("absent player")
        clock = gateway_pb2.TurnClock(total_seconds=1, on_timeout=gateway_pb2.TIMEOUT_POLICY_FORFEIT)
        game_id = new_game(gateway, TITLE, [bot_seat(gateway, 0, "heuristic"), human_seat(client, 1)], clock)
        wait_for(lambda: finalized(redis_client, game_id), 120, "the game to finish")
        changes_of_hands = int(redis_client.get(keys.game_version(game_id))) - redis_client.xlen(
            keys.game_log(game_id)
        )
        assert changes_of_hands == 1, "one forfeit (its request id left with its change, long kept)"
        result = gateway.run(scoring.result(gateway.app.redis, game_id))  # type: ignore[union-attr]
        record = result["record"]
        assert record.seats[1].resigned
        assert record.seats[1].bot_strength == gateway_pb2.BOT_STRENGTH_HEURISTIC
        assert result["ranks"] == {0: 1, 1: 2}
        wait_for(  # the score watchdog goes once finalize has scored the game and queued its archival
            lambda: (
                redis_client.zscore(keys.deadlines(), game_id) is None
                and not redis_client.exists(keys.game_clock(game_id))
            ),
            10,
            "the game's clock entries to go after its scoring",
        )
