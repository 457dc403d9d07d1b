"""The quota of watch streams a player holds open at once (WATCH_STREAMS_PER_PLAYER), over every
gateway replica.

Each open stream holds a lease in the player's sorted set (`keys.watch_leases`): its id, scored by
when the lease runs out. Taking one drops the leases run out, then refuses past the quota
(RESOURCE_EXHAUSTED, reason QUOTA_EXCEEDED); a stream that ends gives its lease back. Every
RENEW_SECONDS a replica renews the leases of its open streams in one round trip, and checks there
that each stream's token still signs in: a stream whose token expired, or whose sign-out was missed
while Redis was out of reach, ends then; a replica that dies frees its players' places within
LEASE_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

from gateway.fanout import Fanout
from live import keys
from live.errors import quota_exceeded, unauthenticated
from live.table import Table

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0
RENEW_SECONDS = 20.0

# KEYS: leases, session; ARGV: now (ms), lease (ms), quota, stream id.
TAKE_SCRIPT = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: leases, session; ARGV: now (ms), lease (ms), stream id. 0: the session is gone.
RENEW_SCRIPT = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return 0
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


@dataclass(frozen=True)
class Lease:
    """One open stream's place: its player, its session key and its id."""

    player_id: str
    session: str
    stream_id: str

    def keys(self) -> list[str]:
        """The keys its scripts touch (on the player's Cluster slot)."""
        return [keys.watch_leases(self.player_id), self.session]


class WatchLeases:
    """The leases of this process's open watch streams, renewed in the background."""

    def __init__(self, app: Table, fanout: Fanout) -> None:
        self.app = app
        self.fanout = fanout
        self.held: set[Lease] = set()
        self.task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def hold(self, player_id: str, session: str) -> AsyncIterator[Lease]:
        """A place for one stream while the context is open; QUOTA_EXCEEDED past the player's quota,
        UNAUTHENTICATED if the session ended meanwhile."""
        lease = Lease(player_id, session, uuid.uuid4().hex)
        quota = self.app.settings.watch_streams_per_player
        now_ms = int(time.time() * 1000)
        taken = await self.app.script(TAKE_SCRIPT)(
            keys=lease.keys(), args=[now_ms, int(LEASE_SECONDS * 1000), quota, lease.stream_id]
        )
        if int(taken) < 0:
            raise unauthenticated("the token is unknown, expired or signed out")
        if int(taken) == 0:
            raise quota_exceeded(
                "watch_streams",
                quota,
                f"you have {quota} watch streams open, the most a player may; close one first",
            )
        self.held.add(lease)
        if self.task is None:
            self.task = asyncio.create_task(self._renew_forever())
        try:
            yield lease
        finally:
            self.held.discard(lease)
            with contextlib.suppress(Exception):
                await self.app.redis.zrem(keys.watch_leases(player_id), lease.stream_id)

    async def renew(self) -> None:
        """Renew every held lease; end the streams whose session is gone."""
        leases = list(self.held)
        if not leases:
            return
        now_ms = int(time.time() * 1000)
        async with self.app.redis.pipeline(transaction=False) as pipe:
            for lease in leases:
                pipe.eval(RENEW_SCRIPT, 2, *lease.keys(), now_ms, int(LEASE_SECONDS * 1000), lease.stream_id)
            renewed = await pipe.execute()
        for lease, alive in zip(leases, renewed, strict=True):
            if not int(alive):
                self.fanout.end_session(lease.session)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew()
            except Exception:
                log.warning("renewing watch leases failed; retrying", exc_info=True)

    async def close(self) -> None:
        """Stop renewing."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
