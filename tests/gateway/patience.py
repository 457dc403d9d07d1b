"""A test client that behaves as the docs ask of every client: a unary call refused as RATE_LIMITED is
sent again after the `retry_after_ms` the refusal gives. Tests that play or set up faster than a
person would use it; the rate-limit tests use plain channels, to see the refusals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc

from services.common.status import error_info

MAX_RETRIES = 100


def rate_limit_delay(error: grpc.RpcError) -> float | None:
    """Seconds a RATE_LIMITED refusal asks to wait; None for any other error."""
    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    info = error_info(error)
    if info is None or info.reason != "RATE_LIMITED":
        return None
    return int(info.metadata["retry_after_ms"]) / 1000


class RetryRateLimited(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Sends a unary call again, after the delay asked for, while it is refused as RATE_LIMITED."""

    def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        """The first outcome that is not a RATE_LIMITED refusal."""
        for _ in range(MAX_RETRIES):
            outcome = continuation(client_call_details, request)
            error = outcome.exception()
            delay = rate_limit_delay(error) if isinstance(error, grpc.RpcError) else None
            if delay is None:
                return outcome
            time.sleep(delay)
        return outcome


def patient_channel(address: str) -> grpc.Channel:
    """An insecure channel to `address` whose unary calls wait out rate limits."""
    return grpc.intercept_channel(grpc.insecure_channel(address), RetryRateLimited())
