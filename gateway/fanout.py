"""Watch fan-out: one Redis pub/sub connection per gateway process, one queue per watcher.

A change committed through any gateway replica (or a worker) is published on the game's channel with
every seat's view of it; every replica subscribed to that channel hands it to its own watchers, so any
replica serves any watcher. The replica that committed a change hands it to its own watchers at once
(`deliver`) and skips the published copy when it comes back. Pub/sub keeps nothing for a connection
that is away: once the connection to Redis is back after a loss, every watcher is told to
resynchronize (a `None` in its queue), as the changes published meanwhile never arrive.

The same connection carries the games' chat channels (a watcher's queue gets the game's
ChatMessages too) and the players' inbox channels (`live.inbox`: a WatchInbox queue gets InboxEvents).
A game's channel also carries the changes of its takeback requests (`live.takebacks`), which are no
versions of the game: a watcher's queue gets them as Takebacks.

A token signed out or revoked is published on `keys.revoked_sessions()`; each replica hands its
streams of that session `SIGNED_OUT` (`end_session`), and they end.

On a Redis Cluster the channels are sharded (SSUBSCRIBE to the node of the game's slot, where the write
path's SPUBLISH sends them), so a change goes to the one shard holding the game rather than to every
node; redis-py's cluster pub/sub keeps one connection per node, and the fan-out reads each of them in
a task of its own (`_read_shard`), so a message is handed over as soon as its node sends it rather than
when a round of the nodes comes to it (which cost up to 20 ms a node). When reading fails (a node died), the
fan-out asks the Cluster again which node serves each slot, moves the subscriptions of a slot whose
primary changed (its replica took over) and has those games' watchers resynchronize, as the changes
published meanwhile did not reach them; on one node, every watcher resynchronizes once Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, cast

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from redis.asyncio.cluster import ClusterPubSub, RedisCluster

from live import inbox, keys, takebacks
from live.connection import UNREACHABLE, clustered

log = logging.getLogger(__name__)

Change = tuple[int, rules_pb2.ApplyActionResponse]
QUEUE_LIMIT = 1024
READ_WAIT_SECONDS = 1.0  # how long one read waits for a message before it looks again


class SignedOut:
    """What a watcher's queue receives when its token stops signing in: the stream ends."""


SIGNED_OUT = SignedOut()
# None: the watcher fell behind and resynchronizes
Item = Change | gateway_pb2.ChatMessage | gateway_pb2.InboxEvent | gateway_pb2.Takeback | None | SignedOut
CHAT, INBOX = "chat", "inbox"  # channels other than a game's changes, by what they carry


