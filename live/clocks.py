"""Turn clocks and watchdogs, kept in Redis and swept every second: never a long broker countdown.

Every active game has one entry: a hash (`keys.game_clock`) saying what the workers wait for at which
version, and its due time in one sorted set (`keys.deadlines`). A move plans its version's entry
(`plan`) from the meta and entry read with its snapshot, and its commit writes the entry together with
the version, so whoever sees a version finds its deadline, and the commit's outbox entry
(`live.outbox`) then files the due time and queues the tasks. A change of hands (a resignation, a
forfeit) plans and commits its entry the same way, from the meta after it; a redispatch by the
workers (`after_commit`) plans and writes the entry itself. Entries by kind:

- a bot acts: its turn is queued at once and the entry is a watchdog (`bot`), due if the turn is lost
  (made due at once by a worker that starts after its turn was queued: `workers.recovery`);
- a human acts under a clock: the entry (`clock`) is due when the seat's time runs out: the per-move
  limit and what is left of the seat's reserve, or what is left of its total time, whichever comes
  first; total time is charged per move and then credited the increment, and a move longer than the
  per-move limit spends the reserve (`left:<seat>`, `reserve:<seat>`);
- a human acts without a clock: a periodic check (`watch`), so a commit whose dispatch was lost (a
  crash between the commit and the dispatch) is noticed and dispatched again. A standing check that is
  not due for a while yet is left as it is: when it falls due for an older version, the sweep
  dispatches the current one, which is all a lost dispatch needs;
- the game is over: `finalize` is queued and the entry (`score`), written by the final commit with
  its version, is a watchdog due if the scoring is lost (its task rejected while Redis restarted, its
  worker killed); a worker removes it once the game is scored (`workers.tasks.finalize`), so a finished
  game is scored however often its scoring task is lost.

The sweep (`due_games`) leases due entries for a while so that overlapping sweeps queue a game once,
and the workers handle each with `on_deadline`, which treats the hash as the truth: a stale version
means a lost dispatch, a passed clock means a timeout. The entry's version only ever grows, so a late
dispatch of an older version cannot overwrite a newer one. A gateway that dies between a commit and
filing its due time leaves the game's earlier due time filed: the sweep then finds the entry early
(and files its due time) or already due, so a timeout comes late but never goes missing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2

from live import keys, queues
from live.errors import invalid
from live.store import STATUS_FINISHED, Meta, read_meta

KIND_CLOCK, KIND_BOT, KIND_WATCH, KIND_SCORE = "clock", "bot", "watch", "score"
BOT_WATCHDOG_MS = 30_000
SCORE_WATCHDOG_MS = 30_000  # scoring takes well under a second; its retries through outages back off
WATCH_INTERVAL_MS = 60_000
WATCH_STANDING_MS = WATCH_INTERVAL_MS // 2  # a watch entry due later than this is left as it is
LEASE_MS = 10_000
SWEEP_LIMIT = 500
# The per-move limits of each pace (seconds, least and most): real-time games are played in one
# sitting, correspondence games over hours or days.
PACE_PER_MOVE = {
    gateway_pb2.CLOCK_PACE_UNSPECIFIED: (0, 3600),
    gateway_pb2.CLOCK_PACE_REAL_TIME: (0, 3600),
    gateway_pb2.CLOCK_PACE_CORRESPONDENCE: (3600, 30 * 24 * 3600),
}

TAKE_TURN = "workers.take_turn"
FINALIZE = queues.FINALIZE  # on the archive queue (`live.queues`)
ON_DEADLINE = "workers.on_deadline"

Queue = Callable[[str, Sequence[object]], Awaitable[None]]

# Write the entry only if it is not older than the stored one; fields come as name/value pairs.
SET_ENTRY = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if stored > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], unpack(ARGV, 2))
return 1
"""

LEASE_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


def now_ms() -> int:
    """Milliseconds since the epoch."""
    return int(time.time() * 1000)


def is_bot_seat(seat: gateway_pb2.GameSeat) -> bool:
    """Whether a bot plays the seat: a bot player, a set bot strength, or a resigned or forfeited human."""
    return bool(seat.bot_strength or seat.player.bot or seat.resigned)


@dataclass(frozen=True)
class Entry:
    """A game's clock entry as stored."""

    version: int
    kind: str
    seat: int
    started_at: int
    due: int
    left: dict[int, int]
    reserve: dict[int, int]


@dataclass(frozen=True)
class Plan:
    """What a new version needs: tasks to queue (name, args) and the clock entry to write (its fields,
    `due` included), or None when the stored entry stands."""

    tasks: tuple[tuple[str, tuple[object, ...]], ...]
    fields: dict[str, int | str] | None

    @property
    def idle(self) -> bool:
        """Whether nothing is left to do: no task to queue and the stored entry stands."""
        return not self.tasks and self.fields is None

    def pairs(self) -> list[int | str]:
        """The entry's fields as name/value pairs, as the write scripts take them."""
        return [item for name, value in (self.fields or {}).items() for item in (name, value)]


