"""The gateway for browsers: every client-facing service over the Connect protocol (and gRPC-Web),
served by connect-python on an ASGI server (uvicorn), with the web client's files on the same listener.

A browser cannot speak native gRPC. Here the very handlers the native server runs (the same servicer
methods, request checks, rate classes and metrics) are collected once and handed to connect-python,
which does all the wire work. A call's context stands in for grpc.aio's: its metadata is the request's
headers (so `authorization: Bearer <token>` signs in as over gRPC), and an abort becomes a ConnectError
with the same code, message and details (ErrorInfo first) as the native status.

Environment: WEB_ADDRESS (host:port, default [::]:8080; empty: no browser listener), WEB_ALLOWED_ORIGINS
(comma-separated origins a page on another site may call from; none by default: same origin only),
WEB_CLIENT_DIR (the built web client, default clients/web/dist of this repository).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

import grpc
import uvicorn
from connectrpc import _codec as connect_codecs
from connectrpc._codec import CODEC_NAME_JSON, CODEC_NAME_JSON_CHARSET_UTF8, ProtoJSONCodec
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format, message_factory
from google.protobuf import message as protobuf
from google.rpc import status_pb2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway import api, limits
from gateway.encoded import Encoded
from gateway.metrics import metered
from gateway.services import Servicers, add_services
from live.table import Table
from services.common.decoding import AioDecodingInterceptor, Undecodable

DEFAULT_WEB_ADDRESS = "[::]:8080"
WEB_CLIENT_DIR = Path(__file__).resolve().parent.parent / "clients" / "web" / "dist"
STATUS_DETAILS = "grpc-status-details-bin"
# What a page on an allowed origin may send and read (Connect's and gRPC-Web's headers).
REQUEST_HEADERS = (
    "authorization",
    "content-type",
    "connect-protocol-version",
    "connect-timeout-ms",
    "grpc-timeout",
    "x-grpc-web",
    "x-user-agent",
)
RESPONSE_HEADERS = ("grpc-status", "grpc-message", STATUS_DETAILS)
DECODING = AioDecodingInterceptor()  # its handlers refuse requests that do not decode
CONNECT_CODES: Mapping[grpc.StatusCode, Code] = {
    status: Code.CANCELED if status is grpc.StatusCode.CANCELLED else Code[status.name]
    for status in grpc.StatusCode
    if status is not grpc.StatusCode.OK
}


@dataclass(frozen=True)
class WebSettings:
    """Where the browser listener binds, the origins allowed to call it, and the web client's files."""

    address: str = DEFAULT_WEB_ADDRESS
    allowed_origins: tuple[str, ...] = ()
    client_dir: Path = WEB_CLIENT_DIR

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> WebSettings:
        """From WEB_ADDRESS, WEB_ALLOWED_ORIGINS and WEB_CLIENT_DIR (see the module's docstring)."""
        origins = tuple(o.strip() for o in environ.get("WEB_ALLOWED_ORIGINS", "").split(",") if o.strip())
        return cls(
            address=environ.get("WEB_ADDRESS", DEFAULT_WEB_ADDRESS).strip(),
            allowed_origins=origins,
            client_dir=Path(environ.get("WEB_CLIENT_DIR", str(WEB_CLIENT_DIR))),
        )


@dataclass
class Handlers:
    """Stands in for a grpc.aio.Server while the gateway's services register: keeps each method's
    handler by its full name ("/package.Service/Method")."""

    methods: dict[str, grpc.RpcMethodHandler] = field(default_factory=dict)

    def add_registered_method_handlers(
        self, service: str, handlers: Mapping[str, grpc.RpcMethodHandler]
    ) -> None:
        """Keep a service's handlers."""
        for name, handler in handlers.items():
            self.methods[f"/{service}/{name}"] = handler

    def add_generic_rpc_handlers(self, generic_handlers: Iterable[grpc.GenericRpcHandler]) -> None:
        """Ignored: the registered method handlers name the same methods."""