class Fanout:
    """Routes published changes to the queues of this process's watchers."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self.sharded = clustered(redis)
        self.lost = False  # reading failed since the last recovery
        self.queues: dict[str, set[asyncio.Queue[Item]]] = defaultdict(set)
        self.sessions: dict[str, set[asyncio.Queue[Item]]] = defaultdict(set)  # session key -> queues
        self.delivered: dict[str, int] = {}  # channel -> newest version handed over by `deliver`
        self.kinds: dict[str, str] = {}  # channel -> CHAT or INBOX (a game's changes otherwise)
        self.unheard: set[str] = set()  # channels without a watcher that Redis could not be told of
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        # On a Cluster: a reader per node's connection (by node name), handing what it reads (or the
        # error that stopped it) to `_next_message`.
        self.shard_readers: dict[str, asyncio.Task[None]] = {}
        self.shard_messages: asyncio.Queue[dict[str, Any] | Exception] = asyncio.Queue()

    def _hand_over(self, channel: str, change: Item) -> None:
        for queue in list(self.queues.get(channel, ())):
            if queue.qsize() >= QUEUE_LIMIT:  # the watcher is too slow: it resynchronizes (or ends)
                _resync(queue)
            else:
                queue.put_nowait(change)

    async def _recover(self) -> None:
        """After reading failed: on a Cluster, the subscriptions of slots that changed primary move to
        the new one and their watchers resynchronize; on one node, every watcher does once reading
        works again (`_reader`)."""
        if not self.sharded:
            return
        cluster = cast(RedisCluster, self.redis)
        before = {channel: cluster.get_node_from_key(channel) for channel in self.queues}
        await cluster.nodes_manager.initialize()
        await cast(ClusterPubSub, self.pubsub).reinitialize_shard_subscriptions()
        for channel, node in before.items():
            if cluster.get_node_from_key(channel) != node:
                self._resync(channel)

    def _resync(self, channel: str) -> None:
        for queue in list(self.queues.get(channel, ())):
            _resync(queue)

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

    async def _next_message(self) -> dict[str, Any] | None:
        if not self.sharded:
            return await self.pubsub.get_message(timeout=READ_WAIT_SECONDS)
        self._read_shards()
        try:
            item = await asyncio.wait_for(self.shard_messages.get(), READ_WAIT_SECONDS)
        except TimeoutError:
            return None
        if isinstance(item, Exception):
            raise item
        return item

    def _read_shards(self) -> None:
        """Start a reader for each node's connection that has none running (a new node subscribed to,
        or its reader stopped by an error)."""
        for name in list(cast(ClusterPubSub, self.pubsub).node_pubsub_mapping):
            reader = self.shard_readers.get(name)
            if reader is None or reader.done():
                self.shard_readers[name] = asyncio.create_task(self._read_shard(name))

    async def _read_shard(self, name: str) -> None:
        """Hand each message of one node's connection to `_next_message` as it comes, until the
        connection is dropped (its last channel left) or reading it fails (the error is handed on)."""
        pubsub = cast(ClusterPubSub, self.pubsub)
        node = cast(RedisCluster, self.redis).get_node(node_name=name)
        try:
            while node is not None and name in pubsub.node_pubsub_mapping:
                message = await pubsub.get_sharded_message(
                    ignore_subscribe_messages=True, timeout=READ_WAIT_SECONDS, target_node=node
                )
                if message is not None:
                    self.shard_messages.put_nowait(message)
        except Exception as error:
            self.shard_messages.put_nowait(error)

    async def _reader(self) -> None:
        while True:
            try:
                message = await self._next_message()
            except Exception:
                if not self.lost:  # once per outage, not every retry
                    log.warning("watch fan-out lost Redis; retrying", exc_info=True)
                self.lost = True
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._recover()
                continue
            if self.lost:
                self.lost = False
                if not self.sharded:  # on a Cluster, `_recover` resynchronized the games that moved
                    for channel in list(self.queues):
                        self._resync(channel)
                if self.unheard:
                    async with self.lock:
                        await self._unsubscribe_unheard()
            if message is None or message["type"] not in ("message", "smessage"):
                continue
            channel = message["channel"].decode()
            if channel == keys.revoked_sessions():
                self.end_session(message["data"].decode())
                continue
            if channel not in self.queues:  # unsubscribed meanwhile (a shard may still deliver it)
                continue
            try:
                self._route(channel, message["data"])
            except Exception:  # one message that cannot be read must not stop the fan-out
                log.warning("watch fan-out dropped an unreadable message on %s", channel, exc_info=True)

    def _route(self, channel: str, data: bytes) -> None:
        """Hand one published message to the channel's watchers, by the channel's kind."""
        kind = self.kinds.get(channel)
        if kind == CHAT:
            self._hand_over(channel, gateway_pb2.ChatMessage.FromString(data))
        elif kind == INBOX:
            event_id, _, payload = data.partition(b"|")
            self._hand_over(channel, inbox.read_entry(event_id, payload))
        elif data.startswith(takebacks.PUBLISHED):  # a takeback request's change: no version of the game
            self._hand_over(channel, gateway_pb2.Takeback.FromString(data[len(takebacks.PUBLISHED) :]))
        else:
            version_text, _, payload = data.partition(b"|")
            version = int(version_text)
            if version > self.delivered.get(channel, -1):
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
        try:
            async with self.lock:
                if self.task is None:
                    # Sign-outs come sharded on a Cluster, as `gateway.auth.end_sessions` publishes them.
                    await self._listen(keys.revoked_sessions())
                    self.task = asyncio.create_task(self._reader())
                self.sessions[session].add(queue)
                for channel, kind in channels.items():
                    first = not self.queues[channel]
                    self.queues[channel].add(queue)
                    if first:
                        if kind:
                            self.kinds[channel] = kind
                        await self._listen(channel)
                if self.sharded:
                    self._read_shards()  # a node subscribed to for the first time is read at once
            yield queue
        finally:
            async with self.lock:
                self._forget(queue, channels, session)
                await self._unsubscribe_unheard()

    async def _listen(self, channel: str) -> None:
        await (self.pubsub.ssubscribe if self.sharded else self.pubsub.subscribe)(channel)

    def _forget(self, queue: asyncio.Queue[Item], channels: dict[str, str], session: str) -> None:
        """Take a watcher's queue off its session and channels; a channel left without a watcher is to
        be unsubscribed."""
        self.sessions[session].discard(queue)
        if not self.sessions[session]:
            del self.sessions[session]
        for channel in channels:
            self.queues[channel].discard(queue)
            if not self.queues[channel]:
                del self.queues[channel]
                self.delivered.pop(channel, None)
                self.kinds.pop(channel, None)
                self.unheard.add(channel)

    async def _unsubscribe_unheard(self) -> None:
        """Unsubscribe the channels no watcher listens to (under `lock`). While Redis is out of reach
        they stay to be unsubscribed once reading works again (redis-py subscribes its connection
        again to every channel it did not hear unsubscribed); the watcher's stream ends as it would
        have, its answer not changed by this clean-up."""
        forget = self.pubsub.sunsubscribe if self.sharded else self.pubsub.unsubscribe
        for channel in sorted(self.unheard):
            if channel not in self.queues:  # not listened to again meanwhile
                try:
                    await forget(channel)
                except UNREACHABLE as error:
                    log.info("watch fan-out will unsubscribe %s once Redis is back: %s", channel, error)
                    return
            self.unheard.discard(channel)

    async def close(self) -> None:
        """Stop reading and close the connection."""
        for task in [self.task, *self.shard_readers.values()]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.pubsub.aclose()


def _resync(queue: asyncio.Queue[Item]) -> None:
    """Have a watcher resynchronize: its pending changes are dropped for a fresh view (or, when its
    session ended meanwhile, for the end of its stream)."""
    drained = [queue.get_nowait() for _ in range(queue.qsize())]
    queue.put_nowait(SIGNED_OUT if any(isinstance(item, SignedOut) for item in drained) else None)
