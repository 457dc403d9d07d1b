"""Real parts for worker tests, on top of the gateway's: the Celery app pointed at the test Redis, a
real worker (celery.contrib.testing, not eager mode) and a real beat, and game helpers."""

from __future__ import annotations

import contextlib
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import redis
from boardgame.gateway.v1 import gateway_pb2
from celery.beat import EmbeddedService
from celery.contrib.testing.worker import start_worker

from cli.app import STRENGTHS
from deploy import throwaway
from gateway import auth
from live import keys
from live.games import start_game
from live.queues import QUEUES
from live.settings import Settings
from tests.gateway.support import GatewayProcess
from workers import runtime
from workers.app import celery
from workers.settings import WorkerSettings


@contextlib.contextmanager
def worker(settings: Settings, worker_settings: WorkerSettings) -> Iterator[None]:
    """A real Celery worker thread and a beat thread on the settings' broker, taking every queue (as
    `python -m workers` does by default)."""
    celery.conf.update(broker_url=settings.broker_url, result_backend=settings.broker_url)
    # The app's broker connections and producers are made once and kept; a session that ran another
    # Redis mode before left them on that mode's broker, stopped since.
    celery._pool = None
    celery.amqp._producer_pool = None
    runtime.configure(settings, worker_settings)
    beat = EmbeddedService(celery, thread=True)
    with start_worker(
        celery, pool="solo", perform_ping_check=False, shutdown_timeout=30, queues=list(QUEUES)
    ):
        beat.start()
        try:
            yield
        finally:
            beat.stop()


def wait_for(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll until `predicate` returns something truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def bot_seat(gateway: GatewayProcess, seat: int, strength: str) -> gateway_pb2.GameSeat:
    """A bot of `strength` on `seat`, a new player of the test's own (not one of the shared bots of
    `gateway.bots`), so its rating starts from the prior whatever other tests played."""
    value = STRENGTHS[strength]
    name = f"{strength} test bot {secrets.token_hex(4)}"
    player = gateway.run(auth.create_player(gateway.app, name, guest=False, bot=True))  # type: ignore[arg-type]
    return gateway_pb2.GameSeat(seat=seat, player=player, bot_strength=value)


def new_game(
    gateway: GatewayProcess,
    title: str,
    seats: list[gateway_pb2.GameSeat],
    clock: gateway_pb2.TurnClock | None = None,
) -> str:
    """Start a game with these seats; the bots start playing at once."""
    return gateway.run(  # type: ignore[no-any-return]
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=title,
            player_count=len(seats),
            options=[],
            seats=seats,
            clock=clock or gateway_pb2.TurnClock(),
            lobby_id="",
        )
    )


def finalized(client: redis.Redis, game_id: str) -> bool:
    """Whether `finalize` recorded the game's result."""
    return bool(client.exists(keys.game_result(game_id)))


def start_bot_worker(
    settings: Settings, search_seconds: float, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`python -m workers` in its own session (so it can be killed whole) on the settings' Redis and
    broker, with the settings a user gets but the bot's search budget (and `env`)."""
    variables = {"BOT_SEARCH_SECONDS": str(search_seconds), **(env or {})}
    if settings.celery_broker_url:
        variables["CELERY_BROKER_URL"] = settings.celery_broker_url
    return throwaway.start_worker_process(settings.redis_url, ",".join(settings.rules_addresses), variables)
