"""Real parts for gateway tests: a gateway server running in its own event loop on a thread, and sync
client stubs (the redis-server and rules services come from deploy.throwaway, shared with the
benchmarks)."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, replace

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from grpc_health.v1 import health_pb2

from gateway.browser import WebServer, WebSettings
from gateway.server import SHUTDOWN_STEP_SECONDS, create_server, shut_down
from live.settings import Settings
from live.table import Dispatcher, Table, connect
from tests.gateway.patience import MAX_RETRIES, rate_limit_delay
from tests.redis_modes import broker_of

STOP_STEPS = 7  # the browser listener, the server, the commits' follow-ups, the streams, rules, Redis,
# the archive


class GatewayProcess:
    """A gateway served by its own event loop on a background thread."""

    def __init__(
        self, settings: Settings, dispatcher: Dispatcher | None = None, web: WebSettings | None = None
    ) -> None:
        self.settings = settings
        self.dispatcher = dispatcher
        self.web_settings = web  # also serve the browser listener with these settings
        self.web: WebServer | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0
        self.app: Table | None = None

    def run(self, coroutine, timeout: float = 60):  # type: ignore[no-untyped-def]
        """Run a coroutine on the gateway's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _start(self) -> None:
        self.app = await connect(self.settings)
        if self.dispatcher is not None:
            self.app.dispatcher = self.dispatcher
        self.gateway = create_server(self.app, "127.0.0.1:0")
        self.port = self.gateway.port
        await self.gateway.server.start()
        if self.web_settings is not None:
            self.web = WebServer(self.app, self.gateway.servicers, self.web_settings)
            await self.web.start()
        await self.gateway.set_health(health_pb2.HealthCheckResponse.SERVING)

    async def _stop(self) -> None:
        assert self.app is not None
        await shut_down(self.app, self.gateway, self.web, grace=0.0)

    def __enter__(self) -> GatewayProcess:
        self.thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        # Each of the shutdown's steps (at most STOP_STEPS) may take SHUTDOWN_STEP_SECONDS.
        self.run(self._stop(), timeout=STOP_STEPS * SHUTDOWN_STEP_SECONDS + 10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def address(self) -> str:
        """Where clients connect."""
        return f"127.0.0.1:{self.port}"

    @property
    def web_url(self) -> str:
        """Where browsers connect (with `web` settings)."""
        assert self.web is not None
        return f"http://127.0.0.1:{self.web.port}"


def gateway_settings(redis_url: str, rules: dict[str, str], **changes: object) -> Settings:
    """Settings for a test gateway: the defaults a user gets, but for its Redis (and a Cluster's Celery
    broker) and rules services."""
    base = Settings(
        redis_url=redis_url, rules_addresses=tuple(rules.values()), celery_broker_url=broker_of(redis_url)
    )
    return replace(base, **changes)  # type: ignore[arg-type]


@dataclass
class Client:
    """Sync stubs of every gateway service over one channel, with a bearer token once signed in."""

    channel: grpc.Channel
    token: str = ""

    def __post_init__(self) -> None:
        self.accounts = gateway_pb2_grpc.AccountServiceStub(self.channel)
        self.catalog = gateway_pb2_grpc.CatalogServiceStub(self.channel)
        self.lobbies = gateway_pb2_grpc.LobbyServiceStub(self.channel)
        self.games = gateway_pb2_grpc.GameServiceStub(self.channel)
        self.leaderboard = gateway_pb2_grpc.LeaderboardServiceStub(self.channel)
        self.matches = gateway_pb2_grpc.MatchServiceStub(self.channel)

    @property
    def auth(self) -> tuple[tuple[str, str], ...]:
        """The call metadata carrying the token."""
        return (("authorization", f"Bearer {self.token}"),)

    def sign_in_as_guest(self, name: str) -> gateway_pb2.Session:
        """Create a guest and keep its token (waiting out the per-address limit on new guests, as
        clients do, on any channel)."""
        request = gateway_pb2.CreateGuestRequest(display_name=name)
        for _ in range(MAX_RETRIES):
            try:
                session = self.accounts.CreateGuest(request).session
                break
            except grpc.RpcError as error:
                delay = rate_limit_delay(error)
                if delay is None:
                    raise
                time.sleep(delay)
        else:
            raise AssertionError(f"CreateGuest rate limited {MAX_RETRIES} times in a row")
        self.token = session.token
        return session
