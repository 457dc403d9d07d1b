"""Requests whose bytes do not decode as their message: refused as INVALID_ARGUMENT with reason
MALFORMED_REQUEST and a readable message, like any other malformed request.

gRPC itself answers a request its deserializer cannot parse with UNKNOWN (grpc.aio) or INTERNAL
(the thread-pool server), which the error table keeps for bugs. The interceptors here give every
unary-request method a deserializer that hands the handler an `Undecodable` instead of raising, and a
behaviour that refuses it before the method runs. One for each kind of server: `DecodingInterceptor`
(rules services), `AioDecodingInterceptor` (the gateway).
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from services.common.status import error_status

REASON = "MALFORMED_REQUEST"
Deserializer = Callable[[bytes], Any]


@dataclass(frozen=True)
class Undecodable:
    """A request that did not decode: what it should have been and why it is not."""

    problem: str

    def status(self) -> grpc.Status:
        """The refusal: INVALID_ARGUMENT, MALFORMED_REQUEST, the parser's reason."""
        return error_status(
            grpc.StatusCode.INVALID_ARGUMENT, REASON, f"the request does not decode: {self.problem}"
        )


def tolerant(deserializer: Deserializer) -> Deserializer:
    """`deserializer`, returning an Undecodable where it would raise DecodeError."""

    def parse(data: bytes) -> Any:
        try:
            return deserializer(data)
        except DecodeError as error:
            return Undecodable(str(error))

    return parse


def _rebuilt(handler: grpc.RpcMethodHandler, wrap: Callable[[Any], Any]) -> grpc.RpcMethodHandler:
    """`handler` with a tolerant deserializer and its unary-request behaviour wrapped by `wrap`
    (methods that stream requests, or take raw bytes, are left as they are)."""
    if handler.request_deserializer is None or handler.request_streaming:
        return handler
    kwargs = {
        "request_deserializer": tolerant(handler.request_deserializer),
        "response_serializer": handler.response_serializer,
    }
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(wrap(handler.unary_unary), **kwargs)
    return grpc.unary_stream_rpc_method_handler(wrap(handler.unary_stream), **kwargs)


def _refusing(behavior: Callable[[Any, grpc.ServicerContext], Any]) -> Callable[..., Any]:
    def refusing(request: Any, context: grpc.ServicerContext) -> Any:
        if isinstance(request, Undecodable):
            context.abort_with_status(request.status())
        return behavior(request, context)

    return refusing


def _refusing_async(behavior: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isasyncgenfunction(behavior):

        async def refusing_stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if isinstance(request, Undecodable):
                await _abort(request, context)
            async with contextlib.aclosing(behavior(request, context)) as responses:
                async for response in responses:
                    yield response

        return refusing_stream

    async def refusing(request: Any, context: grpc.aio.ServicerContext) -> Any:
        if isinstance(request, Undecodable):
            await _abort(request, context)
        return await behavior(request, context)

    return refusing


async def _abort(request: Undecodable, context: grpc.aio.ServicerContext) -> None:
    status = request.status()
    await context.abort(status.code, status.details, status.trailing_metadata)


class Wrapped:
    """Each method's handler wrapped once. The interceptors after this one still see every call (they
    may note something per call, as the gateway's rate classes do): the wrapping is reused only while
    they hand back the same handler."""

    def __init__(self, wrap: Callable[[Any], Any]) -> None:
        self.wrap = wrap
        self.handlers: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    def of(self, method: str, handler: grpc.RpcMethodHandler | None) -> grpc.RpcMethodHandler | None:
        """`handler` (of `method`) refusing requests that do not decode; None for no handler."""
        if handler is None:
            return None
        known = self.handlers.get(method)
        if known is None or known[0] is not handler:
            known = self.handlers[method] = (handler, _rebuilt(handler, self.wrap))
        return known[1]


class DecodingInterceptor(grpc.ServerInterceptor):
    """For a thread-pool server: undecodable requests refused as MALFORMED_REQUEST."""

    def __init__(self) -> None:
        self.wrapped = Wrapped(_refusing)

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """The method's handler, refusing requests that do not decode."""
        return self.wrapped.of(details.method, continuation(details))


class AioDecodingInterceptor(grpc.aio.ServerInterceptor):
    """For a grpc.aio server: undecodable requests refused as MALFORMED_REQUEST."""

    def __init__(self) -> None:
        self.wrapped = Wrapped(_refusing_async)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        """The method's handler, refusing requests that do not decode."""
        return self.wrapped.of(details.method, await continuation(details))