@dataclass(frozen=True)
class Commit:
    """A committed version of a game, as a redispatch is told of it: what acts next, and whether the
    game is over."""

    game_id: str
    version: int
    acting_seats: tuple[int, ...]
    game_over: bool


def entry_of(fields: dict[bytes, bytes]) -> Entry | None:
    """The entry of a stored clock hash (None for an empty one)."""
    if not fields:
        return None
    left = {int(k[5:]): int(v) for k, v in fields.items() if k.startswith(b"left:")}
    reserve = {int(k[8:]): int(v) for k, v in fields.items() if k.startswith(b"reserve:")}
    return Entry(
        int(fields.get(b"version", b"-1")),
        fields.get(b"kind", b"").decode(),
        int(fields.get(b"seat", b"-1")),
        int(fields.get(b"started_at", b"0")),
        int(fields.get(b"due", b"0")),
        left,
        reserve,
    )


def check_clock(clock: gateway_pb2.TurnClock) -> None:
    """Refuse a clock whose parts do not fit together (INVALID_ARGUMENT, reason INVALID_CLOCK)."""
    least, most = PACE_PER_MOVE.get(clock.pace, PACE_PER_MOVE[gateway_pb2.CLOCK_PACE_UNSPECIFIED])
    if not least <= clock.per_move_seconds <= most:
        pace = gateway_pb2.ClockPace.Name(clock.pace)
        raise invalid(
            "INVALID_CLOCK",
            f"per_move_seconds must be {least} to {most} at {pace}, not {clock.per_move_seconds}",
            field="clock.per_move_seconds",
        )
    if clock.increment_seconds and not clock.total_seconds:
        raise invalid(
            "INVALID_CLOCK", "increment_seconds needs total_seconds", field="clock.increment_seconds"
        )
    if clock.reserve_seconds and not clock.per_move_seconds:
        raise invalid(
            "INVALID_CLOCK", "reserve_seconds needs per_move_seconds", field="clock.reserve_seconds"
        )


async def read_entry(redis: aioredis.Redis, game_id: str) -> Entry | None:
    """The game's clock entry, or None."""
    fields: dict[bytes, bytes] = await redis.hgetall(keys.game_clock(game_id))  # type: ignore[assignment]
    return entry_of(fields)


async def deadline_ms(redis: aioredis.Redis, game_id: str) -> int | None:
    """When the acting seat's time runs out (ms since the epoch); None without a running clock."""
    entry = await read_entry(redis, game_id)
    return entry.due if entry is not None and entry.kind == KIND_CLOCK else None


async def _write(redis: aioredis.Redis, game_id: str, version: int, plan: Plan) -> None:
    written = await redis.eval(SET_ENTRY, 1, keys.game_clock(game_id), version, *plan.pairs())
    if written and plan.fields is not None:
        await redis.zadd(keys.deadlines(), {game_id: plan.fields["due"]})


async def clear(redis: aioredis.Redis, game_id: str) -> None:
    """Remove the game's entry (the game is over)."""
    await redis.zrem(keys.deadlines(), game_id)
    await redis.delete(keys.game_clock(game_id))


async def scored(redis: aioredis.Redis, game_id: str) -> None:
    """Remove the game's `score` watchdog (its scoring is done); any other entry stays."""
    entry = await read_entry(redis, game_id)
    if entry is not None and entry.kind == KIND_SCORE:
        await clear(redis, game_id)


def _charged(
    previous: Entry | None, version: int, clock: gateway_pb2.TurnClock, now: int
) -> tuple[dict[int, int], dict[int, int]]:
    """Total time and reserve left per seat after charging the move that produced `version`: its time
    off the total, then the increment on it; its time past the per-move limit off the reserve."""
    left = dict(previous.left) if previous is not None else {}
    reserve = dict(previous.reserve) if previous is not None else {}
    if previous is None or previous.kind != KIND_CLOCK or previous.version >= version:
        return left, reserve
    spent, seat = max(0, now - previous.started_at), previous.seat
    total_ms, per_move_ms = clock.total_seconds * 1000, clock.per_move_seconds * 1000
    if total_ms:
        left[seat] = max(0, left.get(seat, total_ms) - spent) + clock.increment_seconds * 1000
    if clock.reserve_seconds and per_move_ms and spent > per_move_ms:
        reserve[seat] = max(0, reserve.get(seat, clock.reserve_seconds * 1000) - (spent - per_move_ms))
    return left, reserve


