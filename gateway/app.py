"""The gateway's shared parts: settings, the Redis client, the rules services, and the dispatcher."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import redis.asyncio as aioredis

from gateway.rules import RulesDirectory
from gateway.settings import Settings


class Dispatcher(Protocol):
    """Work that follows a committed change: bot turns, turn clocks, end-game scoring."""

    async def after_commit(
        self, game_id: str, version: int, acting_seats: list[int], game_over: bool
    ) -> None:
        """Queue whatever must happen next for the game."""
        ...


class NoDispatch:
    """A dispatcher that queues nothing (no workers configured)."""

    async def after_commit(
        self, game_id: str, version: int, acting_seats: list[int], game_over: bool
    ) -> None:
        """Nothing to queue."""


@dataclass
class Gateway:
    """What every gateway servicer shares."""

    settings: Settings
    redis: aioredis.Redis
    rules: RulesDirectory
    dispatcher: Dispatcher = field(default_factory=NoDispatch)
