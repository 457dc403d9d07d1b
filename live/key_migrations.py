"""Renames of keys whose names changed, for a Redis written by an older version: run once on upgrade
(`python -m gateway.admin migrate-keys`), on the single node the old version used, before moving to a
Cluster. Idempotent: a key already renamed is not matched again.

A player's ratings and history gained the {player_id} hash tag, so that end-game scoring updates both
in one step on one Cluster slot (`workers.scoring`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import redis.asyncio as aioredis

from live import keys
from live.replies import text


@dataclass(frozen=True)
class Rename:
    """Keys matching `pattern` (and holding no hash tag yet) get the name `new` makes of their parts
    (split on ':')."""

    pattern: str
    new: Callable[[list[str]], str]


RENAMES = (
    Rename("rating:*:*", lambda parts: keys.rating(parts[1], ":".join(parts[2:]))),
    Rename("history:player:*", lambda parts: keys.player_games(":".join(parts[2:]))),
)


@dataclass(frozen=True)
class Migrated:
    """What `migrate_keys` did: keys renamed, and keys left as they were because their new name was
    taken already (written since the upgrade; the newer key is kept)."""

    renamed: int
    kept: int


async def migrate_keys(redis: aioredis.Redis) -> Migrated:
    """Rename every key of RENAMES (never over an existing key)."""
    renamed = kept = 0
    for rename in RENAMES:
        async for key in redis.scan_iter(match=rename.pattern):
            name = text(key)
            if "{" in name:
                continue
            if await redis.renamenx(name, rename.new(name.split(":"))):
                renamed += 1
            else:
                kept += 1
    return Migrated(renamed, kept)
