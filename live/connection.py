"""How the gateway and the workers reach Redis: one node, or a Redis Cluster through redis-py's cluster
client, as the settings say (`live.settings.Settings.cluster`).

The cluster client answers the same commands as the single-node one (it routes each by its key's slot,
splits non-transactional pipelines per node and keeps a transaction on the one slot of its keys), so
the rest of the code is typed against `redis.asyncio.Redis` and asks `clustered` only where the two
differ: pub/sub (sharded on a Cluster) and the replica acknowledgement of the write path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, cast

import redis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from live.settings import CLUSTER_SCHEMES, Settings, cluster_url

log = logging.getLogger(__name__)


def node_url(url: str) -> str:
    """The URL redis-py reads: a redis+cluster:// (rediss+cluster://) URL as redis:// (rediss://)."""
    for scheme in CLUSTER_SCHEMES:
        if url.startswith(scheme):
            return scheme.replace("+cluster", "") + url[len(scheme) :]
    return url


class _ClosedWhileWriting:
    """A connection on which a write that meets the connection closed under it fails as the
    ConnectionError redis-py retries, never as what reached clients as INTERNAL: the AttributeError or
    TypeError of asyncio's writer torn down by a concurrent disconnect (as the cluster client does to
    a node's connections while it reloads the slot map; redis-py 8.1, redis/redis-py#4287), or uvloop's
    RuntimeError on a transport Redis closed (a pub/sub connection told to unsubscribe after Redis
    went away)."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        try:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
        except (AttributeError, TypeError) as error:
            raise redis.exceptions.ConnectionError(
                f"the connection closed while writing to it: {error}"
            ) from error
        except RuntimeError as error:
            writer = getattr(self, "_writer", None)
            if writer is not None and not writer.transport.is_closing():
                raise  # not a closed connection: a fault of ours, reported as such
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise redis.exceptions.ConnectionError(f"the connection was closed: {error}") from error


class _CancelledWhileWriting:
    """A connection on which a write whose task is cancelled meanwhile raises CancelledError. redis-py
    bounds each write with `asyncio.wait_for`, which on Python 3.11 returns the write's result when
    the cancellation comes as the write completes, and the cancellation is lost (CPython gh-86296;
    3.12's wait_for is built on asyncio.timeout and keeps it). Of the cancellations that came while a
    command ran, more than half were lost so: a watch stream that its client cancelled while the
    gateway read Redis went on waiting for changes, holding its place in the player's quota. The
    reply the write asked for is never read, so the connection is closed."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        task = asyncio.current_task()
        asked = task.cancelling() if task is not None else 0
        await super().send_packed_command(command, check_health)  # type: ignore[misc]
        if task is not None and task.cancelling() > asked:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise asyncio.CancelledError


class Connection(_CancelledWhileWriting, _ClosedWhileWriting, aioredis.Connection):
    """A plain connection of the gateway's and workers' clients (`_CancelledWhileWriting`,
    `_ClosedWhileWriting`)."""


class SSLConnection(_CancelledWhileWriting, _ClosedWhileWriting, aioredis.SSLConnection):
    """A TLS connection of the gateway's and workers' clients (`_CancelledWhileWriting`,
    `_ClosedWhileWriting`)."""


def _connection_class(url: str) -> type[aioredis.Connection]:
    return SSLConnection if url.startswith("rediss://") else Connection


def async_client(settings: Settings) -> aioredis.Redis:
    """The gateway's and workers' client of the settings' Redis: at most REDIS_MAX_CONNECTIONS
    connections (per node on a Cluster). On one node a command finding them all busy waits for a free
    one (up to REDIS_POOL_TIMEOUT_SECONDS) rather than failing, as redis-py's own pool does past 100:
    a thousand games' watchers reading at once need more."""
    url = node_url(settings.redis_url)
    tls = settings.redis_tls.options(settings.redis_url)
    connection_class = _connection_class(url)
    if settings.cluster:
        client = RedisCluster.from_url(url, max_connections=settings.redis_max_connections, **tls)
        # The nodes it knows and those it will discover make their connections of this class.
        client.nodes_manager.connection_kwargs["connection_class"] = connection_class
        for node in client.nodes_manager.startup_nodes.values():
            node.connection_class = connection_class
        return cast(aioredis.Redis, client)  # the same commands, routed by slot (see the docstring)
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=settings.redis_max_connections,
        timeout=settings.redis_pool_timeout_seconds,
        connection_class=connection_class,
        **tls,
    )
    return aioredis.Redis.from_pool(pool)


