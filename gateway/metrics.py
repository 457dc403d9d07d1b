"""Gateway metrics: RPCs by method and code with latency, moves, write conflicts, live games and
lobbies by title, open watch streams. The RPC metrics share names with the rules services'."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import prometheus_client

from services.common.metrics import HANDLED, HANDLING_SECONDS, split_method

MOVES_APPLIED = prometheus_client.Counter(
    "gateway_moves_applied_total", "Moves committed, by title.", ["title"]
)
WRITE_CONFLICTS = prometheus_client.Counter(
    "gateway_write_conflicts_total", "Moves refused for a stale version, by title.", ["title"]
)
LIVE_GAMES = prometheus_client.Gauge("gateway_live_games", "Games being played, by title.", ["title"])
OPEN_LOBBIES = prometheus_client.Gauge("gateway_open_lobbies", "Public open lobbies, by title.", ["title"])
WATCH_STREAMS = prometheus_client.Gauge("gateway_watch_streams", "Watch streams open on this gateway.")


def _code(context: grpc.aio.ServicerContext, failed: bool) -> str:
    code = context.code()
    if code is None:
        return "UNKNOWN" if failed else "OK"
    if isinstance(code, grpc.StatusCode):
        return code.name
    return grpc.StatusCode(code).name if not isinstance(code, int) else _by_value(code)


def _by_value(value: int) -> str:
    for status in grpc.StatusCode:
        if status.value[0] == value:
            return status.name
    return "UNKNOWN"


def _record(method: str, context: grpc.aio.ServicerContext, started: float, failed: bool) -> None:
    service, name = split_method(method)
    code = _code(context, failed)
    HANDLED.labels(service, name, code).inc()
    HANDLING_SECONDS.labels(service, name, code).observe(time.perf_counter() - started)


class MetricsInterceptor(grpc.aio.ServerInterceptor):
    """Counts and times every RPC of an aio server by method and final status code."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        """Wrap the handler of the call."""
        handler = await continuation(details)
        if handler is None:
            return handler
        method = details.method
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
                    _record(method, context, started, failed)

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
                    _record(method, context, started, failed)

            return grpc.unary_stream_rpc_method_handler(
                streaming, handler.request_deserializer, handler.response_serializer
            )
        return handler
