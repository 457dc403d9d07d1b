"""What the transport alone costs a gateway per move: the CPU time of the calls a move makes through
one asyncio process (uvloop, grpc.aio, redis-py with hiredis, as the gateway runs), doing no work of
its own. Measured in a process of its own against real peers: the gRPC health service as the echo
(served to a client process, and called on a server process) and a real Redis.

A move costs a gateway at least: serving the mover's SubmitAction, calling the rules service's
ApplyAction, one watch reply per watcher (WATCHERS, as `bench.gateway` plays), and ROUND_TRIPS to
Redis. The sum is the floor below which no change to the gateway's own code can take its CPU per
move, on this runtime.

    python -m bench.transport
"""

from __future__ import annotations

import asyncio
import multiprocessing
import resource
import sys
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import grpc
import redis.asyncio as aioredis
import uvloop
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy.throwaway import free_port, redis_server

WATCHERS = 4  # bench.gateway's players, each watching the game on its own stream
# The read (caller check, snapshot, outbox mark), the commit script, the players' lists, the outbox
# acknowledgement.
ROUND_TRIPS = 4
CALLS = 3000
CONCURRENT = 20  # calls in flight at once, as under load
READY_SECONDS = 30.0


@dataclass(frozen=True)
class Floor:
    """CPU ms of one of each, and a move's sum."""

    served_ms: float  # a unary call served
    called_ms: float  # a unary call made
    reply_ms: float  # one reply on a server stream
    round_trip_ms: float  # one Redis command's round trip

    @property
    def move_ms(self) -> float:
        """The least a move costs the gateway in transport."""
        return self.served_ms + self.called_ms + WATCHERS * self.reply_ms + ROUND_TRIPS * self.round_trip_ms


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Echo(health_pb2_grpc.HealthServicer):
    """Answers at once; Watch sends replies until the client stops."""

    async def Check(
        self, request: health_pb2.HealthCheckRequest, context: object
    ) -> health_pb2.HealthCheckResponse:
        return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)

    async def Watch(self, request: health_pb2.HealthCheckRequest, context: object):  # type: ignore[no-untyped-def]
        reply = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)
        while True:
            yield reply


async def _serve(port: int) -> grpc.aio.Server:
    server = grpc.aio.server()
    health_pb2_grpc.add_HealthServicer_to_server(Echo(), server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    return server


def _echo_server(port: int) -> None:
    async def run() -> None:
        server = await _serve(port)
        await server.wait_for_termination()

    uvloop.run(run())


def _client(port: int, calls: int, stream: bool) -> None:
    async def run() -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest()
            if stream:
                replies = stub.Watch(request)
                for _ in range(calls):
                    await replies.read()
                replies.cancel()
                return

            async def some() -> None:
                for _ in range(calls // CONCURRENT):
                    await stub.Check(request)

            await asyncio.gather(*(some() for _ in range(CONCURRENT)))

    uvloop.run(run())


async def _spent(work: Awaitable[Any], calls: int) -> float:
    """CPU ms of this process per call while `work` runs."""
    started = _cpu_seconds()
    await work
    return (_cpu_seconds() - started) * 1000 / calls


async def _measure(redis_url: str, calls: int) -> Floor:
    context = multiprocessing.get_context("spawn")
    port = free_port()
    server = await _serve(port)
    loop = asyncio.get_running_loop()
    spent = []
    for stream in (False, True):
        client = context.Process(target=_client, args=(port, calls, stream))
        client.start()
        spent.append(await _spent(loop.run_in_executor(None, client.join), calls))
    await server.stop(0)

    peer_port = free_port()
    peer = context.Process(target=_echo_server, args=(peer_port,), daemon=True)
    peer.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{peer_port}") as channel:
            await asyncio.wait_for(channel.channel_ready(), READY_SECONDS)
            stub = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest()

            async def calling() -> None:
                for _ in range(calls // CONCURRENT):
                    await stub.Check(request)

            called = await _spent(
                asyncio.ensure_future(asyncio.gather(*(calling() for _ in range(CONCURRENT)))), calls
            )
    finally:
        peer.kill()
    redis = aioredis.Redis.from_url(redis_url)
    await redis.ping()

    async def pinging() -> None:
        for _ in range(calls // CONCURRENT):
            await redis.ping()

    round_trip = await _spent(
        asyncio.ensure_future(asyncio.gather(*(pinging() for _ in range(CONCURRENT)))), calls
    )
    await redis.aclose()
    return Floor(spent[0], called, spent[1], round_trip)


def _measured(redis_url: str, calls: int, results: multiprocessing.queues.Queue[Floor]) -> None:
    results.put(uvloop.run(_measure(redis_url, calls)))


def measure(calls: int = CALLS) -> Floor:
    """The floor, measured in a process of its own (so that its CPU time is the transport's alone)."""
    context = multiprocessing.get_context("spawn")
    results: multiprocessing.queues.Queue[Floor] = context.Queue()
    with redis_server() as url:
        process = context.Process(target=_measured, args=(url, calls, results))
        process.start()
        floor = results.get()
        process.join()
    return floor


def main() -> int:
    floor = measure()
    print(f"a unary call served, CPU ms        {floor.served_ms:.3f}")
    print(f"a unary call made, CPU ms          {floor.called_ms:.3f}")
    print(f"a stream reply, CPU ms             {floor.reply_ms:.3f}")
    print(f"a Redis round trip, CPU ms         {floor.round_trip_ms:.3f}")
    print(f"a move (1 + 1 + {WATCHERS} x + {ROUND_TRIPS} x), CPU ms  {floor.move_ms:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
