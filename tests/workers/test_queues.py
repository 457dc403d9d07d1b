"""The queue each task the write path sends lands on, on a real broker: a finished game's scoring on
the archive queue (with the archival), a bot turn and a deadline on the default one, so a worker of
bot turns never waits behind the end of a game or a slow database."""

from __future__ import annotations

import asyncio
import json

import redis
import redis.asyncio as aioredis

from deploy.throwaway import redis_server
from live import clocks
from live.dispatch import CeleryDispatch
from live.queues import ARCHIVE_GAME, ARCHIVE_QUEUE, DEFAULT_QUEUE, QUEUES
from live.settings import Settings
from workers.app import celery


def queued(client: redis.Redis) -> dict[str, list[str]]:
    """The names of the tasks waiting on each queue, oldest first (the broker pushes on the left)."""
    return {
        queue: [json.loads(message)["headers"]["task"] for message in reversed(client.lrange(queue, 0, -1))]
        for queue in QUEUES
    }


def test_the_write_path_sends_the_scoring_to_the_archive_queue_and_bot_turns_to_the_default_one() -> None:
    with redis_server() as url:
        settings = Settings.from_env({"REDIS_URL": url})

        async def send() -> None:
            connection = aioredis.Redis.from_url(url)
            dispatch = CeleryDispatch(settings, connection)
            await dispatch.queue(clocks.TAKE_TURN, ["g1", 3])
            await dispatch.queue(clocks.FINALIZE, ["g1"])
            await dispatch.queue(clocks.ON_DEADLINE, ["g1"])
            await connection.aclose()

        asyncio.run(send())
        client = redis.Redis.from_url(url)
        assert queued(client) == {
            DEFAULT_QUEUE: [clocks.TAKE_TURN, clocks.ON_DEADLINE],
            ARCHIVE_QUEUE: [clocks.FINALIZE],
        }


def test_the_workers_route_the_end_of_a_game_as_the_write_path_does() -> None:
    routes = celery.conf.task_routes
    assert routes[clocks.FINALIZE] == routes[ARCHIVE_GAME] == {"queue": ARCHIVE_QUEUE}
    assert clocks.TAKE_TURN not in routes and celery.conf.task_default_queue == DEFAULT_QUEUE
