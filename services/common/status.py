"""Rich gRPC errors: a status code plus a `google.rpc.Status` carrying a `google.rpc.ErrorInfo`.

Engines raise `services.common.errors.RulesError`; this module turns those (and the servicer's own
checks) into statuses whose ErrorInfo tells a program what went wrong (`reason`, `metadata`) while
the message tells a person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from services.common.errors import RulesError

ERROR_DOMAIN = "boardgame"


def error_status(
    code: grpc.StatusCode,
    reason: str,
    message: str,
    metadata: Mapping[str, str] | None = None,
    details: Sequence[Message] = (),
) -> grpc.Status:
    """A status with `code`, a readable `message`, an ErrorInfo detail (domain "boardgame") and any
    further `details` (such as a RetryInfo)."""
    info = error_details_pb2.ErrorInfo(domain=ERROR_DOMAIN, reason=reason, metadata=dict(metadata or {}))
    packed = []
    for detail in (info, *details):
        packed.append(any_pb2.Any())
        packed[-1].Pack(detail, deterministic=True)
    status = status_pb2.Status(code=code.value[0], message=message, details=packed)
    return rpc_status.to_status(status)


def status_code(name: str) -> grpc.StatusCode:
    """The gRPC code called `name`; INVALID_ARGUMENT for an unknown name or OK (an error is never OK)."""
    code = grpc.StatusCode.__members__.get(name, grpc.StatusCode.INVALID_ARGUMENT)
    return grpc.StatusCode.INVALID_ARGUMENT if code is grpc.StatusCode.OK else code


def rules_error_status(err: RulesError) -> grpc.Status:
    """The status of a rules error: its code, its message, and ErrorInfo(reason, metadata)."""
    return error_status(status_code(err.code), err.reason, err.message, err.metadata)


def abort(context: grpc.ServicerContext, status: grpc.Status) -> NoReturn:
    """End the RPC served by `context` with `status`; never returns."""
    context.abort_with_status(status)
    raise AssertionError("abort_with_status returned")


def abort_with_error(context: grpc.ServicerContext, err: RulesError) -> NoReturn:
    """End the RPC served by `context` with the status of a rules error; never returns."""
    abort(context, rules_error_status(err))


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo detail of a failed call, or None when it carries none."""
    status = rpc_status.from_call(error)
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return None
