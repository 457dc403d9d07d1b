"""A Connect client of the gateway's browser listener, as a browser's would call it (binary Connect
protocol over HTTP/1.1), from connect-python's own client; like every client the docs describe, it
sends a unary call refused as RATE_LIMITED again after the `retry_after_ms` the refusal gives."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from gateway.browser import method_info


def path(service: str, method: str) -> str:
    """The full method name of a gateway method, such as "/boardgame.gateway.v1.GameService/GetGame"."""
    return f"/boardgame.gateway.v1.{service}/{method}"


def rate_limit_delay(error: ConnectError) -> float | None:
    """Seconds a RATE_LIMITED refusal asks to wait; None for any other error."""
    info = error_details_pb2.ErrorInfo()
    if not error.details or not error.details[0].Unpack(info) or info.reason != "RATE_LIMITED":
        return None
    return int(info.metadata["retry_after_ms"]) / 1000


class BrowserClient:
    """Calls the gateway at `url` over Connect (or `protocol`; JSON instead of binary with
    `proto_json`), with `token` as the bearer token once set."""

    def __init__(
        self, url: str, protocol: ProtocolType = ProtocolType.CONNECT, proto_json: bool = False
    ) -> None:
        self.client = ConnectClientSync(url, protocol=protocol, send_compression=None, proto_json=proto_json)
        self.token = ""

    def headers(self) -> dict[str, str]:
        """The request headers: the token, if any."""
        return {"authorization": f"Bearer {self.token}"} if self.token else {}

    def call(self, service: str, method: str, request: Message) -> Any:
        """One unary call, waiting out the rate limit; raises connectrpc's ConnectError on a refusal."""
        info = method_info(path(service, method))
        while True:
            try:
                return self.client.execute_unary(request=request, method=info, headers=self.headers())
            except ConnectError as error:
                delay = rate_limit_delay(error)
                if delay is None:
                    raise
                time.sleep(delay)

    def stream(self, service: str, method: str, request: Message) -> Iterator[Any]:
        """A server stream's replies."""
        info = method_info(path(service, method))
        return iter(self.client.execute_server_stream(request=request, method=info, headers=self.headers()))
