"""A finished game's record from a gateway of its own (a real Redis, every rules service), for the
tests of one title's record: a game of random legal moves played to the end through the gateway."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from boardgame.gateway.v1 import gateway_pb2

from deploy.throwaway import redis_server, rules_servers
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import play_to_end


@contextlib.contextmanager
def gateway_of_every_title() -> Iterator[GatewayProcess]:
    """A gateway on a throwaway Redis and every registered game's rules service."""
    with (
        redis_server() as url,
        rules_servers() as rules,
        GatewayProcess(gateway_settings(url, rules)) as gateway,
    ):
        yield gateway


def finished_record(
    gateway: GatewayProcess, title: str, player_count: int, seed: int
) -> gateway_pb2.GameRecord:
    """The record of a game of `title` played to the end by random legal moves."""
    with contextlib.ExitStack() as stack:
        clients = [Client(stack.enter_context(patient_channel(gateway.address))) for _ in range(player_count)]
        for seat, client in enumerate(clients):
            client.sign_in_as_guest(f"player {seat}")
        game_id, _, _ = play_to_end(gateway, title, clients, seed=seed)
        request = gateway_pb2.GetGameRecordRequest(game_id=game_id)
        return clients[0].games.GetGameRecord(request, metadata=clients[0].auth).record
