"""Watch fan-out across a Redis restart: the changes published while its pub/sub connection was away
never arrive, so every watcher is told to resynchronize once the connection is back; a watcher that
leaves meanwhile leaves cleanly."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redis.asyncio as aioredis
import uvloop
from boardgame.rules.v1 import rules_pb2

from deploy import durability, programs
from deploy.throwaway import free_port
from gateway.fanout import Fanout, Item
from live import keys
from live.connection import async_client
from live.settings import Settings


class RestartableRedis:
    """A redis-server on a fixed port with its AOF in a folder, that can be killed and started again."""

    def __init__(self, folder: Path) -> None:
        binary = programs.installed("redis-server", os.environ, [])
        assert binary is not None
        self.port = free_port()
        self.argv = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder)]
        self.argv += durability.persistence_args(durability.DEFAULT_APPENDFSYNC)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        for _ in range(200):
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[RestartableRedis]:
    server = RestartableRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


async def heard_then_lost(
    client: aioredis.Redis, queue: asyncio.Queue[Item], game_id: str, server: RestartableRedis
) -> None:
    """A change published and heard by the watcher of `queue`, then Redis killed and the fan-out
    given time to find it gone."""
    await client.publish(
        keys.game_channel(game_id), b"1|" + rules_pb2.ApplyActionResponse().SerializeToString()
    )
    assert (await asyncio.wait_for(queue.get(), 5))[0] == 1  # type: ignore[index]
    server.kill()
    await asyncio.sleep(1.5)


def test_a_watcher_resynchronizes_after_the_fanout_lost_redis(restartable: RestartableRedis) -> None:
    game_id = "g1"

    async def scenario() -> object:
        client = aioredis.Redis.from_url(restartable.url)
        fanout = Fanout(client)
        try:
            async with fanout.subscribe(game_id, "a session") as queue:
                await heard_then_lost(client, queue, game_id, restartable)
                restartable.start()
                # Published as the fan-out connects again: whether it arrives or not, the watcher
                # must first hear that it missed what was published while the fan-out was away.
                publisher = aioredis.Redis.from_url(restartable.url)
                await publisher.publish(keys.game_channel(game_id), b"2|")
                await publisher.aclose()
                return await asyncio.wait_for(queue.get(), 10)
        finally:
            await fanout.close()
            await client.aclose()

    assert asyncio.run(scenario()) is None  # resynchronize: read the game afresh


def test_an_unreadable_message_is_dropped_and_the_fanout_goes_on(restartable: RestartableRedis) -> None:
    """A message the fan-out cannot read (here an inbox entry id where a version belongs, as one came
    on a Cluster) once ended its reader, and every watcher of the replica heard nothing more."""
    game_id = "g2"

    async def scenario() -> object:
        client = aioredis.Redis.from_url(restartable.url)
        fanout = Fanout(client)
        try:
            async with fanout.subscribe(game_id, "a session") as queue:
                await client.publish(keys.game_channel(game_id), b"1796132615507-0|not a change")
                change = b"1|" + rules_pb2.ApplyActionResponse().SerializeToString()
                await client.publish(keys.game_channel(game_id), change)
                return await asyncio.wait_for(queue.get(), 5)
        finally:
            await fanout.close()
            await client.aclose()

    assert asyncio.run(scenario())[0] == 1  # type: ignore[index]


def test_a_watcher_leaving_while_redis_is_away_leaves_cleanly_and_is_unsubscribed_once_it_is_back(
    restartable: RestartableRedis,
) -> None:
    """On the gateway's own loop (uvloop) and client: a watch stream that ended while Redis was away
    once failed its clean-up on the lost connection (a ConnectionError, or uvloop's RuntimeError on
    the closed transport, answered INTERNAL); it now ends as it would have, and its channels are
    unsubscribed once Redis is back."""
    game_id = "g3"

    async def scenario() -> tuple[list[bytes | str], set[str]]:
        client = async_client(Settings(redis_url=restartable.url))
        fanout = Fanout(client)
        try:
            async with fanout.subscribe(game_id, "a session") as queue:
                await heard_then_lost(client, queue, game_id, restartable)
            unheard = set(fanout.unheard)
            restartable.start()
            observer = aioredis.Redis.from_url(restartable.url)
            try:
                for _ in range(100):  # the fan-out connects again, then unsubscribes what it could not
                    channels = sorted(await observer.pubsub_channels())
                    if channels == [keys.revoked_sessions().encode()] and not fanout.unheard:
                        break
                    await asyncio.sleep(0.1)
            finally:
                await observer.aclose()
            return channels, unheard
        finally:
            await fanout.close()
            await client.aclose()

    channels, unheard = uvloop.run(scenario())
    assert unheard == {keys.game_channel(game_id), keys.game_chat_channel(game_id)}
    assert channels == [keys.revoked_sessions().encode()]
