"""Gateway entry point: every client-facing service on one grpc.aio server, with health, reflection
and metrics.

- `create_server(app, address)` builds the server (not started) and returns it with its bound port;
- `serve()` reads the environment, connects Redis and the rules services, serves until SIGTERM/SIGINT;
- `main()` configures logging and runs `serve()`.

Environment: live.settings.Settings.from_env lists the variables; also METRICS_PORT,
SHUTDOWN_GRACE_SECONDS (default 5) and the browser listener's WEB_* (gateway.browser).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import grpc
import uvloop
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from gateway import api, matchmaking
from gateway.browser import WebServer, WebSettings
from gateway.fanout import Fanout
from gateway.limits import RateClassInterceptor
from gateway.metrics import create_counted_server, refresh_gauges
from gateway.play import GameServicer
from gateway.services import Servicers, add_services
from gateway.watch_leases import WatchLeases
from live.settings import Settings
from live.table import Table, connect
from services.common.decoding import AioDecodingInterceptor
from services.common.logs import configure_logging
from services.common.metrics import metrics_port_from_env, start_metrics_server

log = logging.getLogger(__name__)
EXIT_MISCONFIGURED = 2  # as a command given bad arguments

SERVICES = tuple(service.full_name for service in api.services())
DEFAULT_GRACE_SECONDS = 5.0
# The longest one step of the shutdown after the grace period may take before it is abandoned (and
# logged), so that a stuck close (a Redis node that stopped answering mid-command) never keeps a
# gateway from exiting.
SHUTDOWN_STEP_SECONDS = 10.0


@dataclass
class GatewayServer:
    """A gateway server (not started), the port it bound, its watch fan-out and leases, its health
    servicer, and the servicer of live play (which the browser transport shares)."""

    server: grpc.aio.Server
    port: int
    fanout: Fanout
    leases: WatchLeases
    health: health.aio.HealthServicer
    servicers: Servicers

    async def close_streams(self) -> None:
        """Stop the watch streams' and the matcher's background work (after the server stopped)."""
        await self.servicers.matcher.close()
        await self.leases.close()
        await self.fanout.close()

    async def set_health(self, status: health_pb2.HealthCheckResponse.ServingStatus.ValueType) -> None:
        """Report every service of the gateway as `status`."""
        for service in ("", *SERVICES):
            await self.health.set(service, status)


def create_server(app: Table, address: str) -> GatewayServer:
    """A server (not started) with every gateway service, bound to `address` ("…:0": any free port)."""
    settings = app.settings
    app.followups.background = True  # a commit's tasks, due time and acknowledgement follow the reply
    server = create_counted_server(
        [AioDecodingInterceptor(), RateClassInterceptor()],
        options=[
            ("grpc.max_receive_message_length", settings.max_message_bytes),
            ("grpc.so_reuseport", 0),
            # The calls core holds while the event loop is busy (a burst of watch streams, a reconnect
            # storm): past the soft limit core refuses a growing share of new calls, all at the hard one.
            ("grpc.server.max_pending_requests", settings.max_pending_calls),
            ("grpc.server.max_pending_requests_hard_limit", 2 * settings.max_pending_calls),
        ],
    )
    fanout = Fanout(app.redis)
    leases = WatchLeases(app, fanout)
    servicers = Servicers(GameServicer(app, fanout, leases), matchmaking.Matcher(app))
    add_services(app, server, servicers)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((*SERVICES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot bind {address}")
    return GatewayServer(server, port, fanout, leases, health_servicer, servicers)


class Misconfigured(Exception):
    """A setting the gateway cannot start with (a bad REDIS_URL, a limit out of range, ...)."""


async def serve() -> None:
    """Run the gateway until SIGTERM or SIGINT, then stop gracefully; Misconfigured for a bad setting."""
    try:
        settings = Settings.from_env()
        web_settings = WebSettings.from_env()
        app = await connect(settings)
    except ValueError as error:
        raise Misconfigured(str(error)) from error
    gateway = create_server(app, settings.address)
    port_env = metrics_port_from_env(os.environ)
    if port_env is not None:
        start_metrics_server(port_env)
    web = WebServer(app, gateway.servicers, web_settings) if web_settings.address else None
    await gateway.server.start()
    gateway.servicers.matcher.start()
    if web is not None:
        await web.start()
    await gateway.set_health(health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "gateway serving",
        extra={
            "address": settings.address,
            "port": gateway.port,
            "web_port": web.port if web else None,
            "titles": sorted(app.rules.titles),
        },
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    gauges = asyncio.create_task(refresh_gauges(app))
    await stop.wait()
    await gateway.set_health(health_pb2.HealthCheckResponse.NOT_SERVING)
    gauges.cancel()
    grace = float(os.environ.get("SHUTDOWN_GRACE_SECONDS", DEFAULT_GRACE_SECONDS))
    await shut_down(app, gateway, web, grace)


async def shut_down(
    app: Table,
    gateway: GatewayServer,
    web: WebServer | None,
    grace: float,
) -> None:
    """Stop taking calls, end the open ones after `grace` seconds, then close what the gateway holds,
    each step bounded by SHUTDOWN_STEP_SECONDS."""
    steps: list[tuple[str, Callable[[], Awaitable[object]]]] = [
        ("the gRPC server", lambda: gateway.server.stop(grace)),
        ("the commits' follow-ups", app.followups.drain),
        ("the streams' background work", gateway.close_streams),
        ("the rules channels", app.rules.close),
        ("Redis", app.redis.aclose),
    ]
    if web is not None:
        steps.insert(0, ("the browser listener", lambda: web.stop(grace)))
    if app.archive is not None:
        steps.append(("the archive", app.archive.close))
    await run_bounded(steps, grace + SHUTDOWN_STEP_SECONDS)


async def run_bounded(steps: list[tuple[str, Callable[[], Awaitable[object]]]], bound: float) -> list[str]:
    """Run each named step in turn, each for at most `bound` seconds; the names of those abandoned.
    A step that overruns is cancelled and left, not waited for (`asyncio.wait_for` waits for a
    cancelled step to finish, so one that never does, such as a close stuck on a node, would hang
    the rest), and one that fails is logged; the next step runs either way."""
    abandoned = []
    for name, step in steps:
        task = asyncio.ensure_future(step())
        await asyncio.wait({task}, timeout=bound)
        if not task.done():
            task.cancel()
            abandoned.append(name)
            log.warning("shutdown: closing %s took over %.0f s; abandoned", name, bound)
        elif not task.cancelled() and (error := task.exception()) is not None:
            log.warning("shutdown: closing %s failed: %r", name, error)
    return abandoned


def main() -> None:
    """Configure logging and serve; a bad setting is one line of log and exit status 2."""
    configure_logging()
    try:
        uvloop.run(serve())
    except Misconfigured as error:
        log.error("the gateway cannot start: %s", error)
        sys.exit(EXIT_MISCONFIGURED)


if __name__ == "__main__":
    main()
