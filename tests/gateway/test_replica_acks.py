"""The replica-acknowledgement policy of the write path (REDIS_WAIT_REPLICAS): a commit is followed by
`WAIT` on its own connection (on a Cluster, on the node of the game's slot), and one acknowledged
without the replicas asked for (the wait timed out) is counted. Also when the node has forgotten the
write path's script (a promoted replica, a restart)."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import replace

import prometheus_client
from boardgame.rules.v1 import rules_pb2

from live import keys
from live.connection import async_client
from live.settings import ReplicaAcks
from live.store import CommitResult, GameStore
from tests.gateway.support import gateway_settings
from tests.redis_modes import CLUSTER, SINGLE

# A node without replicas must run out of the wait; a Cluster's replicas must answer within it, even on
# a busy machine.
TIMEOUT_MS = {SINGLE: 50, CLUSTER: 5000}


def shortfalls() -> float:
    return prometheus_client.REGISTRY.get_sample_value("gateway_replica_ack_shortfalls_total") or 0.0


async def commit_twice(redis_url: str, timeout_ms: int) -> tuple[list[CommitResult], float]:
    """Two commits of a new game under `WAIT 1 <timeout_ms>`, the node's scripts flushed first; the
    results and the seconds the first took."""
    settings = replace(gateway_settings(redis_url, {}), replica_acks=ReplicaAcks(1, timeout_ms))
    redis = async_client(settings)
    store = GameStore(redis, settings.event_history, settings.replica_acks)
    game_id = uuid.uuid4().hex
    try:
        await redis.set(keys.game_version(game_id), 0)
        await redis.script_flush()
        results, took = [], 0.0
        for version in range(2):
            started = time.perf_counter()
            results.append(
                await store.commit(
                    game_id,
                    expected_version=version,
                    state=b"state",
                    seat=0,
                    action=b"a",
                    request_id=uuid.uuid4().hex,
                    change=rules_pb2.ApplyActionResponse(acting_seats=[0]),
                    finished_at="",
                )
            )
            took = took or time.perf_counter() - started
        return results, took
    finally:
        await redis.aclose()


def test_a_commit_waits_for_a_replica_and_one_that_has_none_is_counted(
    redis_url: str, redis_mode: str
) -> None:
    before = shortfalls()
    results, took = asyncio.run(commit_twice(redis_url, TIMEOUT_MS[redis_mode]))
    assert results == [CommitResult("ok", 1), CommitResult("ok", 2)]
    if redis_mode == CLUSTER:  # every primary has a replica: acknowledged at once
        assert shortfalls() == before
    else:  # one node has no replica: each wait runs out, and the commit still stands
        assert shortfalls() == before + 2
        assert took >= TIMEOUT_MS[SINGLE] / 1000
