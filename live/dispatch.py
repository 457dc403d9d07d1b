"""Celery tasks queued by name (bot turns, scoring) for a commit's follow-ups (`live.outbox`), and the
redispatch of a game from its turn clock.

The write path never imports the tasks: it sends them by name (`live.clocks`) to the broker
(CELERY_BROKER_URL, or the Redis of REDIS_URL), so it needs Celery's client only, and the gateway never
imports the workers. Publishing is a blocking call, so it runs on a thread and never stalls the event
loop. A redispatch's clock bookkeeping is `live.clocks.after_commit`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import redis.asyncio as aioredis
from celery import Celery

from live import clocks, queues
from live.settings import Settings


class CeleryDispatch:
    """Queues worker tasks by name, and dispatches a game again from its clock entry."""

    def __init__(self, settings: Settings, redis: aioredis.Redis) -> None:
        broker = settings.broker_url
        self.celery = Celery("gateway", broker=broker, set_as_current=False)
        self.celery.conf.broker_connection_retry_on_startup = True
        self.celery.conf.broker_use_ssl = settings.redis_tls.options(broker)
        self.celery.conf.task_routes = queues.routes()  # the scoring goes to the archive queue
        self.redis = redis

    async def queue(self, task: str, args: Sequence[object]) -> None:
        """Send one task by name."""
        await asyncio.to_thread(self.celery.send_task, task, args=list(args))

    async def after_commit(self, commit: clocks.Commit) -> None:
        """Dispatch a game again: the bot turn or the scoring its version needs, and its clock entry."""
        await clocks.after_commit(self.redis, self.queue, commit)


def dispatcher_from_settings(settings: Settings, redis: aioredis.Redis) -> CeleryDispatch:
    """The dispatcher the settings ask for: Celery on the configured broker."""
    return CeleryDispatch(settings, redis)
