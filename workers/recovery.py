"""Bot turns a dead worker took along, found when a worker starts instead of by their watchdogs.

A worker's main process killed (kill -9, its pool processes with it) holds the bot turns it had taken
off the broker, unacknowledged until the broker's visibility timeout; their games would wait for the
`bot` watchdog (`live.clocks.BOT_WATCHDOG_MS`). A worker that becomes ready (the launcher or the kubelet
starting it again) therefore makes due now every `bot` entry whose turn was queued before the worker
started and at least `GRACE_MS` ago (a `bot` entry is due `BOT_WATCHDOG_MS` after its turn was
queued), so the next clock sweep dispatches those turns again. A turn queued just now is left alone: a
live worker may be on it. A turn still being played elsewhere is played once all the same (a bot turn
is version-checked: the second delivery is a refused no-op). The watchdog stays the backstop for a
turn lost while no worker starts.

Entries are read one game at a time (each game's clock on its own Cluster slot), in pipelines.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from live import keys
from live.clocks import BOT_WATCHDOG_MS, KIND_BOT, SWEEP_LIMIT, now_ms
from live.connection import register_script, run_script

GRACE_MS = 3_000  # a turn queued this recently may be in a live worker's hands

# Make a not yet due `bot` entry queued at or before ARGV[2] due at ARGV[1] (now); 1 if it did.
MAKE_DUE = f"""
if redis.call('HGET', KEYS[1], 'kind') ~= '{KIND_BOT}' then return 0 end
local due = tonumber(redis.call('HGET', KEYS[1], 'due') or '0')
local now = tonumber(ARGV[1])
if due <= now or due - {BOT_WATCHDOG_MS} > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'due', now)
return 1
"""


def queued_before(started_ms: int, now: int) -> int:
    """The latest queueing time of a turn taken as lost by a worker ready at `started_ms`: before its
    start, and at least GRACE_MS before `now`."""
    return min(started_ms, now - GRACE_MS)


async def make_lost_turns_due(redis: aioredis.Redis, started_ms: int, now: int | None = None) -> list[str]:
    """Make due now the `bot` entries of turns queued before a worker's start (`started_ms`) and at
    least GRACE_MS ago; the games whose entries it made due."""
    now = now_ms() if now is None else now
    latest = queued_before(started_ms, now)
    if latest + BOT_WATCHDOG_MS <= now:
        return []  # every such entry is due already: the sweep has them
    members: list[bytes] = await redis.zrangebyscore(  # type: ignore[assignment]
        keys.deadlines(), f"({now}", latest + BOT_WATCHDOG_MS
    )
    script = register_script(redis, MAKE_DUE)
    made: list[str] = []
    for start in range(0, len(members), SWEEP_LIMIT):
        games = [member.decode() for member in members[start : start + SWEEP_LIMIT]]
        calls = [((keys.game_clock(game_id),), (now, latest)) for game_id in games]
        replies = await run_script(redis, script, calls)
        made += [game_id for game_id, reply in zip(games, replies, strict=True) if reply]
    if made:
        await redis.zadd(keys.deadlines(), dict.fromkeys(made, now), xx=True)
    return made
