"""A burst of calls while the gateway's event loop is busy (a reconnect storm, hundreds of games
opening their watch streams at once) waits in gRPC core's backlog instead of being dropped, calls
core does drop are counted, and calls outnumbering the Redis connections wait for one."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import grpc
import prometheus_client
import pytest
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gateway.metrics import UNSERVED, note_unserved
from tests.gateway._support_accounts import at_a_second_start, guest, own_gateway
from tests.gateway.support import GatewayProcess

# Keeps Redis busy for ARGV[1] microseconds, as a slow command or a fork for a snapshot would.
BUSY_REDIS_SCRIPT = """
local start = redis.call('TIME')
repeat
  local now = redis.call('TIME')
until (now[1] - start[1]) * 1000000 + (now[2] - start[2]) >= tonumber(ARGV[1])
"""
BUSY_MICROSECONDS = 500_000
BURST = 2_000  # past gRPC core's own soft limit (1,000), where it starts dropping calls
BUSY_SECONDS = 1.5


def burst_of_stream_opens(gateway: GatewayProcess) -> dict[str, int]:
    """Open BURST streams (health Watch: no token, so no rate limit) while the gateway's loop is
    blocked, then read each one's first message; how many got it, and how many failed, by code."""
    outcomes: dict[str, int] = {}
    with grpc.insecure_channel(gateway.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        health.Check(health_pb2.HealthCheckRequest(), timeout=10)  # connected before the burst
        gateway.loop.call_soon_threadsafe(time.sleep, BUSY_SECONDS)
        streams = [health.Watch(health_pb2.HealthCheckRequest(), timeout=60) for _ in range(BURST)]
        for stream in streams:
            try:
                next(stream)
                name = "OK"
            except grpc.RpcError as error:
                name = error.code().name
            outcomes[name] = outcomes.get(name, 0) + 1
        for stream in streams:
            stream.cancel()
    return outcomes


def test_a_burst_of_stream_opens_on_a_busy_gateway_is_served_whole(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules) as own:
        assert burst_of_stream_opens(own.gateway) == {"OK": BURST}


def test_calls_dropped_for_a_full_backlog_are_counted_and_logged(
    redis_url: str, rules: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    before = UNSERVED.unserved()
    with own_gateway(redis_url, rules, max_pending_calls=100) as own:
        outcomes = burst_of_stream_opens(own.gateway)
        dropped = outcomes.get("CANCELLED", 0)
        assert dropped > 0, outcomes
        assert outcomes.get("OK", 0) + dropped == BURST, outcomes
        exported = prometheus_client.REGISTRY.get_sample_value("gateway_calls_unserved")
        assert exported is not None and exported - before >= dropped
        with caplog.at_level(logging.WARNING, logger="gateway.metrics"):
            note_unserved(before)
        (warning,) = caplog.records
        assert warning.levelno == logging.WARNING and warning.new >= dropped  # type: ignore[attr-defined]


def test_hundreds_of_calls_at_once_wait_for_a_redis_connection_rather_than_fail(
    redis_url: str, rules: dict[str, str]
) -> None:
    """More calls in flight than the Redis pool holds connections: they queue for one (as when a
    thousand games' players all read at once), and none is refused as UNAVAILABLE."""
    players, calls_each = 20, 20  # 400 calls, under each player's read limit

    async def burst(address: str, tokens: list[str]) -> dict[str, int]:
        async with grpc.aio.insecure_channel(address) as channel:
            accounts = gateway_pb2_grpc.AccountServiceStub(channel)
            calls = [
                accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=(("authorization", f"Bearer {token}"),))
                for token in tokens
                for _ in range(calls_each)
            ]
            outcomes: dict[str, int] = {}
            for call in calls:
                try:
                    await call
                    name = "OK"
                except grpc.aio.AioRpcError as error:
                    name = error.code().name
                outcomes[name] = outcomes.get(name, 0) + 1
            return outcomes

    with own_gateway(redis_url, rules) as own:
        tokens = [guest(own.make_client, f"reader {i}").token for i in range(players)]
        at_a_second_start()
        busy = threading.Thread(target=own.store.eval, args=(BUSY_REDIS_SCRIPT, 0, BUSY_MICROSECONDS))
        busy.start()  # every call's command waits on a connection of its own while Redis is busy
        time.sleep(0.05)
        outcomes = asyncio.run(burst(own.gateway.address, tokens))
        busy.join()
        assert outcomes == {"OK": players * calls_each}
