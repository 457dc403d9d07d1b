"""A server stream whose client cancels it while a reply is being written ends at once: its `finally`
blocks (a watch stream's place, its subscription) run then, not whenever the garbage collector
finds the generator gRPC left suspended. The server is the gateway's kind (`create_counted_server`
with the decoding interceptor, the streaming methods wrapped by `stream_rpc`); its one streaming
method floods the client, which reads one reply and stops reading, so the server is stuck writing
when the cancellation comes. The collector is off meanwhile, so only an explicit close counts."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import AsyncGenerator, Iterator

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from gateway.errors import stream_rpc
from gateway.metrics import create_counted_server
from services.common.decoding import AioDecodingInterceptor

REPLY_BYTES = 1 << 20  # far past HTTP/2's flow-control window: a reply the client does not read blocks
STREAMS = 5


class Flooding(gateway_pb2_grpc.GameServiceServicer):
    """WatchGame replies without end; counts the streams whose generator has not ended."""

    def __init__(self) -> None:
        self.open = 0
        self.writing = 0

    @stream_rpc
    async def WatchGame(
        self, request: gateway_pb2.WatchGameRequest, context: grpc.aio.ServicerContext
    ) -> AsyncGenerator[gateway_pb2.WatchGameResponse, None]:
        self.open += 1
        try:
            while True:
                self.writing += 1
                yield gateway_pb2.WatchGameResponse(chat=gateway_pb2.ChatMessage(text="x" * REPLY_BYTES))
        finally:
            self.open -= 1


class Server:
    """The flooding servicer on a grpc.aio server of its own loop, on a thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.servicer = Flooding()

    async def _start(self) -> int:
        self.server = create_counted_server([AioDecodingInterceptor()])
        gateway_pb2_grpc.add_GameServiceServicer_to_server(self.servicer, self.server)
        port = self.server.add_insecure_port("127.0.0.1:0")
        await self.server.start()
        return port

    def run(self, coroutine, timeout: float = 10):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)


@pytest.fixture
def flooding() -> Iterator[tuple[Server, str]]:
    server = Server()
    thread = threading.Thread(target=server.loop.run_forever, daemon=True)
    thread.start()
    port = server.run(server._start())
    gc.disable()
    try:
        yield server, f"127.0.0.1:{port}"
    finally:
        gc.enable()
        server.run(server.server.stop(0))
        server.loop.call_soon_threadsafe(server.loop.stop)
        thread.join(10)


def test_a_stream_cancelled_while_a_reply_is_written_ends_at_once(flooding: tuple[Server, str]) -> None:
    server, address = flooding
    with grpc.insecure_channel(
        address, options=[("grpc.max_receive_message_length", 2 * REPLY_BYTES)]
    ) as channel:
        games = gateway_pb2_grpc.GameServiceStub(channel)
        for _ in range(STREAMS):
            server.servicer.writing = 0
            stream = games.WatchGame(gateway_pb2.WatchGameRequest(game_id="g"), timeout=30)
            next(stream)
            deadline = time.monotonic() + 5
            while server.servicer.writing < 3 and time.monotonic() < deadline:  # it is stuck writing
                time.sleep(0.01)
            time.sleep(0.2)
            stream.cancel()
        deadline = time.monotonic() + 5
        while server.servicer.open and time.monotonic() < deadline:
            time.sleep(0.02)
    assert server.servicer.open == 0, f"{server.servicer.open} of {STREAMS} streams still open"
