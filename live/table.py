"""The live table: what the gateway and the workers share: settings, the Redis client, the rules services,
and the dispatcher."""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import dataclass, field
from typing import Protocol

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript

from live.archive import Archive
from live.clocks import Commit
from live.connection import async_client, learn_nodes, register_script
from live.dispatch import dispatcher_from_settings
from live.followups import Followups
from live.guests import Renewals
from live.rules import RulesDirectory
from live.settings import Settings
from live.store import GameStore


class Dispatcher(Protocol):
    """Work that follows a committed change: bot turns, turn clocks, end-game scoring."""

    async def after_commit(self, commit: Commit) -> None:
        """Queue whatever must happen next for the game."""
        ...


class NoDispatch:
    """A dispatcher that queues nothing (no workers configured)."""

    async def after_commit(self, commit: Commit) -> None:
        """Nothing to queue."""


log = logging.getLogger(__name__)


class Background:
    """Runs another dispatcher's work after the reply, in commit order per game.

    The client's move does not wait for the queueing that follows it. A gateway that dies in between
    loses nothing: the workers' clock sweep finds a game whose entry is older than its version and
    dispatches again.
    """

    def __init__(self, inner: Dispatcher) -> None:
        self.inner = inner
        self.last: dict[str, asyncio.Task[None]] = {}

    async def after_commit(self, commit: Commit) -> None:
        """Schedule the inner dispatcher's work behind the game's earlier work."""
        game_id = commit.game_id
        task = asyncio.create_task(self._run(self.last.get(game_id), commit))
        self.last[game_id] = task
        task.add_done_callback(
            lambda done: self.last.pop(game_id, None) if self.last.get(game_id) is done else None
        )

    async def _run(self, previous: asyncio.Task[None] | None, commit: Commit) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        try:
            await self.inner.after_commit(commit)
        except Exception:
            log.exception(
                "dispatch after commit failed", extra={"game_id": commit.game_id, "version": commit.version}
            )

    async def drain(self) -> None:
        """Wait for every scheduled dispatch (at shutdown)."""
        if self.last:
            await asyncio.wait(list(self.last.values()))


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
    guests: Renewals = field(default_factory=Renewals)  # when this process last renewed each guest
    followups: Followups = field(default_factory=Followups)  # commits seen through past their callers

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
