"""A takeback request's deadline is kept by the workers' clock sweep, with a real worker and beat: one
whose time to answer has gone by is ended and its players told, within a few seconds (docs/undo.md)."""

from __future__ import annotations

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.games import start_game
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players
from tests.gateway.undoing import RPC_TIMEOUT, answer, ask_takeback, hand_over, refusal, view
from tests.titles import TITLE
from tests.workers.support import wait_for


def test_the_workers_end_a_request_whose_deadline_passed(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    with patient_channel(gateway.address) as channel:
        clients = [Client(channel) for _ in range(3)]
        for number, client in enumerate(clients):
            client.sign_in_as_guest(f"asker {number}")
        game_id = gateway.run(
            start_game(
                gateway.app,  # type: ignore[arg-type]
                title=TITLE,
                player_count=3,
                options=[],
                seats=seat_players(clients),
                clock=gateway_pb2.TurnClock(),
                lobby_id="",
                rated=False,
            )
        )
        done = hand_over(clients, game_id)
        other = next(c for c in clients if c is not done.client)
        stream = other.games.WatchGame(
            gateway_pb2.WatchGameRequest(game_id=game_id, from_version=done.version),
            metadata=other.auth,
            timeout=RPC_TIMEOUT,
        )
        assert next(stream).game.version == done.version
        asked = ask_takeback(done.client, game_id, done.version).takeback
        assert next(stream).takeback.status == gateway_pb2.TAKEBACK_STATUS_PENDING
        member = f"{game_id}|{asked.takeback_id}"
        past = asked.deadline.ToMilliseconds() - 10 * 60 * 1000  # the time to answer gone by
        redis_client.hset(keys.game_takeback(game_id), "deadline", past)
        redis_client.zadd(keys.takeback_deadlines(), {member: past})
        ended = next(stream)
        stream.cancel()
        assert ended.takeback.status == gateway_pb2.TAKEBACK_STATUS_EXPIRED
        assert ended.takeback.takeback_id == asked.takeback_id
        wait_for(lambda: redis_client.zscore(keys.takeback_deadlines(), member) is None, 10, "the sweep")
        assert not redis_client.exists(keys.game_takeback(game_id))
        with pytest.raises(grpc.RpcError) as late:
            answer(other, game_id, asked.takeback_id, True)
        assert refusal(late.value) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_TAKEBACK")
        assert view(done.client, game_id).version == done.version, "nothing was taken back"
