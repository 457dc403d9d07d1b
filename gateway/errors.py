"""Gateway refusals: each carries a gRPC code and an ErrorInfo reason, as in the architecture's table."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, NoReturn, TypeVar

import grpc
import redis.exceptions
from google.protobuf import message
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from gateway.validation import first_violation
from services.common.status import error_status

log = logging.getLogger(__name__)

# What a refusal may echo of a request, so that no trailer outgrows what clients accept (8 KiB of
# metadata by default): the message percent-encoded and the details base64-encoded both count.
MESSAGE_BYTES = 512
METADATA_VALUE_BYTES = 128
ECHOED_CHARACTERS = 64


def clipped(value: str, limit: int) -> str:
    """`value` cut to at most `limit` bytes of UTF-8 (on a character boundary), marked "..." if cut."""
    encoded = value.encode()
    if len(encoded) <= limit:
        return value
    return encoded[: limit - 3].decode(errors="ignore") + "..."


def echoed(value: str) -> str:
    """A value of the request as a message quotes it: its first ECHOED_CHARACTERS characters."""
    return repr(value if len(value) <= ECHOED_CHARACTERS else value[:ECHOED_CHARACTERS] + "...")


class GatewayError(Exception):
    """A refusal with its gRPC code, ErrorInfo reason and readable message; `field_violations` (path,
    description) become a `google.rpc.BadRequest` detail."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, **metadata: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = metadata
        self.field_violations: tuple[tuple[str, str], ...] = ()

    def details(self) -> list[Message]:
        """The details after the ErrorInfo: a BadRequest naming the fields at fault, if any."""
        if not self.field_violations:
            return []
        violations = [
            error_details_pb2.BadRequest.FieldViolation(field=field, description=description)
            for field, description in self.field_violations
        ]
        return [error_details_pb2.BadRequest(field_violations=violations)]

    def status(self) -> grpc.Status:
        """The rich status of this refusal, its message and metadata values clipped."""
        return error_status(
            self.code,
            self.reason,
            clipped(self.message, MESSAGE_BYTES),
            {name: clipped(value, METADATA_VALUE_BYTES) for name, value in self.metadata.items()},
            self.details(),
        )


def invalid(reason: str, message: str, **metadata: str) -> GatewayError:
    """INVALID_ARGUMENT: a malformed request or an illegal move."""
    return GatewayError(grpc.StatusCode.INVALID_ARGUMENT, reason, message, **metadata)


def bad_request(request: message.Message) -> GatewayError | None:
    """INVALID_ARGUMENT for the request's first field outside its limits (see `gateway.validation`),
    naming the field in the message, the ErrorInfo metadata and a BadRequest detail; None if all fit."""
    violation = first_violation(request)
    if violation is None:
        return None
    error = invalid(violation.reason, f"{violation.path} {violation.description}", field=violation.path)
    error.field_violations = ((violation.path, violation.description),)
    return error


def precondition(reason: str, message: str, **metadata: str) -> GatewayError:
    """FAILED_PRECONDITION: not your turn, game over, lobby full."""
    return GatewayError(grpc.StatusCode.FAILED_PRECONDITION, reason, message, **metadata)


def not_found(what: str, ident: str) -> GatewayError:
    """NOT_FOUND: an unknown game, lobby, title or player."""
    return GatewayError(grpc.StatusCode.NOT_FOUND, f"{what.upper()}_NOT_FOUND", f"no {what} {echoed(ident)}")


def unauthenticated(message: str) -> GatewayError:
    """UNAUTHENTICATED: no token, or a bad or expired one."""
    return GatewayError(grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED", message)


def permission_denied(message: str) -> GatewayError:
    """PERMISSION_DENIED: acting for another seat, or a host-only call by someone else."""
    return GatewayError(grpc.StatusCode.PERMISSION_DENIED, "PERMISSION_DENIED", message)


def unavailable(reason: str, message: str) -> GatewayError:
    """UNAVAILABLE: Redis or a rules service is down; nothing was written."""
    return GatewayError(grpc.StatusCode.UNAVAILABLE, reason, message)


async def abort(context: grpc.aio.ServicerContext, error: GatewayError) -> NoReturn:
    """End the call with the error's rich status."""
    status = error.status()
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("abort returned")


def _translate(error: Exception) -> GatewayError:
    if isinstance(error, GatewayError):
        return error
    if isinstance(error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
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


def stream_rpc(handler: Callable[..., AsyncIterator[R]]) -> Callable[..., AsyncIterator[R]]:
    """Wrap a server-streaming async RPC method the same way."""

    @functools.wraps(handler)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[R]:
        try:
            refusal = bad_request(request)
            if refusal is not None:
                raise refusal
            async for item in handler(self, request, context):
                yield item
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await abort(context, _translate(error))

    return wrapper
