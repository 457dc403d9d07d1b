"""A player's inbox: what they are told of across games and lobbies (their turn, a deadline near, an
invitation, a lobby started, a game ended, a rating changed, a lobby's chat).

Each event goes into the player's capped stream (`keys.inbox`), whose ids are the events' ids, and is
published on the player's channel in the same script, so that any gateway replica serves the player's
WatchInbox: it reads what is kept after the id a client resumes from, then what is published. Every key
carries {player_id}: one player's events are one Cluster slot.

Deadline-near reminders wait in one sorted set (`keys.inbox_reminders`) until the workers' sweep finds
them due (`due_reminders`); a reminder whose turn is over by then is dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from redis.exceptions import ResponseError

from live import keys
from live.connection import register_script, run_script
from live.replies import text

INBOX_KEPT = 200  # events kept per player for a stream that resumes
INBOX_TTL_SECONDS = 30 * 24 * 3600  # an inbox untouched this long is forgotten
REMINDER_SWEEP_LIMIT = 500


@dataclass(frozen=True)
class ReminderLead:
    """How long before a deadline its reminder comes: when `share` of the turn is left, but never
    earlier than `most_ms` before it."""

    share: float
    most_ms: int


# By the clock's pace: a real-time player is told a quarter of the turn and at most five minutes
# before, a correspondence player half the turn and up to twelve hours before (a turn of a day or more).
REMINDER_LEADS = {
    gateway_pb2.CLOCK_PACE_UNSPECIFIED: ReminderLead(0.25, 5 * 60_000),
    gateway_pb2.CLOCK_PACE_REAL_TIME: ReminderLead(0.25, 5 * 60_000),
    gateway_pb2.CLOCK_PACE_CORRESPONDENCE: ReminderLead(0.5, 12 * 3600_000),
}

StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]

# KEYS: the inbox stream. ARGV: 1 the event, 2 events kept, 3 the channel, 4 expiry (s).
POST_SCRIPT = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[3], id .. '|' .. ARGV[1])
return id
"""

# KEYS: the reminders. ARGV: now (ms), most taken. The due reminders, taken out of the set at once, so
# that overlapping sweeps send each once.
TAKE_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
"""


def stamp(ms: int) -> Timestamp:
    """A Timestamp of milliseconds since the epoch."""
    at = Timestamp()
    at.FromMilliseconds(ms)
    return at


def post_args(player_id: str, event: gateway_pb2.InboxEvent) -> tuple[list[str], list[bytes | str | int]]:
    """The keys and arguments of POST_SCRIPT for one event (scripts that post with other writes append
    these)."""
    return [keys.inbox(player_id)], [
        event.SerializeToString(),
        INBOX_KEPT,
        keys.inbox_channel(player_id),
        INBOX_TTL_SECONDS,
    ]


async def post(redis: aioredis.Redis, events: Iterable[tuple[str, gateway_pb2.InboxEvent]]) -> None:
    """Post each (player id, event) to that player's inbox (one round trip)."""
    calls = [post_args(player_id, event) for player_id, event in events]
    if calls:
        await run_script(redis, register_script(redis, POST_SCRIPT), calls)


def read_entry(entry_id: bytes | str, payload: bytes) -> gateway_pb2.InboxEvent:
    """The InboxEvent of a stream entry (or a published `<id>|<event>`), its id set."""
    event = gateway_pb2.InboxEvent.FromString(payload)
    event.event_id = text(entry_id)
    return event


async def kept_after(
    redis: aioredis.Redis, player_id: str, event_id: str
) -> tuple[list[gateway_pb2.InboxEvent], bool]:
    """The kept events after `event_id`, oldest first, and whether some after it may be lost: the
    stream was trimmed (it added more entries than it holds) and `event_id` is older than its first."""
    key = keys.inbox(player_id)
    entries = cast(StreamEntries, await redis.xrange(key, min=f"({event_id}", max="+"))
    events = [read_entry(entry_id, fields[b"e"]) for entry_id, fields in entries]
    try:
        info = await redis.xinfo_stream(key)
    except ResponseError:  # no stream: nothing kept, nothing lost
        return events, False
    first = info.get("first-entry")
    trimmed = int(info["entries-added"]) > int(info["length"])
    return events, bool(trimmed and first and _id(event_id) < _id(text(first[0])))


def _id(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


def reminder_member(game_id: str, version: int, player_id: str) -> str:
    """The member of `keys.inbox_reminders` for a player's turn at a version."""
    return f"{game_id}|{version}|{player_id}"


def reminder_due(started_ms: int, deadline_ms: int, pace: gateway_pb2.ClockPace) -> int:
    """When the deadline-near reminder of a turn from `started_ms` to `deadline_ms` at the clock's
    `pace` is due (`REMINDER_LEADS`)."""
    lead = REMINDER_LEADS.get(pace, REMINDER_LEADS[gateway_pb2.CLOCK_PACE_UNSPECIFIED])
    return deadline_ms - min(lead.most_ms, int((deadline_ms - started_ms) * lead.share))


async def due_reminders(redis: aioredis.Redis, now_ms: int) -> list[tuple[str, int, str]]:
    """The reminders due at `now_ms` (game id, version, player id), taken out of the set."""
    due = await redis.eval(TAKE_DUE, 1, keys.inbox_reminders(), now_ms, REMINDER_SWEEP_LIMIT)
    taken = []
    for member in due:
        game_id, version, player_id = text(member).split("|")
        taken.append((game_id, int(version), player_id))
    return taken
