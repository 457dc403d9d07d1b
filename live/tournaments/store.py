"""A tournament in Redis: one serialized `Tournament` message at `keys.tournament(id)`, its one source
of truth, changed only by optimistic transactions on that one key (WATCH, read, change, MULTI/EXEC,
again on a conflict), so two games ending at once both count and a round is paired once. Beside it,
indexes of one key each (never written in the same transaction): the listings by creation time,
cleaned lazily as a listing meets a stale entry, and the workers' checks (`keys.tournament_checks`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TypeVar

import grpc
import redis.asyncio as aioredis
from boardgame.gateway.v1 import tournaments_pb2
from redis.exceptions import WatchError

from live import keys
from live.errors import GatewayError, not_found
from live.replies import blob

Tournament = tournaments_pb2.Tournament
T = TypeVar("T")

KEPT_SECONDS = 30 * 24 * 3600  # a tournament untouched this long is forgotten (an archived one sooner)
ARCHIVED_KEPT_SECONDS = 7 * 24 * 3600  # a finished tournament stays in Redis this long once archived
MAX_ATTEMPTS = 100


def created_score(tournament: Tournament) -> float:
    """The listings' score of a tournament: its creation time in microseconds."""
    return float(tournament.created_at.seconds * 1_000_000 + tournament.created_at.nanos // 1000)


async def load(redis: aioredis.Redis, tournament_id: str) -> Tournament | None:
    """The stored tournament, or None."""
    raw = await redis.get(keys.tournament(tournament_id))
    return None if raw is None else Tournament.FromString(blob(raw))


async def create(redis: aioredis.Redis, tournament: Tournament) -> None:
    """Store a new tournament and list it."""
    await redis.set(
        keys.tournament(tournament.tournament_id), tournament.SerializeToString(), ex=KEPT_SECONDS
    )
    score = created_score(tournament)
    await redis.zadd(keys.listed_tournaments(), {tournament.tournament_id: score})
    await redis.zadd(keys.listed_tournaments_of(tournament.title), {tournament.tournament_id: score})


async def update(
    redis: aioredis.Redis, tournament_id: str, change: Callable[[Tournament], T]
) -> tuple[Tournament, T]:
    """Apply `change` to the stored tournament atomically and return the tournament after it with what
    `change` returned; `change` raises to refuse, and then nothing is written. NOT_FOUND for an unknown
    tournament."""
    key = keys.tournament(tournament_id)
    for attempt in range(MAX_ATTEMPTS):
        async with redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(key)
                raw = await pipe.get(key)
                if raw is None:
                    raise not_found("tournament", tournament_id)
                tournament = Tournament.FromString(blob(raw))
                outcome = change(tournament)
                pipe.multi()
                pipe.set(key, tournament.SerializeToString(), keepttl=True)
                await pipe.execute()
            except WatchError:
                await asyncio.sleep(secrets.randbelow(1000) * 1e-6 * min(attempt, 10))
                continue
        return tournament, outcome
    raise GatewayError(
        grpc.StatusCode.ABORTED, "TOURNAMENT_BUSY", "the tournament changed too often meanwhile; retry"
    )


async def check_at(redis: aioredis.Redis, tournament_id: str, due_ms: int | None) -> None:
    """Have the workers look at the tournament at `due_ms` (None: never again)."""
    if due_ms is None:
        await redis.zrem(keys.tournament_checks(), tournament_id)
    else:
        await redis.zadd(keys.tournament_checks(), {tournament_id: due_ms})


async def unlist(redis: aioredis.Redis, tournament_id: str, title: str) -> None:
    """Take a tournament whose record is gone out of the listings."""
    await redis.zrem(keys.listed_tournaments(), tournament_id)
    if title:
        await redis.zrem(keys.listed_tournaments_of(title), tournament_id)


CHECK_LEASE_MS = 30_000  # a check taken by a sweep is not taken again for this long
CHECKS_PER_SWEEP = 200
# KEYS: the checks. ARGV: now, the lease's end, most taken. The due ones, each leased.
LEASE_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


async def due_checks(redis: aioredis.Redis, now_ms: int) -> list[str]:
    """The tournaments whose check is due, each leased for CHECK_LEASE_MS (its check files the next)."""
    lease = now_ms + CHECK_LEASE_MS
    due = await redis.eval(LEASE_DUE, 1, keys.tournament_checks(), now_ms, lease, CHECKS_PER_SWEEP)
    return [blob(member).decode() for member in due]
