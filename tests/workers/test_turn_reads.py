"""A bot turn reads the game once: the read it decides on is the one its move commits on (the
compare-and-set still guards the commit), counted in Redis round trips on a real redis-server."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from live import keys
from live.followups import Followups
from live.settings import Settings
from live.table import NoDispatch
from tests.gateway.support import GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game
from workers import turns
from workers.bots import Budget

WRITES = {b"EVALSHA", b"EVAL", b"SCRIPT"}  # the commit (and loading its script, once per server)
# The turn's reads are its round trips before the first of these: then come the commit and the
# follow-ups it wrote (`live.outbox`).

pytestmark = ONE_NODE  # it counts a single node's round trips


class CountedConnection(aioredis.Connection):
    """A connection that notes the commands of every round trip it makes (one packed send each)."""

    trips: list[tuple[bytes, ...]] = []
    packing_pipeline = False

    def pack_command(self, *args: Any) -> list[bytes]:
        if not self.packing_pipeline:
            CountedConnection.trips.append((_name(args[0]),))
        return super().pack_command(*args)

    def pack_commands(self, commands: Iterable[Iterable[Any]]) -> list[bytes]:
        listed = [list(command) for command in commands]
        CountedConnection.trips.append(tuple(_name(command[0]) for command in listed))
        self.packing_pipeline = True
        try:
            return super().pack_commands(listed)
        finally:
            self.packing_pipeline = False


def _name(command: Any) -> bytes:
    name = command if isinstance(command, bytes) else str(command).encode()
    return name.split()[0].upper()


@pytest.fixture
def quiet_gateway(settings: Settings) -> Iterator[GatewayProcess]:
    """A gateway that queues nothing, so the test plays the bot's turn itself."""
    with GatewayProcess(settings, dispatcher=NoDispatch()) as process:
        yield process


def test_one_bot_turn_reads_the_game_in_one_round_trip(quiet_gateway: GatewayProcess) -> None:
    app = quiet_gateway.app
    assert app is not None
    game_id = new_game(quiet_gateway, TITLE, [bot_seat(quiet_gateway, s, "random") for s in range(2)])

    async def one_turn() -> tuple[bool, list[tuple[bytes, ...]]]:
        redis = aioredis.Redis.from_url(app.settings.redis_url, connection_class=CountedConnection)
        # as a worker's table: its follow-ups are performed before the turn ends
        counted = dataclasses.replace(app, redis=redis, scripts={}, followups=Followups())
        try:
            await redis.ping()  # the connection's handshake is not the turn's
            CountedConnection.trips.clear()
            played = await turns.take_turn(counted, game_id, 0, Budget())
            return played, list(CountedConnection.trips)
        finally:
            await redis.aclose()

    played, trips = quiet_gateway.run(one_turn())
    assert played
    assert quiet_gateway.run(app.redis.get(keys.game_version(game_id))) == b"1"
    commit = next(i for i, trip in enumerate(trips) if WRITES & set(trip))
    reads = trips[:commit]
    assert len(reads) == 1, f"a bot turn read the game in {len(reads)} round trips: {reads}"