async def learn_nodes(client: aioredis.Redis) -> None:
    """On a Cluster, learn its nodes and slots now, before the client serves: redis-py learns them on
    the first command, and a burst of first commands racing that closes the connections of commands
    in flight, which it then sends again (a script that had run runs twice: a call counted twice
    against its rate limit) or fails (STORE_UNAVAILABLE). A Cluster out of reach now is learnt on
    the first command, as before. Nothing to do on one node."""
    if not clustered(client):
        return
    try:
        await cast(RedisCluster, client).initialize()
    except UNREACHABLE as error:
        log.warning("the Redis Cluster is out of reach; its nodes will be learnt on first use: %s", error)


def sync_client(url: str, cluster: bool = False, **options: Any) -> redis.Redis:
    """A blocking client of the Redis at `url` (a Cluster when `cluster` or the URL says so), for
    operators' tools, the workers' queue gauge and tests."""
    if cluster or cluster_url(url):
        return cast(redis.Redis, redis.RedisCluster.from_url(node_url(url), **options))
    return redis.Redis.from_url(url, **options)


# What a command meets while its Redis is out of reach or a Cluster fails over (a dead node, a slot
# with no primary yet, a write reaching a node just turned replica): worth retrying, never a bug.
UNREACHABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ClusterError,
    redis.exceptions.TryAgainError,
    redis.exceptions.SlotNotCoveredError,
    redis.exceptions.ReadOnlyError,
)


def clustered(client: object) -> bool:
    """Whether a client speaks to a Redis Cluster."""
    return isinstance(client, RedisCluster | redis.RedisCluster)


# How a Lua script publishes, and how it does on a Cluster: sharded, on the slot of the script's keys, where
# the fan-out's SSUBSCRIBE listens (`gateway.fanout`). A script's channel shares the slot of its keys.
PUBLISH, SHARDED_PUBLISH = "redis.call('PUBLISH'", "redis.call('SPUBLISH'"


def script_source(source: str, sharded: bool) -> str:
    """A Lua script as it runs on one node, or on a Cluster (`sharded`): its PUBLISH made SPUBLISH."""
    return source.replace(PUBLISH, SHARDED_PUBLISH) if sharded else source


def register_script(client: aioredis.Redis, source: str) -> AsyncScript:
    """A Lua script on `client`, publishing as the client's deployment needs (`script_source`)."""
    return client.register_script(script_source(source, clustered(client)))


async def run_script(
    client: aioredis.Redis, script: AsyncScript, calls: Sequence[tuple[Sequence[str], Sequence[Any]]]
) -> list[Any]:
    """The replies of `script` run once per (keys, arguments) of `calls`, in one round trip: a pipeline
    that is no transaction, split per node on a Cluster (where redis-py refuses a registered script in
    a pipeline), each call on the node of its keys' slot. A call meeting a node that does not know the
    script yet runs again with its source, once; any other error is raised."""
    replies: list[Any] = [NoScriptError()] * len(calls)
    for command, body in (("EVALSHA", script.sha), ("EVAL", script.script)):
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if not missing:
            break
        async with client.pipeline(transaction=False) as pipe:
            for i in missing:
                keys, args = calls[i]
                pipe.execute_command(command, body, len(keys), *keys, *args)
            for i, reply in zip(missing, await pipe.execute(raise_on_error=False), strict=True):
                replies[i] = reply
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies
