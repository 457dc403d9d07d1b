"""A client's view of the gateway replicas: one channel to each, and the one it uses now. A call that
fails as an outage (UNAVAILABLE, or a deadline passed) goes to the next replica after a growing pause;
one refused as RATE_LIMITED is sent again after the delay it gives (as docs/clients.md asks)."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from bench.gateway import rate_limit_delay, reconnect_delay

CALL_TIMEOUT_SECONDS = 10.0
GIVE_UP_SECONDS = 180.0  # an outage this long is a failure of the run, not a pause
OUTAGES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
Auth = tuple[tuple[str, str], ...]


class Gateways:
    """Channels to every replica; `call` and `watch` fail over between them. `counts` records the
    failovers, the calls sent again after a refusal, and the watch streams reopened."""

    def __init__(self, addresses: list[str], first: int = 0) -> None:
        self.channels = [grpc.aio.insecure_channel(address) for address in addresses]
        self.current = first % len(addresses)
        self.counts: Counter[str] = Counter()

    def stub(self, service: type) -> Any:
        """A stub of `service` (a gateway_pb2_grpc *Stub class) on the replica in use."""
        return service(self.channels[self.current])

    def fail_over(self) -> None:
        """Use the next replica from now on."""
        self.current = (self.current + 1) % len(self.channels)
        self.counts["failovers"] += 1

    async def pause(self, error: grpc.aio.AioRpcError, failures: int, since: float) -> None:
        """Wait before trying again after `error`; re-raise it if it is no outage or refusal to wait
        out, or if the outage has lasted too long."""
        delay = rate_limit_delay(error)
        if delay is not None:
            self.counts["rate limited"] += 1
        elif error.code() in OUTAGES and time.monotonic() - since < GIVE_UP_SECONDS:
            self.fail_over()
            delay = reconnect_delay(failures)
        else:
            raise error
        await asyncio.sleep(delay)

    async def call(self, service: type, method: str, request: Any, auth: Auth) -> Any:
        """A unary call's reply, patiently (see the module docstring)."""
        since, failures = time.monotonic(), 0
        while True:
            try:
                return await getattr(self.stub(service), method)(
                    request, metadata=auth, timeout=CALL_TIMEOUT_SECONDS
                )
            except grpc.aio.AioRpcError as error:
                await self.pause(error, failures, since)
                failures += 1

    async def watch(self, game_id: str, auth: Auth, stall: float) -> AsyncIterator[gateway_pb2.GameView]:
        """Every view of a game a watcher gets until it is over, on whichever replica is up: a stream
        that fails is opened again from the last version seen. A stream silent for `stall` seconds is
        opened again too, and counted as a stall (a change that never reached the watcher)."""
        seen, since, failures = 0, time.monotonic(), 0
        while True:
            stream = self.stub(gateway_pb2_grpc.GameServiceStub).WatchGame(
                gateway_pb2.WatchGameRequest(game_id=game_id, from_version=seen), metadata=auth
            )
            try:
                while True:
                    update = await asyncio.wait_for(stream.read(), stall)
                    if update is grpc.aio.EOF:
                        break
                    since, failures = time.monotonic(), 0
                    if not update.HasField("game"):
                        continue
                    seen = max(seen, update.game.version)
                    yield update.game
                    if update.game.status == gateway_pb2.GAME_STATUS_FINISHED:
                        return
            except TimeoutError:
                self.counts["stalls"] += 1
            except grpc.aio.AioRpcError as error:
                await self.pause(error, failures, since)
                failures += 1
            finally:
                stream.cancel()
            self.counts["watch reopened"] += 1

    async def close(self) -> None:
        """Close every channel."""
        for channel in self.channels:
            await channel.close()
