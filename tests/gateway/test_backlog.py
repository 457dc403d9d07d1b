"""A burst of calls while the gateway's event loop is busy (a reconnect storm, hundreds of games
opening their watch streams at once) waits in gRPC core's backlog instead of being dropped, and
calls core does drop are counted."""

from __future__ import annotations

import time

import grpc
import prometheus_client
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gateway.metrics import UNSERVED
from tests.gateway._support_accounts import own_gateway
from tests.gateway.support import GatewayProcess

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


def test_calls_dropped_for_a_full_backlog_are_counted(redis_url: str, rules: dict[str, str]) -> None:
    before = UNSERVED.unserved()
    with own_gateway(redis_url, rules, max_pending_calls=100) as own:
        outcomes = burst_of_stream_opens(own.gateway)
        dropped = outcomes.get("CANCELLED", 0)
        assert dropped > 0, outcomes
        assert outcomes.get("OK", 0) + dropped == BURST, outcomes
        exported = prometheus_client.REGISTRY.get_sample_value("gateway_calls_unserved")
        assert exported is not None and exported - before >= dropped
