"""A TCP proxy in front of a server, whose connections a test can cut as a gateway restarting or a
network change would: the clients' calls and streams then fail (UNAVAILABLE) and they must connect
again, which the proxy lets them do."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path


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


CUT_EVERY_SECONDS = 0.7  # between two cuts of `cut_while_running`
MOST_CUTS = 20
CLIENT_SECONDS = 300  # the longest a client run may take


def cut_while_running(proxy: Proxy) -> Callable[[subprocess.Popen[str]], None]:
    """What to do while a client runs: cut its connections every CUT_EVERY_SECONDS, MOST_CUTS at most."""

    def cutting(client: subprocess.Popen[str]) -> None:
        while client.poll() is None and proxy.cuts < MOST_CUTS:
            time.sleep(CUT_EVERY_SECONDS)
            proxy.cut()

    return cutting


def summary_of(
    argv: Sequence[str], during: Callable[[subprocess.Popen[str]], None], cwd: Path | None = None
) -> dict[str, object]:
    """Run a client to its end, doing `during` meanwhile; the summary it prints last (JSON). Fails with
    its stderr if it failed; a client still running at the end is killed."""
    client = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    try:
        during(client)
        out, err = client.communicate(timeout=CLIENT_SECONDS)
    finally:
        if client.poll() is None:
            client.kill()
    assert client.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]