class BrowserCallContext:
    """The part of grpc.aio.ServicerContext the gateway's handlers use, for one Connect call."""

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self._ctx = ctx
        self._code: grpc.StatusCode | None = None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request's headers, as gRPC metadata (lower-case names)."""
        return tuple((name.lower(), value) for name, value in self._ctx.request_headers().items())

    def peer(self) -> str:
        """The client's address as gRPC writes it ("ipv4:HOST:PORT", "ipv6:[HOST]:PORT"); "" if unknown."""
        address = self._ctx.client_address() or ""
        host, _, port = address.rpartition(":")
        if not host:
            return address
        return f"ipv6:[{host.strip('[]')}]:{port}" if ":" in host else f"ipv4:{host}:{port}"

    async def abort(
        self, code: grpc.StatusCode, details: str = "", trailing_metadata: Sequence[tuple[str, Any]] = ()
    ) -> NoReturn:
        """End the call with `code`, the message and the rich status's details (ErrorInfo first)."""
        self._code = code
        packed = next((value for name, value in trailing_metadata if name == STATUS_DETAILS), b"")
        raise ConnectError(CONNECT_CODES[code], details, status_pb2.Status.FromString(packed).details)

    def code(self) -> grpc.StatusCode | None:
        """The code the call was aborted with, None before."""
        return self._code


class ArrivingRequest:
    """What connect-python decodes a request into. Either form, binary or JSON, that does not decode
    leaves an Undecodable, which the method's handler refuses as MALFORMED_REQUEST, as over gRPC (the
    binary form goes through the method's own tolerant deserializer)."""

    def __init__(self, message: protobuf.Message, deserializer: Callable[[bytes], Any]) -> None:
        self.message = message
        self.deserializer = deserializer
        self.decoded: Any = None

    def ParseFromString(self, data: bytes) -> None:
        """Keep what the method's deserializer makes of `data` (an Undecodable if it does not decode)."""
        self.decoded = self.deserializer(bytes(data))

    def parse_json(self, data: bytes | bytearray) -> None:
        """Fill the message from its JSON form (proto3's JSON mapping), or keep why it does not decode."""
        try:
            json_format.Parse(bytes(data), self.message)
        except (json_format.ParseError, UnicodeDecodeError) as error:
            self.decoded = Undecodable(f"its JSON is not a {self.message.DESCRIPTOR.name}: {error}")

    def request(self) -> Any:
        """The request for the handler."""
        return self.message if self.decoded is None else self.decoded


class ArrivingJSONCodec(ProtoJSONCodec[Any]):
    """connect-python's JSON codec, decoding a gateway request through its ArrivingRequest so that JSON
    which does not parse, names an unknown field or gives a field a wrong value is refused like bytes
    that do not decode, never connect-python's `unknown`. (Its binary codec sends a reply encoded once
    as it is: `Encoded.SerializeToString`.)"""

    def encode(self, message: Any) -> bytes:
        """The reply's JSON form; a reply encoded once (`gateway.encoded`) is decoded for it first."""
        return super().encode(message.message() if isinstance(message, Encoded) else message)

    def decode(self, data: bytes | bytearray, message: Any) -> Any:
        """`message` filled from `data`; an ArrivingRequest keeps an Undecodable instead of raising."""
        if not isinstance(message, ArrivingRequest):
            return super().decode(data, message)
        message.parse_json(data)
        return message


ARRIVING_JSON = ArrivingJSONCodec()


def use_arriving_json_codec() -> None:
    """Have connect-python decode JSON requests with ArrivingJSONCodec: version 0.9 has no codec setting
    per application, only its registry of codecs by name (which its clients do not read)."""
    for name in (CODEC_NAME_JSON, CODEC_NAME_JSON_CHARSET_UTF8):
        connect_codecs._codecs[name] = ARRIVING_JSON


GATEWAY_SERVICES = {service.full_name: service for service in api.services()}


def method_info(full_method: str) -> MethodInfo[Any, Any]:
    """connect-python's description of a gateway method ("/package.Service/Method")."""
    service_name, _, name = full_method.lstrip("/").partition("/")
    descriptor = GATEWAY_SERVICES[service_name].methods_by_name[name]
    return MethodInfo(
        name=name,
        service_name=service_name,
        input=message_factory.GetMessageClass(descriptor.input_type),
        output=message_factory.GetMessageClass(descriptor.output_type),
        idempotency_level=IdempotencyLevel.UNKNOWN,
    )


