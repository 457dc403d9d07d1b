"""GetReplayStep of a finished game once it left Redis for a real PostgreSQL: a game of bots (played by a
real worker, scored and archived) answers every step the same from the archive, asked for in any
order by a gateway that has kept nothing of it, as it did from Redis; its last step is its final
view."""

from __future__ import annotations

import grpc
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.settings import Settings
from services.common.rng import Rng
from tests.gateway.patience import patient_channel
from tests.gateway.replaying import as_replayed, every_step
from tests.gateway.support import Client, GatewayProcess
from tests.titles import TITLE
from tests.workers.test_archive import expire_window, keys_left, played


def test_an_archived_games_steps_are_the_ones_it_had_in_redis(
    gateway: GatewayProcess,
    celery_worker: None,
    redis_client: redis.Redis,
    settings: Settings,
) -> None:
    game_id = played(gateway, redis_client, TITLE)
    with patient_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("replayer")
        before = every_step(client, game_id)
        final = client.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=client.auth).game
    assert before[-1].game == as_replayed(final) and final.status == gateway_pb2.GAME_STATUS_FINISHED
    assert len(before) > 1 and all(step.move.label for step in before[1:])
    expire_window(redis_client, game_id)
    assert keys_left(redis_client, game_id) == [keys.game_archived(game_id).encode()]
    order = list(range(1, len(before)))
    Rng(3).shuffle(order)
    with GatewayProcess(settings) as fresh, patient_channel(fresh.address) as channel:
        there = Client(channel, client.token)  # the archive's record, re-derived from nothing kept
        assert every_step(there, game_id, order) == before
        unknown = gateway_pb2.GetReplayStepRequest(game_id="f" * 32)
        try:
            there.games.GetReplayStep(unknown, metadata=there.auth)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.NOT_FOUND
        else:
            raise AssertionError("an unknown game is replayed")
