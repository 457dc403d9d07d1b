"""The servicers' wrappers: a request outside its limits is refused before the method runs, and every
failure ends the call with the rich status of a `live.errors.GatewayError`, never UNKNOWN."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any, NoReturn, TypeVar

import grpc
from google.protobuf import message

from gateway.validation import first_violation
from live.connection import UNREACHABLE
from live.errors import GatewayError, invalid, unavailable

log = logging.getLogger(__name__)


def bad_request(request: message.Message) -> GatewayError | None:
    """INVALID_ARGUMENT for the request's first field outside its limits (see `gateway.validation`),
    naming the field in the message, the ErrorInfo metadata and a BadRequest detail; None if all fit."""
    violation = first_violation(request)
    if violation is None:
        return None
    error = invalid(violation.reason, f"{violation.path} {violation.description}", field=violation.path)
    error.field_violations = ((violation.path, violation.description),)
    return error


async def abort(context: grpc.aio.ServicerContext, error: GatewayError) -> NoReturn:
    """End the call with the error's rich status."""
    status = error.status()
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("abort returned")


def _translate(error: Exception) -> GatewayError:
    if isinstance(error, GatewayError):
        return error
    if isinstance(error, UNREACHABLE):
        return unavailable("STORE_UNAVAILABLE", "the game store is unreachable; nothing was changed")
    log.exception("gateway failure", exc_info=error)
    return GatewayError(
        grpc.StatusCode.INTERNAL, "GATEWAY_FAILURE", "the gateway failed; it logged the details"
    )


R = TypeVar("R")


def rpc(handler: Callable[..., Awaitable[R]]) -> Callable[..., Awaitable[R]]:
    """Wrap a unary async RPC method: a request with a field outside its limits is refused before the
    method runs (it reads nothing, so it may come before who asks is known), and every failure ends
    the call with a rich status, never UNKNOWN."""

    @functools.wraps(handler)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> R:
        try:
            refusal = bad_request(request)
            if refusal is not None:
                raise refusal
            return await handler(self, request, context)
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await abort(context, _translate(error))

    return wrapper


def stream_rpc(handler: Callable[..., AsyncGenerator[R, None]]) -> Callable[..., AsyncGenerator[R, None]]:
    """Wrap a server-streaming async RPC method the same way."""

    @functools.wraps(handler)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> AsyncGenerator[R, None]:
        try:
            refusal = bad_request(request)
            if refusal is not None:
                raise refusal
            async with contextlib.aclosing(handler(self, request, context)) as items:
                async for item in items:
                    yield item
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await abort(context, _translate(error))

    return wrapper
