"""Deadline-near reminders: a player whose turn runs under a clock is told before their time runs out.

A commit that makes it a player's turn under a clock files the reminder (`live.mygames`); the workers'
sweep takes the due ones every second (`live.inbox.due_reminders`) and sends each whose turn is still
on: the game still at that version, its clock still running for one of the player's seats.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2

from live import inbox, keys
from live.clocks import KIND_CLOCK, now_ms, read_entry
from live.store import read_meta


async def send_due(redis: aioredis.Redis, now: int | None = None) -> int:
    """Send the reminders due at `now` whose turn is still on; the number sent."""
    now = now_ms() if now is None else now
    events: list[tuple[str, gateway_pb2.InboxEvent]] = []
    for game_id, version, player_id in await inbox.due_reminders(redis, now):
        current = await redis.get(keys.game_version(game_id))
        entry = await read_entry(redis, game_id)
        if current is None or int(current) != version or entry is None or entry.kind != KIND_CLOCK:
            continue
        if entry.version != version or entry.due <= now:
            continue
        meta = await read_meta(redis, game_id)
        if meta is None or not any(
            s.seat == entry.seat and s.player.player_id == player_id for s in meta.record.seats
        ):
            continue
        event = gateway_pb2.InboxEvent(
            kind=gateway_pb2.INBOX_EVENT_KIND_DEADLINE_NEAR,
            game_id=game_id,
            title=meta.record.title,
            version=version,
        )
        event.at.FromMilliseconds(now)
        event.deadline.FromMilliseconds(entry.due)
        events.append((player_id, event))
    if events:
        await inbox.post(redis, events)
    return len(events)
