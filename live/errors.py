"""Refusals of the live table (and of the gateway's calls): each carries a gRPC code and an ErrorInfo
reason, as in the architecture's table."""

from __future__ import annotations

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from services.common.errors import echoed
from services.common.status import error_status

# What a refusal may echo of a request, so that no trailer outgrows what clients accept (8 KiB of
# metadata by default): the message percent-encoded and the details base64-encoded both count.
MESSAGE_BYTES = 512
METADATA_VALUE_BYTES = 128


def clipped(value: str, limit: int) -> str:
    """`value` cut to at most `limit` bytes of UTF-8 (on a character boundary), marked "..." if cut."""
    encoded = value.encode()
    if len(encoded) <= limit:
        return value
    return encoded[: limit - 3].decode(errors="ignore") + "..."


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


def quota_exceeded(quota: str, limit: int, message: str) -> GatewayError:
    """RESOURCE_EXHAUSTED: the caller holds as many of something (watch streams, open lobbies) as its
    quota allows; metadata `quota` names it and `limit` gives the quota."""
    return GatewayError(
        grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED", message, quota=quota, limit=str(limit)
    )