def plan(
    version: int,
    acting_seats: Sequence[int],
    meta: Meta,
    previous: Entry | None,
    now: int,
    *,
    moved: bool = True,
) -> Plan:
    """What a new version of an active game needs, given its meta (as of that version) and the entry
    stored before. `moved` False: the version is no move but a change of hands, so a human seat whose
    clock runs goes on with the same turn (not charged, same start)."""
    game_id = meta.record.game_id
    seats = {seat.seat: seat for seat in meta.record.seats}
    bots = [s for s in acting_seats if s in seats and is_bot_seat(seats[s])]
    tasks: tuple[tuple[str, tuple[object, ...]], ...] = ((TAKE_TURN, (game_id, version)),) if bots else ()
    if previous is not None and previous.version > version:
        return Plan(tasks, None)
    same = previous is not None and previous.version == version
    clock = meta.clock
    total_ms = clock.total_seconds * 1000
    if moved or previous is None:
        left, reserve = _charged(previous, version, clock, now)
    else:
        left, reserve = dict(previous.left), dict(previous.reserve)
    fields: dict[str, int | str] = {f"left:{seat}": ms for seat, ms in left.items()}
    fields.update({f"reserve:{seat}": ms for seat, ms in reserve.items()})
    humans = [s for s in acting_seats if s not in bots]
    if bots or not humans:
        return Plan(tasks, {**fields, "kind": KIND_BOT, "due": now + BOT_WATCHDOG_MS})
    seat = humans[0]
    same = same or (not moved and previous is not None and previous.seat == seat)
    if not (clock.per_move_seconds or clock.total_seconds):
        standing = previous is not None and previous.kind == KIND_WATCH
        if standing and previous is not None and previous.due - now > WATCH_STANDING_MS:
            return Plan(tasks, None)  # the standing check covers this version too (see the module docstring)
        return Plan(tasks, {**fields, "kind": KIND_WATCH, "due": now + WATCH_INTERVAL_MS})
    started = previous.started_at if same and previous is not None and previous.kind == KIND_CLOCK else now
    limits = []
    if clock.per_move_seconds:
        reserve_ms = reserve.get(seat, clock.reserve_seconds * 1000)
        limits.append(started + clock.per_move_seconds * 1000 + reserve_ms)
    if total_ms:
        limits.append(started + left.get(seat, total_ms))
    fields.update(kind=KIND_CLOCK, seat=seat, started_at=started, due=min(limits))
    return Plan(tasks, fields)


def restored(
    version: int,
    acting_seats: Sequence[int],
    meta: Meta,
    saved: Entry | None,
    current: Entry | None,
    now: int,
) -> Plan:
    """What an undo's version needs: the clock entry `saved` of the version it returns to, as it was
    then, when a clock ran then and runs now for the same seat, which acts again: the turn goes on from
    when the decision taken back began, with the total time and reserve left before it (the time spent
    since is not given back, and no increment is given twice). Otherwise, the plan of a change of hands
    (`moved` False) from the `current` entry."""
    if (
        saved is not None
        and current is not None
        and saved.kind == KIND_CLOCK
        and current.kind == KIND_CLOCK
        and saved.seat == current.seat
        and saved.seat in acting_seats
    ):
        fields: dict[str, int | str] = {f"left:{seat}": ms for seat, ms in saved.left.items()}
        fields.update({f"reserve:{seat}": ms for seat, ms in saved.reserve.items()})
        fields.update(kind=KIND_CLOCK, seat=saved.seat, started_at=saved.started_at, due=saved.due)
        return Plan((), fields)
    return plan(version, acting_seats, meta, current, now, moved=False)


def finishing(game_id: str, now: int) -> Plan:
    """What the version that ends a game needs: its scoring queued, and the `score` watchdog."""
    return Plan(((FINALIZE, (game_id,)),), {"kind": KIND_SCORE, "due": now + SCORE_WATCHDOG_MS})


async def after_commit(redis: aioredis.Redis, queue: Queue, commit: Commit, now: int | None = None) -> None:
    """Queue what a version needs again (a bot turn, scoring) and rewrite the game's clock entry, from
    the game as it is stored (a redispatch: the commit's own follow-ups carry its plan)."""
    game_id, version = commit.game_id, commit.version
    at = now_ms() if now is None else now
    if commit.game_over:
        todo = finishing(game_id, at)
    else:
        meta = await read_meta(redis, game_id)
        if meta is None or meta.status == STATUS_FINISHED:
            return
        todo = plan(version, commit.acting_seats, meta, await read_entry(redis, game_id), at)
    for task, args in todo.tasks:
        await queue(task, list(args))
    if todo.fields is not None:
        await _write(redis, game_id, version, todo)


async def due_games(redis: aioredis.Redis, now: int | None = None) -> list[str]:
    """The games whose entry is due, each leased for LEASE_MS so the next sweeps skip it meanwhile."""
    now = now_ms() if now is None else now
    due = await redis.eval(LEASE_DUE, 1, keys.deadlines(), now, now + LEASE_MS, SWEEP_LIMIT)
    return [member.decode() for member in due]
