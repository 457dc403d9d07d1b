"""A bot turn that meets an outage of its rules service is tried again as soon as the service is back,
not when the game's watchdog (30 s) notices the lost turn. Runs a real worker process on its own Redis
and its own rules service, which the test stops and starts again on the same port."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
import redis

from deploy import throwaway
from deploy.throwaway import free_port, redis_server
from live import clocks, keys
from services.common import registry
from services.common.server import create_server
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game, wait_for

OUTAGE_SECONDS = 2.0


class RulesService:
    """The title's rules service on a fixed port, in this process, that can be stopped and started."""

    def __init__(self) -> None:
        self.address = f"127.0.0.1:{free_port()}"
        self.server: grpc.Server | None = None

    def start(self) -> None:
        self.server, _ = create_server(self.address, registry.get(TITLE))
        self.server.start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop(0).wait()
            self.server = None


@pytest.fixture
def own_rules() -> Iterator[RulesService]:
    service = RulesService()
    service.start()
    try:
        yield service
    finally:
        service.stop()


def test_a_bot_turn_meeting_a_rules_outage_is_played_soon_after_it_ends(
    rules: dict[str, str], own_rules: RulesService
) -> None:
    with redis_server() as url, GatewayProcess(gateway_settings(url, rules)) as gateway:
        client = redis.Redis.from_url(url)
        worker = throwaway.start_worker_process(url, own_rules.address)

        def version() -> int:
            return int(client.get(keys.game_version(game_id)) or 0)

        try:
            seats = [bot_seat(gateway, 0, "random"), bot_seat(gateway, 1, "random")]
            game_id = new_game(gateway, TITLE, seats)
            wait_for(lambda: version() >= 3, 60, "the bots to play")
            own_rules.stop()
            time.sleep(OUTAGE_SECONDS)  # the turn in hand meets the outage
            stalled = version()
            own_rules.start()
            back = time.monotonic()
            wait_for(
                lambda: version() > stalled, clocks.BOT_WATCHDOG_MS / 2000, "a bot move after the outage"
            )
            assert time.monotonic() - back < clocks.BOT_WATCHDOG_MS / 2000
        finally:
            throwaway.stop_worker_process(worker)
            client.close()
