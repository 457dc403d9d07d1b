"""Per-player indexes of games, kept by the write path for ListMyGames: no scan of all games.

Each human player has a hash of their games as ListMyGames shows them (a MyGame each: their own copy,
so a finished game stays listed after its keys expired or went to the archive) and two sorted sets of
ids: live games by last change, finished ones by finish time (the last FINISHED_KEPT). Every key
carries {player_id}, so one player's update is one script on one Cluster slot; a game's players are
updated one script each, in one round trip, right after the game's own commit (and the
deadline-near reminders those updates file, in one set of their own, in a second).

Each update carries a revision (twice the version, plus one for the scoring that follows the last
version), and a stored revision at least as new wins: updates sent late or twice change nothing, and
the inbox event an update carries (their turn, the game ended, their rating) is posted once with it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2

from live import inbox, keys
from live.clocks import KIND_CLOCK, now_ms
from live.connection import register_script, run_script
from live.replies import blob, text

log = logging.getLogger(__name__)

FINISHED_KEPT = 1000  # finished games listed per player
MY_GAMES_TTL_SECONDS = 365 * 24 * 3600  # a player's lists untouched for a year are forgotten

# KEYS: 1 games hash, 2 live set, 3 finished set, 4 inbox stream (all of one player: one slot).
# ARGV: 1 game id, 2 revision, 3 MyGame, 4 score (ms), 5 finished ('1'), 6 finished kept, 7 expiry (s),
# 8 the inbox event ('' none), 9 events kept, 10 channel, 11 inbox expiry (s).
# Returns 1 if the update was new (then its reminder is filed: `committed`), 0 if stale.
UPDATE_SCRIPT = """
local stored = redis.call('HGET', KEYS[1], 'r:' .. ARGV[1])
if stored and tonumber(stored) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3], 'r:' .. ARGV[1], ARGV[2])
if ARGV[5] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
  local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
  if over > 0 then
    local popped = redis.call('ZPOPMIN', KEYS[3], over)
    for i = 1, #popped, 2 do redis.call('HDEL', KEYS[1], popped[i], 'r:' .. popped[i]) end
  end
else
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
if ARGV[8] ~= '' then
  local id = redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[9], '*', 'e', ARGV[8])
  redis.call('EXPIRE', KEYS[4], ARGV[11])
  redis.call('PUBLISH', ARGV[10], id .. '|' .. ARGV[8])
end
return 1
"""


@dataclass(frozen=True)
class Change:
    """A committed version of a game as the players' lists take it: the record's seats as of then, the
    acting seats, whether it is over, and the acting seat's deadline (ms; None without a clock)."""

    record: gateway_pb2.GameRecord
    version: int
    acting_seats: tuple[int, ...]
    game_over: bool
    deadline_ms: int | None = None
    deadline_seat: int | None = None
    at_ms: int = 0
    acting_before: tuple[int, ...] = ()  # YOUR_TURN goes to the players who were not acting before
    pace: gateway_pb2.ClockPace = gateway_pb2.CLOCK_PACE_UNSPECIFIED  # when reminders come


def deadline_of(fields: Mapping[str, int | str] | None) -> tuple[int | None, int | None]:
    """The (deadline ms, seat) of a planned clock entry's fields; (None, None) unless a clock runs."""
    if not fields or fields.get("kind") != KIND_CLOCK:
        return None, None
    return int(fields["due"]), int(fields["seat"])


def humans(record: gateway_pb2.GameRecord) -> list[str]:
    """The ids of a game's human players, each once, in seat order."""
    seen: dict[str, None] = {}
    for seat in record.seats:
        if not seat.player.bot and seat.player.player_id:
            seen.setdefault(seat.player.player_id)
    return list(seen)