def _endpoint(
    full_method: str, handler: grpc.RpcMethodHandler
) -> Any:  # connectrpc's EndpointUnary or EndpointServerStream (not exported)
    """A Connect endpoint running a gRPC method handler (refusing requests that do not decode, and
    wrapped for metrics, as on the native server) in the method's rate class."""
    refusing = DECODING.wrapped.of(full_method, handler)
    assert refusing is not None
    counted = metered(full_method, refusing)
    described = method_info(full_method)
    message_class, deserializer = described.input, refusing.request_deserializer

    def arriving() -> ArrivingRequest:
        return ArrivingRequest(message_class(), deserializer)

    info = replace(described, input=arriving)  # type: ignore[arg-type]  # called to make the request
    if counted.unary_unary is not None:
        unary = counted.unary_unary

        async def call(request: ArrivingRequest, ctx: RequestContext[Any, Any]) -> Any:
            limits.note_call(full_method)
            return await unary(request.request(), BrowserCallContext(ctx))

        return Endpoint.unary(info, call)
    stream = counted.unary_stream

    async def watch(request: ArrivingRequest, ctx: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        limits.note_call(full_method)
        async with contextlib.aclosing(stream(request.request(), BrowserCallContext(ctx))) as replies:
            async for reply in replies:
                yield reply

    return Endpoint.server_stream(info, watch)


class EndOnDisconnect:
    """Ends a call's handler as soon as its client goes away, as native gRPC does: connect-python
    notices a closed watch stream only when the game next changes, which may be never."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the call, cancelling it when the client disconnects."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        gone = False

        async def watched() -> Message:
            nonlocal gone
            message = await receive()
            if message["type"] == "http.disconnect" and not gone:
                gone = True
                call.cancel()
            return message

        call = asyncio.ensure_future(self.app(scope, watched, send))
        try:
            await call
        except (asyncio.CancelledError, ConnectError):
            if not gone:
                raise


class GatewayConnectApp(ConnectASGIApplication[Handlers]):
    """Every gateway method as a Connect endpoint at its gRPC path."""

    @property
    def path(self) -> str:
        """The common prefix of the endpoints' paths."""
        return "/"


def create_app(app: Table, servicers: Servicers, settings: WebSettings) -> Starlette:
    """The ASGI application: the gateway's services at /<package.Service>/<Method>, the web client's
    files at every other path, CORS for the allowed origins."""
    use_arriving_json_codec()
    handlers = Handlers()
    add_services(app, handlers, servicers)  # collects what a grpc.aio.Server would get
    connect = GatewayConnectApp(
        service=handlers,
        endpoints=lambda found: {path: _endpoint(path, handler) for path, handler in found.methods.items()},
        read_max_bytes=app.settings.max_message_bytes,
    )
    services = sorted({path.lstrip("/").partition("/")[0] for path in handlers.methods})
    routes = [Mount(f"/{service}", app=EndOnDisconnect(connect)) for service in services]
    routes.append(Mount("/", app=StaticFiles(directory=settings.client_dir, html=True, check_dir=False)))
    cors = Middleware(
        CORSMiddleware,
        allow_origins=list(settings.allowed_origins),
        allow_methods=["GET", "POST"],
        allow_headers=list(REQUEST_HEADERS),
        expose_headers=list(RESPONSE_HEADERS),
        max_age=7200,
    )
    return Starlette(routes=routes, middleware=[cors])


def _bind(address: str) -> socket.socket:
    host, _, port = address.rpartition(":")
    host = host.strip("[]") or "::"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind((host, int(port)))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


class WebServer:
    """The browser listener (not started): uvicorn serving `create_app` on a socket bound at once."""

    def __init__(self, app: Table, servicers: Servicers, settings: WebSettings) -> None:
        self.socket = _bind(settings.address)
        self.port: int = self.socket.getsockname()[1]
        config = uvicorn.Config(
            create_app(app, servicers, settings),
            lifespan="off",
            log_config=None,
            access_log=False,
            http="httptools",
        )
        self.server = uvicorn.Server(config)
        self.server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]  # the gateway's own
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Serve in the background of the running loop."""
        self._task = asyncio.create_task(self.server.serve(sockets=[self.socket]))
        while not self.server.started and not self._task.done():
            await asyncio.sleep(0.01)

    async def stop(self, grace: float = 0.0) -> None:
        """Stop taking calls; end the open ones (watch streams included) after `grace` seconds."""
        self.server.config.timeout_graceful_shutdown = math.ceil(grace)
        self.server.should_exit = True
        if self._task is not None:
            await self._task
        self.socket.close()
