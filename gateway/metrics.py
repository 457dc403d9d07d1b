"""Gateway metrics: RPCs by method and code with latency (unary calls) or lifetime (streams), live
games and lobbies by title, open watch streams, and the calls gRPC core took but never handed to the
gateway. The RPC metrics share names with the rules services'; moves and write conflicts are counted
by the write path (`live.metrics`)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import grpc
import prometheus_client
from grpc._cython import cygrpc
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from gateway import encoded
from live import keys
from live.table import Table
from services.common.metrics import MESSAGES_SENT, record_rpc, record_start, record_stream, split_method

LIVE_GAMES = prometheus_client.Gauge("gateway_live_games", "Games being played, by title.", ["title"])
OPEN_LOBBIES = prometheus_client.Gauge("gateway_open_lobbies", "Public open lobbies, by title.", ["title"])
WATCH_STREAMS = prometheus_client.Gauge("gateway_watch_streams", "Watch streams open on this gateway.")
WATCH_REPLIES = prometheus_client.Counter(
    "gateway_watch_replies_total",
    "Watch replies of a change, by whether they were encoded for their watcher or shared: encoded once "
    "for another watcher of the same seat (`gateway.seat_views`).",
    ["encoding"],
)


GAUGE_REFRESH_SECONDS = 15.0

log = logging.getLogger(__name__)


def _code(context: grpc.aio.ServicerContext, error: BaseException | None) -> str:
    """The status the call ended with: the one set on it, else CANCELLED when the client went away
    (grpc.aio cancels the handler's task), UNKNOWN for any other failure, OK."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if isinstance(code, int):
        return next((status.name for status in grpc.StatusCode if status.value[0] == code), "UNKNOWN")
    if isinstance(error, asyncio.CancelledError):
        return grpc.StatusCode.CANCELLED.name
    return "OK" if error is None else "UNKNOWN"


async def refresh_gauges(app: Table) -> None:
    """Every few seconds, set the live-game and open-lobby gauges from Redis (shared by all replicas),
    and log calls gRPC core dropped meanwhile (nothing else would)."""
    unserved = 0
    while True:
        for title in app.rules.titles:
            LIVE_GAMES.labels(title).set(await app.redis.scard(keys.live_games(title)))
            OPEN_LOBBIES.labels(title).set(await app.redis.zcard(keys.open_lobbies_of(title)))
        unserved = note_unserved(unserved)
        await asyncio.sleep(GAUGE_REFRESH_SECONDS)


def note_unserved(before: int) -> int:
    """Log a warning when more calls went unserved than `before` (gateway_calls_unserved); the count now."""
    now = UNSERVED.unserved()
    if now > before:
        log.warning(
            "gRPC core dropped or still holds calls no handler took; raise MAX_PENDING_CALLS or add replicas",
            extra={"unserved": now, "new": now - before},
        )
    return now


def _channelz_server_ids() -> set[int]:
    """The channelz ids of the gRPC servers of this process."""
    ids: set[int] = set()
    start = 0
    while True:
        page = json.loads(cygrpc.channelz_get_servers(start))
        ids.update(int(server["ref"]["serverId"]) for server in page.get("server", ()))
        if page.get("end", True) or not ids:
            return ids
        start = max(ids) + 1


def _core_calls_started(server_id: int) -> int | None:
    """Calls gRPC core took on a server (channelz), None once the server is gone."""
    try:
        server = json.loads(cygrpc.channelz_get_server(server_id))["server"]
    except (ValueError, KeyError):
        return None
    return int(server.get("data", {}).get("callsStarted", 0))


class UnservedCalls(Collector):
    """`gateway_calls_unserved`: calls gRPC core accepted on this process's gateway servers that no
    handler began: refused (the client gets CANCELLED) because more calls were waiting than
    MAX_PENDING_CALLS allows, or, for a moment, still waiting. Core does not count them itself."""

    def __init__(self) -> None:
        self.servers: dict[int, MetricsInterceptor] = {}  # channelz id -> the server's interceptor

    def watch(self, server_id: int, interceptor: MetricsInterceptor) -> None:
        """Count the calls of a server, whose calls `interceptor` sees."""
        self.servers[server_id] = interceptor

    def unserved(self) -> int:
        """Calls core took that no handler began, over every server still running."""
        total = 0
        for server_id, interceptor in list(self.servers.items()):
            core = _core_calls_started(server_id)
            if core is None:
                del self.servers[server_id]
                continue
            total += max(0, core - interceptor.started)
        return total

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The gauge, summed over this process's gateway servers."""
        yield GaugeMetricFamily(
            "gateway_calls_unserved",
            "Calls gRPC core accepted that no handler began: refused for a full pending-call backlog "
            "(MAX_PENDING_CALLS), or still waiting in it.",
            value=self.unserved(),
        )


UNSERVED = UnservedCalls()
prometheus_client.REGISTRY.register(UNSERVED)


def create_counted_server(interceptors: list[grpc.aio.ServerInterceptor], **kwargs: Any) -> grpc.aio.Server:
    """A grpc.aio server with a MetricsInterceptor after `interceptors`, whose unserved calls are
    counted (its channelz id is the one that appears as it is made)."""
    metrics = MetricsInterceptor()
    before = _channelz_server_ids()
    server = grpc.aio.server(interceptors=[*interceptors, metrics], **kwargs)
    created = _channelz_server_ids() - before
    if len(created) == 1:  # another thread making a server at the same time: count neither
        UNSERVED.watch(created.pop(), metrics)
    return server


class MetricsInterceptor(grpc.aio.ServerInterceptor):
    """Counts and times every RPC of an aio server by method and final status code."""

    def __init__(self) -> None:
        self.wrapped: dict[str, grpc.RpcMethodHandler] = {}  # a method's handler, wrapped once
        self.started = 0  # calls that reached this interceptor, known methods or not

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        """The call's handler, wrapped to record the call (each method's handler is wrapped once)."""
        self.started += 1
        wrapped = self.wrapped.get(details.method)
        if wrapped is None:
            handler = await continuation(details)
            if handler is None:
                return handler
            wrapped = self.wrapped[details.method] = written(metered(details.method, handler))
        return wrapped


def written(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """A streaming `handler` served by a coroutine that writes each reply with `context.write` and
    closes the replies as soon as the call ends (others are left as they are). gRPC iterating a
    generator itself leaves it suspended where it yielded when the call is cancelled as a reply is
    being written, so its `finally` blocks (a watch stream's place and subscription) wait for the
    garbage collector. A reply encoded once (`gateway.encoded`) is sent as its bytes."""
    if not handler.unary_stream:
        return handler
    stream = handler.unary_stream

    async def writing(request: Any, context: grpc.aio.ServicerContext) -> None:
        async with contextlib.aclosing(stream(request, context)) as replies:
            async for reply in replies:
                await context.write(reply)

    return grpc.unary_stream_rpc_method_handler(
        writing, handler.request_deserializer, encoded.serializer(handler.response_serializer)
    )


def metered(method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """`handler` of the full method name `method`, wrapped to count and time each call by its final
    code (the native server's interceptor and the browser transport both serve through it)."""
    names = split_method(method)
    if handler.unary_unary:
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            started, error = record_start(*names), None
            try:
                return await behavior(request, context)
            except BaseException as raised:
                error = raised
                raise
            finally:
                record_rpc(*names, _code(context, error), started)

        return grpc.unary_unary_rpc_method_handler(
            unary, handler.request_deserializer, handler.response_serializer
        )
    if handler.unary_stream:
        stream = handler.unary_stream
        sent = MESSAGES_SENT.labels(*names)

        async def streaming(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            started, error = record_start(*names), None
            try:
                replies = stream(request, context)
                if inspect.isawaitable(replies):  # a handler writing with context.write (health Watch)
                    await replies
                    return
                async with contextlib.aclosing(replies):
                    async for item in replies:
                        sent.inc()
                        yield item
            except BaseException as raised:
                error = raised
                raise
            finally:
                record_stream(*names, _code(context, error), started)

        return grpc.unary_stream_rpc_method_handler(
            streaming, handler.request_deserializer, handler.response_serializer
        )
    return handler