def my_game(change: Change, player_id: str) -> gateway_pb2.MyGame:
    """The game as `player_id` sees it listed after `change`."""
    record = change.record
    mine = [s.seat for s in record.seats if s.player.player_id == player_id]
    playing = {s.seat for s in record.seats if s.player.player_id == player_id and not s.resigned}
    acting = () if change.game_over else change.acting_seats
    game = gateway_pb2.MyGame(
        game_id=record.game_id,
        title=record.title,
        seats=record.seats,
        my_seats=mine,
        acting_seats=acting,
        my_turn=any(seat in playing for seat in acting),
        version=change.version,
        status=gateway_pb2.GAME_STATUS_FINISHED if change.game_over else gateway_pb2.GAME_STATUS_ACTIVE,
    )
    game.last_move_at.FromMilliseconds(change.at_ms)
    if change.deadline_ms is not None and change.deadline_seat in playing and game.my_turn:
        game.my_deadline.FromMilliseconds(change.deadline_ms)
    return game


def _event(kind: gateway_pb2.InboxEventKind, game: gateway_pb2.MyGame, at_ms: int) -> gateway_pb2.InboxEvent:
    event = gateway_pb2.InboxEvent(kind=kind, game_id=game.game_id, title=game.title, version=game.version)
    event.at.FromMilliseconds(at_ms)
    if game.HasField("my_deadline"):
        event.deadline.CopyFrom(game.my_deadline)
    return event


def _update_args(
    player_id: str,
    game: gateway_pb2.MyGame,
    revision: int,
    score_ms: int,
    event: gateway_pb2.InboxEvent | None,
) -> tuple[list[str], list[bytes | str | int]]:
    inbox_keys, inbox_args = inbox.post_args(player_id, event or gateway_pb2.InboxEvent())
    return [
        keys.my_games(player_id),
        keys.my_live_games(player_id),
        keys.my_finished_games(player_id),
        *inbox_keys,
    ], [
        game.game_id,
        revision,
        game.SerializeToString(),
        score_ms,
        "1" if game.status == gateway_pb2.GAME_STATUS_FINISHED else "0",
        FINISHED_KEPT,
        MY_GAMES_TTL_SECONDS,
        event.SerializeToString() if event is not None else "",
        *inbox_args[1:],
    ]


async def committed(redis: aioredis.Redis, change: Change) -> None:
    """Update every human player's list after a commit (or the start, version 0), telling those whose
    turn it now is (YOUR_TURN, with a reminder before their deadline), and everyone when it is over.

    The reminders go in their one set (of no player's slot) once the players' updates are in, each only
    for an update that was new: one sent late or twice files none."""
    at = change.at_ms or now_ms()
    change = dataclasses.replace(change, at_ms=at)
    script = register_script(redis, UPDATE_SCRIPT)
    calls, reminders = [], []
    for player_id in humans(change.record):
        game = my_game(change, player_id)
        event = None
        reminder = None
        if change.game_over:
            event = _event(gateway_pb2.INBOX_EVENT_KIND_GAME_ENDED, game, at)
        elif game.my_turn:
            playing = {s.seat for s in change.record.seats if s.player.player_id == player_id}
            if not playing & set(change.acting_before) or change.version == 0:
                event = _event(gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN, game, at)
            if change.deadline_ms is not None and game.HasField("my_deadline"):
                member = inbox.reminder_member(game.game_id, change.version, player_id)
                reminder = (member, inbox.reminder_due(at, change.deadline_ms, change.pace))
        calls.append(_update_args(player_id, game, 2 * change.version, at, event))
        reminders.append(reminder)
    updated = await run_script(redis, script, calls)
    filed = dict(reminder for reminder, new in zip(reminders, updated, strict=True) if reminder and new == 1)
    if filed:
        await redis.zadd(keys.inbox_reminders(), filed)


async def scored(
    redis: aioredis.Redis,
    record: gateway_pb2.GameRecord,
    version: int,
    ranks: Mapping[str, int],
    ratings: Mapping[str, tuple[float, float]],
) -> None:
    """Add a scored game's results to its human players' lists (their rank, scores, rating before and
    after) and tell each of their rating (RATING_CHANGED)."""
    finished_ms = record.finished_at.ToMilliseconds() if record.HasField("finished_at") else now_ms()
    change = Change(record, version, (), True, at_ms=finished_ms)
    script = register_script(redis, UPDATE_SCRIPT)
    calls = []
    for player_id in humans(record):
        game = my_game(change, player_id)
        game.scores.CopyFrom(record.scores)
        game.my_rank = ranks.get(player_id, 0)
        event = _event(gateway_pb2.INBOX_EVENT_KIND_RATING_CHANGED, game, now_ms())
        event.my_rank = game.my_rank
        if player_id in ratings:
            game.rating_before, game.rating_after = ratings[player_id]
            event.rating_before, event.rating_after = ratings[player_id]
        calls.append(_update_args(player_id, game, 2 * version + 1, finished_ms, event))
    await run_script(redis, script, calls)


