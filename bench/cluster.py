"""The write path's commit on one Redis node and on a Redis Cluster, without and with the replica
acknowledgement policy (`REDIS_WAIT_REPLICAS=1`: `WAIT 1 <ms>` after each commit): what waiting for a
replica costs a move.

Throwaway servers on this machine (deploy.throwaway): a redis-server, and a Cluster of three primaries
with one replica each. Each configuration commits moves of a few games one after another per game,
the games at once, through `live.store.GameStore.commit` (the script every move, resignation and
forfeit runs), with a 2 KB state; the figures are the commit's round trip as the gateway sees it, and
the commits whose wait timed out before a replica had them (`unacked`).

    python -m bench.cluster [--commits 1000] [--games 4]
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from dataclasses import replace

import prometheus_client
from boardgame.rules.v1 import rules_pb2

from bench import table
from bench.latency import median, percentile
from deploy.throwaway import redis_cluster, redis_server
from live import keys
from live.connection import async_client, learn_nodes
from live.settings import ReplicaAcks, Settings
from live.store import GameStore

STATE = b"s" * 2048
ACKS = {"none": ReplicaAcks(), "WAIT 1 100": ReplicaAcks(replicas=1, timeout_ms=100)}


async def _commits(settings: Settings, games: int, commits: int) -> tuple[list[float], float]:
    """Commit round trips (ms) and the seconds the run took."""
    redis = async_client(settings)
    await learn_nodes(redis)
    store = GameStore(redis, settings.event_history, settings.replica_acks)
    change = rules_pb2.ApplyActionResponse(acting_seats=[0])
    latencies: list[float] = []

    async def play(game_id: str) -> None:
        await redis.set(keys.game_version(game_id), 0)
        for version in range(commits // games):
            started = time.perf_counter()
            result = await store.commit(
                game_id,
                expected_version=version,
                state=STATE,
                seat=0,
                action=b"a",
                request_id=uuid.uuid4().hex,
                change=change,
                finished_at="",
            )
            latencies.append((time.perf_counter() - started) * 1000)
            assert result.outcome == "ok", result

    try:
        started = time.perf_counter()
        await asyncio.gather(*(play(uuid.uuid4().hex) for _ in range(games)))
        return latencies, time.perf_counter() - started
    finally:
        await redis.aclose()


def _shortfalls() -> float:
    """Commits so far acknowledged without the replicas asked for (the wait timed out)."""
    return prometheus_client.REGISTRY.get_sample_value("gateway_replica_ack_shortfalls_total") or 0.0


def commit_table(commits: int, games: int) -> str:
    """The table: per deployment and policy, commit latency (p50, p99) and commits per second."""
    rows = []
    with redis_server() as single_url, redis_cluster() as cluster:
        runs = [("one node", single_url, "none"), ("cluster 3+3", cluster.url, "none")]
        runs.append(("cluster 3+3", cluster.url, "WAIT 1 100"))
        for deployment, url, policy in runs:
            settings = replace(
                Settings(), redis_url=url, celery_broker_url=single_url, replica_acks=ACKS[policy]
            )
            short_before = _shortfalls()
            latencies, seconds = asyncio.run(_commits(settings, games, commits))
            rows.append(
                [
                    deployment,
                    policy,
                    len(latencies),
                    f"{median(latencies):.2f}",
                    f"{percentile(latencies, 0.99):.2f}",
                    f"{len(latencies) / seconds:,.0f}",
                    f"{_shortfalls() - short_before:.0f}" if settings.replica_acks.replicas else "-",
                ]
            )
    headers = ["redis", "replica acks", "commits", "p50 ms", "p99 ms", "commits/s", "unacked"]
    return table(f"commit round trip, {games} games at once", headers, rows)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    print(commit_table(args.commits, args.games))


if __name__ == "__main__":
    main()
