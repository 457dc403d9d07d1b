"""How many things of a kind a player holds open at once (lobbies hosted, tournaments organised): a
sorted set per player of their ids, a slot taken atomically below the quota, and the ids of things
no longer open dropped from it only when it is full."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import cast

from live.errors import quota_exceeded
from live.replies import text
from live.table import Table

TAKE_SCRIPT = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""


async def take(
    app: Table,
    held: str,
    quota: int,
    member: str,
    score: float,
    ttl_seconds: int,
    closed: Callable[[list[str]], Awaitable[list[str]]],
    name: str,
    message: str,
) -> None:
    """Count `member` in the sorted set `held` (kept `ttl_seconds`); when `quota` are held, first drop
    those `closed` says are no longer open, then RESOURCE_EXHAUSTED (QUOTA_EXCEEDED, metadata quota =
    `name`) if it is still full."""
    script = app.script(TAKE_SCRIPT)
    args: list[str | float] = [quota, score, member, ttl_seconds]
    if await script(keys=[held], args=args):
        return
    ids = [text(found) for found in cast(list[bytes], await app.redis.zrange(held, 0, -1))]
    done = await closed(ids)
    if done:
        await app.redis.zrem(held, *done)
    if not await script(keys=[held], args=args):
        raise quota_exceeded(name, quota, message)
