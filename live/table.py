"""The live table: what the gateway and the workers share: settings, the Redis client, the rules services,
and the dispatcher."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript

from live.archive import Archive
from live.clocks import Commit
from live.connection import async_client, learn_nodes, register_script
from live.dispatch import dispatcher_from_settings
from live.followups import Followups
from live.rules import RulesDirectory
from live.settings import Settings
from live.store import GameStore


class Dispatcher(Protocol):
    """Sends the worker tasks that follow a commit (bot turns, scoring: `live.outbox`) and dispatches a
    game again from its clock entry (`after_commit`: a redispatch by the workers)."""

    async def queue(self, task: str, args: Sequence[object]) -> None:
        """Send one worker task by name."""
        ...

    async def after_commit(self, commit: Commit) -> None:
        """Queue whatever must happen next for the game and rewrite its clock entry (`live.clocks`)."""
        ...


class NoDispatch:
    """A dispatcher that queues nothing (no workers configured)."""

    async def queue(self, task: str, args: Sequence[object]) -> None:
        """Nothing to queue."""

    async def after_commit(self, commit: Commit) -> None:
        """Nothing to queue."""


@dataclass
class Table:
    """What the gateway's servicers and the workers' tasks share: settings, Redis, the rules services, the
    dispatcher, the write path's scripts, the guests' renewals and the commits being seen through."""

    settings: Settings
    redis: aioredis.Redis
    rules: RulesDirectory
    dispatcher: Dispatcher = field(default_factory=NoDispatch)
    scripts: dict[str, AsyncScript] = field(default_factory=dict)
    archive: Archive | None = None  # finished games in PostgreSQL, when DATABASE_URL names one
    renewed: dict[str, float] = field(default_factory=dict)  # guest id -> when renewed (`live.guests`)
    followups: Followups = field(default_factory=Followups)  # commits and their follow-ups, seen through

    @functools.cached_property
    def store(self) -> GameStore:
        """The games' records in Redis (and in the archive once they left it)."""
        return GameStore(self.redis, self.settings.event_history, self.settings.replica_acks, self.archive)

    def script(self, source: str) -> AsyncScript:
        """A Lua script on the table's Redis, registered once (publishing sharded on a Cluster:
        `live.connection.register_script`)."""
        if source not in self.scripts:
            self.scripts[source] = register_script(self.redis, source)
        return self.scripts[source]


async def connect(settings: Settings) -> Table:
    """The table of the settings: Redis, every configured rules service, Celery's dispatch, and the
    archive of DATABASE_URL (its migrations applied on its first use, so that a database down
    delays no start)."""
    redis = async_client(settings)
    await learn_nodes(redis)
    rules = RulesDirectory(settings.rules_timeout_seconds)
    await rules.connect(settings.rules_addresses)
    archive = None
    if settings.database_url:
        archive = Archive(settings.database_url, settings.database_timeout_seconds)
    return Table(settings, redis, rules, dispatcher_from_settings(settings, redis), archive=archive)
