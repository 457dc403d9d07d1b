"""What zero loss costs: the write path (`live.store.GameStore.commit`, one move's commit) on a
redis-server whose AOF is fsynced before each answer (`appendfsync always`, the default) and on one
fsynced once a second (`everysec`), next to the floor: a bare SET of the same state on the `everysec`
server. Each is timed one commit at a time (p50, p99) and with CLIENTS commits in flight at once, on
as many games (moves per second; Redis fsyncs the writes of one event-loop turn together).

    python -m bench.durability [--commits 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
import uuid

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from bench import table
from bench.latency import percentile
from deploy import durability
from deploy.throwaway import redis_server
from live.store import GameStore

CLIENTS = 32
STATE_BYTES = 3072  # about a mid-game 4-player state (table c)
ACTION = b"\x08\x01"


async def _new_game(store: GameStore, game_id: str, state: bytes) -> None:
    record = gateway_pb2.GameRecord(game_id=game_id, title="bench", player_count=4)
    await store.create(record, b"seed", gateway_pb2.TurnClock(), "", state, rules_pb2.ApplyActionResponse())


async def _commits(store: GameStore, game_id: str, count: int, state: bytes) -> list[float]:
    """The ms each of `count` commits of one game takes, one after the other."""
    await _new_game(store, game_id, state)
    change = rules_pb2.ApplyActionResponse(acting_seats=[1])
    timings = []
    for version in range(count):
        started = time.perf_counter()
        result = await store.commit(
            game_id,
            expected_version=version,
            state=state,
            seat=0,
            action=ACTION,
            request_id=uuid.uuid4().hex,
            change=change,
            finished_at="",
        )
        timings.append((time.perf_counter() - started) * 1000)
        assert result.outcome == "ok", result
    return timings


async def _sets(redis: aioredis.Redis, count: int, state: bytes) -> list[float]:
    timings = []
    for _ in range(count):
        started = time.perf_counter()
        await redis.set("bench:floor", state)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


async def _measure(url: str, commits: int, floor: bool) -> dict[str, float]:
    redis = aioredis.Redis.from_url(url, max_connections=CLIENTS + 4)
    store = GameStore(redis, event_history=512)
    state = os.urandom(STATE_BYTES)
    try:
        alone = await _commits(store, f"alone-{uuid.uuid4().hex}", commits, state)
        started = time.perf_counter()
        each = max(1, commits // CLIENTS)
        await asyncio.gather(
            *(_commits(store, f"many-{i}-{uuid.uuid4().hex}", each, state) for i in range(CLIENTS))
        )
        rate = CLIENTS * each / (time.perf_counter() - started)
        figures = {"p50": statistics.median(alone), "p99": percentile(alone, 0.99), "rate": rate}
        if floor:
            figures["set"] = statistics.median(await _sets(redis, commits, state))
        return figures
    finally:
        await redis.aclose()


def measure(commits: int = 2000) -> str:
    """Table (e): commit latency and moves per second under each fsync policy, and the SET floor."""
    measured = {}
    for policy in durability.APPENDFSYNC_CHOICES:
        with redis_server(fsync=policy) as url:
            measured[policy] = asyncio.run(_measure(url, commits, floor=policy == "everysec"))
    floor = measured["everysec"]["set"]
    fastest = measured["everysec"]["rate"]
    rows = [
        [
            f"commit, appendfsync {policy}"
            + (" (default)" if policy == durability.DEFAULT_APPENDFSYNC else ""),
            f"{figures['p50']:.3f}",
            f"{figures['p99']:.3f}",
            f"{figures['p50'] / floor:.1f}",
            f"{figures['rate']:,.0f}",
            f"{figures['rate'] / fastest:.2f}",
        ]
        for policy, figures in measured.items()
    ]
    rows.append(["bare SET of the state (floor), everysec", f"{floor:.3f}", "-", "1.0", "-", "-"])
    headers = ["write", "p50 ms", "p99 ms", "p50 / floor", f"moves/s, {CLIENTS} at once", "vs everysec"]
    title = (
        f"(e) durability: {commits:,} commits of a {STATE_BYTES:,} B state per policy, "
        f"one at a time and {CLIENTS} at once"
    )
    return table(title, headers, rows)


def main() -> None:
    """Print table (e) with the number of commits given on the command line."""
    parser = argparse.ArgumentParser(
        description="What each AOF fsync policy costs (table e of `make bench`)."
    )
    parser.add_argument("--commits", type=int, default=2000, help="commits per measure (default 2000)")
    print(measure(parser.parse_args().commits))


if __name__ == "__main__":
    main()
