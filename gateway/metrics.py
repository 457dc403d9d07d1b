"""Gateway metrics: RPCs by method and code with latency, moves, write conflicts, live games and
lobbies by title, open watch streams. The RPC metrics share names with the rules services'."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import prometheus_client

from gateway import keys
from gateway.app import Gateway
from services.common.metrics import record_rpc, split_method

MOVES_APPLIED = prometheus_client.Counter(
    "gateway_moves_applied_total", "Moves committed, by title.", ["title"]
)
WRITE_CONFLICTS = prometheus_client.Counter(
    "gateway_write_conflicts_total", "Moves refused for a stale version, by title.", ["title"]
)
LIVE_GAMES = prometheus_client.Gauge("gateway_live_games", "Games being played, by title.", ["title"])
OPEN_LOBBIES = prometheus_client.Gauge("gateway_open_lobbies", "Public open lobbies, by title.", ["title"])
WATCH_STREAMS = prometheus_client.Gauge("gateway_watch_streams", "Watch streams open on this gateway.")


GAUGE_REFRESH_SECONDS = 15.0


def _code(context: grpc.aio.ServicerContext, failed: bool) -> str:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if isinstance(code, int):
        return next((status.name for status in grpc.StatusCode if status.value[0] == code), "UNKNOWN")
    return "UNKNOWN" if failed else "OK"


async def refresh_gauges(app: Gateway) -> None:
    """Every few seconds, set the live-game and open-lobby gauges from Redis (shared by all replicas)."""
    while True:
        for title in app.rules.titles:
            LIVE_GAMES.labels(title).set(await app.redis.scard(keys.live_games(title)))
            OPEN_LOBBIES.labels(title).set(await app.redis.zcard(keys.open_lobbies_of(title)))
        await asyncio.sleep(GAUGE_REFRESH_SECONDS)


def _record(names: tuple[str, str], context: grpc.aio.ServicerContext, started: float, failed: bool) -> None:
    record_rpc(*names, _code(context, failed), started)


class MetricsInterceptor(grpc.aio.ServerInterceptor):
    """Counts and times every RPC of an aio server by method and final status code."""

    def __init__(self) -> None:
        self.wrapped: dict[str, grpc.RpcMethodHandler] = {}  # a method's handler, wrapped once

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        """The call's handler, wrapped to record the call (each method's handler is wrapped once)."""
        wrapped = self.wrapped.get(details.method)
        if wrapped is None:
            handler = await continuation(details)
            if handler is None:
                return handler
            wrapped = self.wrapped[details.method] = self._wrap(details.method, handler)
        return wrapped

    @staticmethod
    def _wrap(method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        names = split_method(method)
        if handler.unary_unary:
            behavior = handler.unary_unary

            async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
                started, failed = time.perf_counter(), False
                try:
                    return await behavior(request, context)
                except BaseException:
                    failed = True
                    raise
                finally:
                    _record(names, context, started, failed)

            return grpc.unary_unary_rpc_method_handler(
                unary, handler.request_deserializer, handler.response_serializer
            )
        if handler.unary_stream:
            stream = handler.unary_stream

            async def streaming(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                started, failed = time.perf_counter(), False
                try:
                    async for item in stream(request, context):
                        yield item
                except BaseException:
                    failed = True
                    raise
                finally:
                    _record(names, context, started, failed)

            return grpc.unary_stream_rpc_method_handler(
                streaming, handler.request_deserializer, handler.response_serializer
            )
        return handler
