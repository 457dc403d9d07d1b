"""Watch fan-out: one Redis pub/sub connection per gateway process, one queue per watcher.

A change committed through any gateway replica (or a worker) is published on the game's channel with
every seat's view of it; every replica subscribed to that channel hands it to its own watchers, so any
replica serves any watcher. The replica that committed a change hands it to its own watchers at once
(`deliver`) and skips the published copy when it comes back.

The same connection carries the games' chat channels (a watcher's queue gets the game's
ChatMessages too) and the players' inbox channels (`live.inbox`: a WatchInbox queue gets InboxEvents).

A token signed out or revoked is published on `keys.revoked_sessions()`; each replica hands its
streams of that session `SIGNED_OUT` (`end_session`), and they end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live import inbox, keys

log = logging.getLogger(__name__)

Change = tuple[int, rules_pb2.ApplyActionResponse]
QUEUE_LIMIT = 1024


class SignedOut:
    """What a watcher's queue receives when its token stops signing in: the stream ends."""


SIGNED_OUT = SignedOut()
# None: the watcher fell behind and resynchronizes
Item = Change | gateway_pb2.ChatMessage | gateway_pb2.InboxEvent | None | SignedOut
CHAT, INBOX = "chat", "inbox"  # channels other than a game's changes, by what they carry


class Fanout:
    """Routes published changes to the queues of this process's watchers."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self.queues: dict[str, set[asyncio.Queue[Item]]] = defaultdict(set)
        self.sessions: dict[str, set[asyncio.Queue[Item]]] = defaultdict(set)  # session key -> queues
        self.delivered: dict[str, int] = {}  # channel -> newest version handed over by `deliver`
        self.kinds: dict[str, str] = {}  # channel -> CHAT or INBOX (a game's changes otherwise)
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()

    def _hand_over(self, channel: str, change: Item) -> None:
        for queue in list(self.queues.get(channel, ())):
            if queue.qsize() >= QUEUE_LIMIT:  # the watcher is too slow: it resynchronizes (or ends)
                drained = [queue.get_nowait() for _ in range(queue.qsize())]
                queue.put_nowait(SIGNED_OUT if any(isinstance(i, SignedOut) for i in drained) else None)
            else:
                queue.put_nowait(change)

    def deliver(self, game_id: str, version: int, change: rules_pb2.ApplyActionResponse) -> None:
        """Hand a change this process committed to its watchers without waiting for Redis."""
        channel = keys.game_channel(game_id)
        if not self.queues.get(channel):
            return
        self.delivered[channel] = max(version, self.delivered.get(channel, -1))
        self._hand_over(channel, (version, change))

    def end_session(self, session: str) -> None:
        """End this process's watch streams of a session (a token signed out, revoked or expired)."""
        for queue in self.sessions.get(session, ()):
            queue.put_nowait(SIGNED_OUT)

    async def _reader(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except Exception:
                log.warning("watch fan-out lost Redis; retrying", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            if message is None or message["type"] != "message":
                continue
            channel = message["channel"].decode()
            if channel == keys.revoked_sessions():
                self.end_session(message["data"].decode())
                continue
            kind = self.kinds.get(channel)
            if kind == CHAT:
                self._hand_over(channel, gateway_pb2.ChatMessage.FromString(message["data"]))
                continue
            if kind == INBOX:
                event_id, _, payload = message["data"].partition(b"|")
                self._hand_over(channel, inbox.read_entry(event_id, payload))
                continue
            version_text, _, payload = message["data"].partition(b"|")
            version = int(version_text)
            if version <= self.delivered.get(channel, -1):
                continue
            self._hand_over(channel, (version, rules_pb2.ApplyActionResponse.FromString(payload)))

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str, session: str) -> AsyncIterator[asyncio.Queue[Item]]:
        """A queue receiving the game's changes and chat messages for as long as the context is open,
        and SIGNED_OUT if the watcher's session (its key) ends meanwhile."""
        channels = {keys.game_channel(game_id): "", keys.game_chat_channel(game_id): CHAT}
        async with self._subscribed(channels, session) as queue:
            yield queue

    @contextlib.asynccontextmanager
    async def subscribe_inbox(self, player_id: str, session: str) -> AsyncIterator[asyncio.Queue[Item]]:
        """A queue receiving the player's new inbox events, and SIGNED_OUT if the session ends."""
        async with self._subscribed({keys.inbox_channel(player_id): INBOX}, session) as queue:
            yield queue

    @contextlib.asynccontextmanager
    async def _subscribed(self, channels: dict[str, str], session: str) -> AsyncIterator[asyncio.Queue[Item]]:
        queue: asyncio.Queue[Item] = asyncio.Queue()
        async with self.lock:
            if self.task is None:
                await self.pubsub.subscribe(keys.revoked_sessions())
                self.task = asyncio.create_task(self._reader())
            for channel, kind in channels.items():
                if not self.queues[channel]:
                    if kind:
                        self.kinds[channel] = kind
                    await self.pubsub.subscribe(channel)
                self.queues[channel].add(queue)
            self.sessions[session].add(queue)
        try:
            yield queue
        finally:
            async with self.lock:
                self.sessions[session].discard(queue)
                if not self.sessions[session]:
                    del self.sessions[session]
                for channel in channels:
                    self.queues[channel].discard(queue)
                    if not self.queues[channel]:
                        del self.queues[channel]
                        self.delivered.pop(channel, None)
                        self.kinds.pop(channel, None)
                        await self.pubsub.unsubscribe(channel)

    async def close(self) -> None:
        """Stop reading and close the connection."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.pubsub.aclose()
