"""Bootstrap of a rules service: gRPC server with health, reflection and metrics, run until signalled.

Every game's entry point delegates here:

- `create_server(address, game)` builds a server (not started) and returns it with its bound port;
- `serve(game)` reads the environment, starts /metrics and the server, and stops gracefully on
  SIGTERM or SIGINT;
- `main(game_name)` configures logging and serves a game of the registry.

Environment: RULES_ADDRESS (default "[::]:50051"), METRICS_PORT (empty or "off" disables /metrics),
SHUTDOWN_GRACE_SECONDS (default 5), RULES_MAX_WORKERS (default 8), RULES_STATE_CACHE (how many
decoded states to keep, default 1024, 0 disables), RULES_MAX_CONNECTION_AGE_SECONDS (default 300, 0:
never), LOG_LEVEL (default INFO).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Mapping, Sequence
from concurrent import futures
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from services.common import registry
from services.common.decoding import DecodingInterceptor
from services.common.game import AnyGame
from services.common.logs import configure_logging
from services.common.metrics import MetricsInterceptor, metrics_port_from_env, start_metrics_server
from services.common.servicer import SERVICE_NAME, RulesServicer, add_to_server
from services.common.statecache import DEFAULT_STATE_CACHE, state_cache_size_from_env

log = logging.getLogger(__name__)

DEFAULT_ADDRESS = "[::]:50051"
DEFAULT_MAX_WORKERS = 8
DEFAULT_GRACE_SECONDS = 5.0
# How often the main thread wakes while it serves, so that a SIGTERM the kernel handed to one of gRPC's
# threads is acted on: Python runs signal handlers in the main thread only, and a main thread asleep in
# a lock (an Event's wait) does not wake for a signal another thread received.
SIGNAL_CHECK_SECONDS = 0.5
# A client's connection is closed (GOAWAY, calls in flight given DEFAULT_GRACE_SECONDS) after this long,
# so that clients dialling dns:///NAME ask DNS again and reach replicas started since: gRPC resolves a
# name again when a connection ends, never on a timer.
DEFAULT_MAX_CONNECTION_AGE_SECONDS = 300.0


def create_server(
    address: str,
    game: AnyGame,
    *,
    max_workers: int = DEFAULT_MAX_WORKERS,
    state_cache: int = DEFAULT_STATE_CACHE,
    health_servicer: health.HealthServicer | None = None,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
    max_connection_age: float = DEFAULT_MAX_CONNECTION_AGE_SECONDS,
) -> tuple[grpc.Server, int]:
    """A server (not started) for `game` bound to `address`, and the port it bound ("…:0": any free port).

    `state_cache` is how many decoded states the servicer keeps (0: none); `interceptors` run after
    the one refusing requests that do not decode (`services.common.decoding`) and before the metrics
    one; a client's connection is closed after `max_connection_age` seconds (0: never)."""
    # Without so_reuseport 0, a second server on a busy port would start and silently share it.
    options: list[tuple[str, int]] = [("grpc.so_reuseport", 0)]
    if max_connection_age > 0:
        options += [
            ("grpc.max_connection_age_ms", int(max_connection_age * 1000)),
            ("grpc.max_connection_age_grace_ms", int(DEFAULT_GRACE_SECONDS * 1000)),
        ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rules"),
        interceptors=[DecodingInterceptor(), *interceptors, MetricsInterceptor()],
        options=options,
    )
    add_to_server(RulesServicer(game, state_cache=state_cache), server)
    health_servicer = health_servicer or health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ("", SERVICE_NAME):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(address)
    if not port:
        raise RuntimeError(f"could not bind the rules service to {address}")
    return server, port


def serve(game: AnyGame, environ: Mapping[str, str] = os.environ) -> None:
    """Serve `game` as configured by the environment until SIGTERM or SIGINT, then stop gracefully."""
    address = environ.get("RULES_ADDRESS", DEFAULT_ADDRESS)
    grace = float(environ.get("SHUTDOWN_GRACE_SECONDS", DEFAULT_GRACE_SECONDS))
    max_workers = int(environ.get("RULES_MAX_WORKERS", DEFAULT_MAX_WORKERS))
    state_cache = state_cache_size_from_env(environ.get("RULES_STATE_CACHE"))
    max_connection_age = float(
        environ.get("RULES_MAX_CONNECTION_AGE_SECONDS", DEFAULT_MAX_CONNECTION_AGE_SECONDS)
    )
    metrics_port = metrics_port_from_env(environ)

    health_servicer = health.HealthServicer()
    server, port = create_server(
        address,
        game,
        max_workers=max_workers,
        state_cache=state_cache,
        health_servicer=health_servicer,
        max_connection_age=max_connection_age,
    )
    metrics = start_metrics_server(metrics_port) if metrics_port is not None else None

    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    server.start()
    log.info(
        "rules service listening",
        extra={
            "game": game.info.name,
            "address": address,
            "port": port,
            "metrics_port": metrics.port if metrics else None,
            "state_cache": state_cache,
            "max_connection_age_seconds": max_connection_age,
        },
    )
    try:
        while not stopping.wait(SIGNAL_CHECK_SECONDS):
            pass
    finally:
        health_servicer.enter_graceful_shutdown()
        log.info("rules service stopping", extra={"game": game.info.name, "grace_seconds": grace})
        server.stop(grace).wait()
        if metrics:
            metrics.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        log.info("rules service stopped", extra={"game": game.info.name})


def main(game_name: str) -> None:
    """Configure logging and serve the registered game called `game_name`."""
    configure_logging()
    serve(registry.get(game_name))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: python -m services.common.server GAME  (one of: {', '.join(registry.games())})")
    main(sys.argv[1])
