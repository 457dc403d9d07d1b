"""Prometheus metrics for gRPC servers: an interceptor counting and timing every RPC, and /metrics.

The metric names and labels follow the usual gRPC server conventions, so stock dashboards work:
`grpc_server_started_total` by service and method, `grpc_server_handled_total` by service, method and
status code, `grpc_server_handling_seconds` (unary calls) and `grpc_server_stream_seconds` (how long
server streams stay open, kept apart so that hour-long watch streams do not swamp call latency), with
`grpc_server_msg_sent_total` counting streamed messages. The code is the one the handler set (OK
when it set none); a handler that raised without aborting is counted as UNKNOWN, which is what the
client receives, and a call the client cancelled as CANCELLED.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import grpc
import prometheus_client

HANDLED = prometheus_client.Counter(
    "grpc_server_handled_total",
    "RPCs completed on the server, by status code.",
    ["grpc_service", "grpc_method", "grpc_code"],
)
HANDLING_SECONDS = prometheus_client.Histogram(
    "grpc_server_handling_seconds",
    "Time the server took to handle an RPC, by status code.",
    ["grpc_service", "grpc_method", "grpc_code"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

STARTED = prometheus_client.Counter(
    "grpc_server_started_total", "RPCs started on the server.", ["grpc_service", "grpc_method"]
)
STREAM_SECONDS = prometheus_client.Histogram(
    "grpc_server_stream_seconds",
    "How long server streams stayed open, by status code.",
    ["grpc_service", "grpc_method", "grpc_code"],
    buckets=(0.1, 1.0, 10.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 7200.0),
)
MESSAGES_SENT = prometheus_client.Counter(
    "grpc_server_msg_sent_total", "Messages sent on server streams.", ["grpc_service", "grpc_method"]
)

Behavior = Callable[[Any, grpc.ServicerContext], Any]


def split_method(full_method: str) -> tuple[str, str]:
    """The (service, method) of a full method name such as "/pkg.Service/Method"."""
    service, _, method = full_method.lstrip("/").rpartition("/")
    return service or "unknown", method or "unknown"


def _final_code(context: grpc.ServicerContext, raised: bool) -> str:
    """The status code name an RPC ended with, as the client sees it."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if not raised:
        return grpc.StatusCode.OK.name
    return grpc.StatusCode.UNKNOWN.name if context.is_active() else grpc.StatusCode.CANCELLED.name


class MetricsInterceptor(grpc.ServerInterceptor):
    """Records `grpc_server_handled_total` and `grpc_server_handling_seconds` for every RPC."""

    def __init__(self) -> None:
        self.wrapped: dict[str, grpc.RpcMethodHandler] = {}  # a method's handler, wrapped once

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """The method's handler, wrapped so that its outcome and duration are recorded (each method's
        handler is wrapped once; the server's threads may race to wrap it, which is harmless)."""
        name = handler_call_details.method
        wrapped = self.wrapped.get(name)
        if wrapped is None:
            handler = continuation(handler_call_details)
            if handler is None:
                return None
            wrapped = self.wrapped[name] = _wrap(name, handler)
        return wrapped


def _wrap(full_method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """`handler`, recording each call's outcome and duration."""
    service, method = split_method(full_method)
    kwargs = {
        "request_deserializer": handler.request_deserializer,
        "response_serializer": handler.response_serializer,
    }
    if handler.unary_unary:
        return grpc.unary_unary_rpc_method_handler(
            _timed_unary(handler.unary_unary, service, method), **kwargs
        )
    if handler.stream_unary:
        return grpc.stream_unary_rpc_method_handler(
            _timed_unary(handler.stream_unary, service, method), **kwargs
        )
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(
            _timed_stream(handler.unary_stream, service, method), **kwargs
        )
    return grpc.stream_stream_rpc_method_handler(
        _timed_stream(handler.stream_stream, service, method), **kwargs
    )


def record_start(service: str, method: str) -> float:
    """Count one RPC started; the perf_counter time it started at."""
    STARTED.labels(service, method).inc()
    return time.perf_counter()


def record_rpc(service: str, method: str, code: str, started: float) -> None:
    """Count one finished unary RPC and observe its duration."""
    HANDLED.labels(service, method, code).inc()
    HANDLING_SECONDS.labels(service, method, code).observe(time.perf_counter() - started)


def record_stream(service: str, method: str, code: str, started: float) -> None:
    """Count one finished streaming RPC and observe how long it stayed open."""
    HANDLED.labels(service, method, code).inc()
    STREAM_SECONDS.labels(service, method, code).observe(time.perf_counter() - started)


def _timed_unary(behavior: Behavior, service: str, method: str) -> Behavior:
    """A behavior returning one response, wrapped to record its outcome."""

    def timed(request: Any, context: grpc.ServicerContext) -> Any:
        started = record_start(service, method)
        raised = True
        try:
            response = behavior(request, context)
            raised = False
            return response
        finally:
            record_rpc(service, method, _final_code(context, raised), started)

    return timed


def _timed_stream(behavior: Behavior, service: str, method: str) -> Behavior:
    """A behavior returning a response stream, wrapped to record its outcome when the stream ends."""

    def timed(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        started = record_start(service, method)
        sent = MESSAGES_SENT.labels(service, method)
        raised = True
        try:
            for message in behavior(request, context):
                sent.inc()
                yield message
            raised = False
        finally:
            record_stream(service, method, _final_code(context, raised), started)

    return timed


@dataclass
class MetricsServer:
    """A running /metrics HTTP server and the port it is bound to."""

    port: int
    _server: Any
    _thread: Any

    def stop(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def metrics_port_from_env(environ: Mapping[str, str]) -> int | None:
    """The METRICS_PORT to serve /metrics on; None when it is unset, empty or "off"."""
    value = environ.get("METRICS_PORT", "").strip()
    if value.lower() in ("", "off"):
        return None
    port = int(value)
    if not 0 <= port <= 65535:
        raise ValueError(f"METRICS_PORT must be a port number, 0 or off, not {value!r}")
    return port


def start_metrics_server(port: int, address: str = "0.0.0.0") -> MetricsServer:
    """Serve the default Prometheus registry over HTTP on `port` (0: any free port) in a thread."""
    server, thread = prometheus_client.start_http_server(port, addr=address)
    return MetricsServer(port=server.server_port, _server=server, _thread=thread)
