"""Real parts for gateway tests: a redis-server on a free port, rules services, a gateway server
running in its own event loop on a thread, and sync client stubs."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import grpc
import redis
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from grpc_health.v1 import health_pb2

from gateway.app import Dispatcher, Gateway
from gateway.server import connect, create_server
from gateway.settings import Settings
from services.common import registry
from services.common.server import create_server as create_rules_server


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway redis-server; yields its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (`.ci/run` installs it)")
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                data,
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=port)
        try:
            for _ in range(200):
                with contextlib.suppress(redis.ConnectionError):
                    if client.ping():
                        break
                time.sleep(0.02)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            client.close()
            process.terminate()
            process.wait(10)


@contextlib.contextmanager
def rules_servers() -> Iterator[dict[str, str]]:
    """Every registered game's rules service on a free port; yields name -> address."""
    servers = []
    addresses = {}
    for name, game in registry.games().items():
        server, port = create_rules_server("127.0.0.1:0", game)
        server.start()
        servers.append(server)
        addresses[name] = f"127.0.0.1:{port}"
    try:
        yield addresses
    finally:
        for server in servers:
            server.stop(0)


class GatewayProcess:
    """A gateway served by its own event loop on a background thread."""

    def __init__(self, settings: Settings, dispatcher: Dispatcher | None = None) -> None:
        self.settings = settings
        self.dispatcher = dispatcher
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0
        self.app: Gateway | None = None

    def run(self, coroutine):  # type: ignore[no-untyped-def]
        """Run a coroutine on the gateway's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)

    async def _start(self) -> None:
        self.app = await connect(self.settings)
        if self.dispatcher is not None:
            self.app.dispatcher = self.dispatcher
        self.gateway = create_server(self.app, "127.0.0.1:0")
        self.port = self.gateway.port
        await self.gateway.server.start()
        await self.gateway.set_health(health_pb2.HealthCheckResponse.SERVING)

    async def _stop(self) -> None:
        await self.gateway.server.stop(0)
        await self.gateway.fanout.close()
        assert self.app is not None
        await self.app.rules.close()
        await self.app.redis.aclose()

    def __enter__(self) -> GatewayProcess:
        self.thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        self.run(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def address(self) -> str:
        """Where clients connect."""
        return f"127.0.0.1:{self.port}"


def gateway_settings(redis_url: str, rules: dict[str, str], **changes: object) -> Settings:
    """Settings for a test gateway: the defaults a user gets, but for its Redis and rules services."""
    base = Settings(redis_url=redis_url, rules_addresses=tuple(rules.values()))
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

    @property
    def auth(self) -> tuple[tuple[str, str], ...]:
        """The call metadata carrying the token."""
        return (("authorization", f"Bearer {self.token}"),)

    def sign_in_as_guest(self, name: str) -> gateway_pb2.Session:
        """Create a guest and keep its token."""
        session = self.accounts.CreateGuest(gateway_pb2.CreateGuestRequest(display_name=name)).session
        self.token = session.token
        return session