async def lobby_started(redis: aioredis.Redis, record: gateway_pb2.GameRecord, lobby_id: str) -> None:
    """Tell the human players of a lobby's new game that it started (LOBBY_STARTED)."""
    event = gateway_pb2.InboxEvent(
        kind=gateway_pb2.INBOX_EVENT_KIND_LOBBY_STARTED,
        lobby_id=lobby_id,
        game_id=record.game_id,
        title=record.title,
    )
    event.at.CopyFrom(record.started_at)
    await inbox.post(redis, [(player_id, event) for player_id in humans(record)])


def _sorted_live(games: Sequence[gateway_pb2.MyGame]) -> list[gateway_pb2.MyGame]:
    """Live games as listed: the player's turn first, then by last change, newest first."""
    return sorted(games, key=lambda g: (not g.my_turn, -g.last_move_at.ToMilliseconds(), g.game_id))


# KEYS: 1 games hash, 2 live set, 3 finished set (of one player). ARGV: 1 '1' to read the live games,
# 2 the highest score of the finished games read ('+inf': from the newest), 3 how many at most.
# Returns the live games (newest change first) and the finished ones as (id, score, game) triples, read
# at one moment: a game ending meanwhile is in one part or the other, never both.
LISTING_SCRIPT = """
local live, finished = {}, {}
if ARGV[1] == '1' then
  for _, id in ipairs(redis.call('ZREVRANGE', KEYS[2], 0, -1)) do
    live[#live + 1] = redis.call('HGET', KEYS[1], id) or ''
  end
end
local entries = redis.call('ZREVRANGEBYSCORE', KEYS[3], ARGV[2], '-inf', 'WITHSCORES', 'LIMIT', 0,
  tonumber(ARGV[3]))
for i = 1, #entries, 2 do
  finished[#finished + 1] = entries[i]
  finished[#finished + 1] = entries[i + 1]
  finished[#finished + 1] = redis.call('HGET', KEYS[1], entries[i]) or ''
end
return {live, finished}
"""
TIES_READ = 64  # finished games read past a page's end, for those finishing at the cursor's moment


async def listing(
    redis: aioredis.Redis, player_id: str, live: bool, before: tuple[float, str] | None, count: int
) -> tuple[list[gateway_pb2.MyGame], list[tuple[gateway_pb2.MyGame, float]]]:
    """The player's games at one moment: every live one as listed (the player's turn first) if `live`,
    and up to `count` finished ones, newest first, after the cursor `before` (score and id of the last
    one shown), each with its score."""
    script = register_script(redis, LISTING_SCRIPT)
    lists = [keys.my_games(player_id), keys.my_live_games(player_id), keys.my_finished_games(player_id)]
    top = repr(before[0]) if before else "+inf"
    found, entries = await script(keys=lists, args=["1" if live else "0", top, count + TIES_READ])
    playing = _sorted_live([gateway_pb2.MyGame.FromString(blob(raw)) for raw in found if raw])
    finished = [
        (gateway_pb2.MyGame.FromString(blob(raw)), float(score))
        for game_id, score, raw in zip(entries[::3], entries[1::3], entries[2::3], strict=True)
        if raw and (before is None or float(score) < before[0] or text(game_id) < before[1])
    ]
    return playing, finished[:count]


async def after_commit(redis: aioredis.Redis, change: Change) -> None:
    """`committed`, for a commit that stands whatever happens here: a failure is logged, never raised
    (the lists catch up at the game's next commit)."""
    try:
        await committed(redis, change)
    except Exception:
        log.exception("my games update failed", extra={"game_id": change.record.game_id})
