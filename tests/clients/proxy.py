"""A TCP proxy in front of a server, whose connections a test can cut as a gateway restarting or a
network change would: the clients' calls and streams then fail (UNAVAILABLE) and they must connect
again, which the proxy lets them do."""

from __future__ import annotations

import asyncio
import threading


class Proxy:
    """Forwards every connection made to `address` to `target` ("host:port"), on a thread of its own."""

    def __init__(self, target: str) -> None:
        host, _, port = target.rpartition(":")
        self.target = (host, int(port))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.transports: set[asyncio.BaseTransport] = set()
        self.cuts = 0
        self.port = 0

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.transports |= {writer.transport, upstream_writer.transport}
        await asyncio.gather(
            self._pump(reader, upstream_writer), self._pump(upstream_reader, writer), return_exceptions=True
        )

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        finally:
            sink.transport.abort()
            self.transports.discard(sink.transport)

    async def _cut(self) -> None:
        for transport in list(self.transports):
            transport.abort()
        self.transports.clear()
        self.cuts += 1

    def cut(self) -> None:
        """Drop every connection the proxy carries now; later connections go through."""
        asyncio.run_coroutine_threadsafe(self._cut(), self.loop).result(10)

    @property
    def address(self) -> str:
        """Where clients connect."""
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> Proxy:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            self.server.close()
            await self._cut()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
