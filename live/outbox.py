"""The follow-ups of a commit, written with it: a per-game outbox, performed, acknowledged and swept.

The commit script (`live.store`) appends to the game's outbox (a Redis Stream in the game's slot,
`keys.game_outbox`), in the same atomic step as the version it commits, one entry saying what that
version needs done afterwards (a `Followup`): the players' game lists, the game taken off the live
list once it is over, the worker tasks (the next bot turn, the scoring) and the due time of the
game's clock entry to file in `keys.deadlines`. So a version and its follow-ups are written together
or not at all, whichever process dies when (Redis included: its append-only file keeps them in one
step).

The committer performs its own entry at once (`run`): the lists before the mover's reply, the
rest after it, in commit order per game, then acknowledges the entry by deleting it. Every follow-up
is idempotent (a list update by its revision, a task by the version it names, a due time by the
clock entry's version), so one performed twice changes nothing.

A committer killed between its commit and its acknowledgement leaves its entry behind. To be found,
every move marks its game in one sorted set (`keys.outbox_marks`) before it commits, in the round trip
that reads the game (`queue_mark`); a mark falls due GRACE_MS later, longer than any read-to-commit
(the rules call is bounded well under it). The workers' sweep (`sweep`, every second) leases the due
marks, performs the entries older than GRACE_MS, and takes a mark away once its game's outbox is
empty and nobody marked the game again meanwhile (`UNMARK_SCRIPT`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline

from live import clocks, failpoints, guests, keys, mygames
from live.metrics import FOLLOWUPS_SWEPT
from live.replies import text
from live.store import Meta, StreamEntries, read_meta

if TYPE_CHECKING:
    from live.table import Table

log = logging.getLogger(__name__)

GRACE_MS = 10_000  # a mark (and an entry) this old is swept; rules calls time out well before
LEASE_MS = 30_000  # a leased mark is not swept again for this long
SWEEP_LIMIT = 500  # marks leased per sweep
ENTRY_FIELD = "f"  # the stream field holding a Followup's encoding

# Take the mark away only if its score is still the lease's: a move that marked the game again
# meanwhile (its entry may be landing now) keeps it.
UNMARK_SCRIPT = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

# Delete performed entries, and the outbox with its last one (the next commit writes it anew).
ACKNOWLEDGE_SCRIPT = """
redis.call('XDEL', KEYS[1], unpack(ARGV))
if redis.call('XLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
"""

Tasks = tuple[tuple[str, tuple[object, ...]], ...]


@dataclass(frozen=True)
class Followup:
    """What one committed version needs done after it: the seats that act (and acted before), whether
    the game is over, the worker tasks to queue, the due time to file (None: the stored one stands),
    the acting seat's deadline for the game lists (None: no clock runs), when it was committed, and
    whether it is the game's start (version 0: its lobby and guests are told too)."""

    version: int
    acting: tuple[int, ...]
    acting_before: tuple[int, ...]
    game_over: bool
    tasks: Tasks = ()
    due: int | None = None
    deadline: int | None = None
    deadline_seat: int | None = None
    at_ms: int = 0
    started: bool = False

    @classmethod
    def of(
        cls,
        version: int,
        acting: Sequence[int],
        acting_before: Sequence[int],
        game_over: bool,
        plan: clocks.Plan,
        at_ms: int,
        started: bool = False,
    ) -> Followup:
        """The follow-ups of a version whose clock plan (`live.clocks.plan`) its commit carries out."""
        deadline, seat = mygames.deadline_of(plan.fields)
        due = int(plan.fields["due"]) if plan.fields is not None else None
        before = tuple(acting_before)
        return cls(version, tuple(acting), before, game_over, plan.tasks, due, deadline, seat, at_ms, started)

    def encode(self) -> bytes:
        """The entry's field value: the fields in order, as JSON."""
        return json.dumps(dataclasses.astuple(self), separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes | str) -> Followup:
        """The Followup of an entry's field value."""
        followup = cls(*json.loads(data))
        return dataclasses.replace(
            followup,
            acting=tuple(followup.acting),
            acting_before=tuple(followup.acting_before),
            tasks=tuple((name, tuple(args)) for name, args in followup.tasks),
        )


def _mark(game_id: str, now: int | None = None) -> dict[str, int]:
    """The mark of a game about to commit, as ZADD takes it: due GRACE_MS from now."""
    return {game_id: (clocks.now_ms() if now is None else now) + GRACE_MS}


def queue_mark(pipe: Pipeline, game_id: str, now: int | None = None) -> None:
    """Queue on `pipe` the mark of a game about to commit (see the module docstring)."""
    pipe.zadd(keys.outbox_marks(), _mark(game_id, now))


def mark_lapsing(marked_ms: int, now: int | None = None) -> bool:
    """Whether a mark made at `marked_ms` is too old to cover a commit now (half its grace is gone)."""
    return (clocks.now_ms() if now is None else now) - marked_ms > GRACE_MS // 2


async def mark(redis: aioredis.Redis, game_id: str) -> None:
    """Mark a game about to commit, in a round trip of its own (a mover that read it long before)."""
    await redis.zadd(keys.outbox_marks(), _mark(game_id))


async def perform_lists(app: Table, meta: Meta, followup: Followup) -> None:
    """The players' game lists (and, at the start, the lobby's players and the guests) after a version."""
    record = meta.record
    if followup.started and meta.lobby_id:
        await mygames.lobby_started(app.redis, record, meta.lobby_id)
    await mygames.committed(
        app.redis,
        mygames.Change(
            record,
            followup.version,
            followup.acting,
            followup.game_over,
            followup.deadline,
            followup.deadline_seat,
            at_ms=followup.at_ms,
            acting_before=followup.acting_before,
            pace=meta.clock.pace,
        ),
    )
    if followup.started:
        await guests.game_changed(app, record)


async def perform_dispatch(app: Table, meta: Meta, followup: Followup, swept: bool = False) -> None:
    """The rest of a version's follow-ups: the live list once over, the tasks, the due time. A swept
    entry files the due time of the clock entry as it is now (never an older one)."""
    game_id = meta.record.game_id
    if followup.game_over:
        await app.store.finish(meta.record.title, game_id)
    for task, args in followup.tasks:
        await app.dispatcher.queue(task, list(args))
    if followup.due is None:
        return
    due = followup.due
    if swept:
        entry = await clocks.read_entry(app.redis, game_id)
        if entry is None:
            return
        due = entry.due
    await app.redis.zadd(keys.deadlines(), {game_id: due})


async def acknowledge(app: Table, game_id: str, entry_ids: Sequence[str]) -> None:
    """Delete performed entries from the game's outbox (and the outbox once empty)."""
    if entry_ids:
        await app.script(ACKNOWLEDGE_SCRIPT)(keys=[keys.game_outbox(game_id)], args=list(entry_ids))


def _entry_ms(entry_id: str) -> int:
    return int(entry_id.split("-", 1)[0])


async def pending(redis: aioredis.Redis, game_id: str) -> list[tuple[str, Followup]]:
    """The entries of a game's outbox, oldest first."""
    entries = cast(StreamEntries, await redis.xrange(keys.game_outbox(game_id)))
    return [(text(entry_id), Followup.decode(fields[ENTRY_FIELD.encode()])) for entry_id, fields in entries]


async def perform_pending(app: Table, game_id: str, older_than_ms: int | None = None) -> tuple[int, int]:
    """Perform and acknowledge a game's outbox entries (those written before `older_than_ms`, when
    given); (performed, left)."""
    entries = await pending(app.redis, game_id)
    due = [(i, f) for i, f in entries if older_than_ms is None or _entry_ms(i) < older_than_ms]
    if not due:
        return 0, len(entries)
    meta = await read_meta(app.redis, game_id)
    if meta is None:  # the game's keys are gone (archived and expired): nothing is left to tell
        await app.redis.delete(keys.game_outbox(game_id))
        return 0, 0
    for entry_id, followup in due:
        await perform_lists(app, meta, followup)
        await perform_dispatch(app, meta, followup, swept=True)
        await acknowledge(app, game_id, [entry_id])
    return len(due), len(entries) - len(due)


async def sweep(app: Table, now: int | None = None) -> int:
    """Perform the follow-ups whose committer left them (see the module docstring); the number done."""
    at = clocks.now_ms() if now is None else now
    lease = at + LEASE_MS
    redis = app.redis
    marked = await redis.eval(clocks.LEASE_DUE, 1, keys.outbox_marks(), at, lease, SWEEP_LIMIT)
    done = 0
    for member in marked:
        game_id = text(member)
        try:
            performed, left = await perform_pending(app, game_id, at - GRACE_MS)
        except Exception:
            log.exception("a swept follow-up failed; the next lease tries again", extra={"game_id": game_id})
            continue
        done += performed
        if left:
            await redis.zadd(keys.outbox_marks(), _mark(game_id, at))
        else:
            await app.script(UNMARK_SCRIPT)(keys=[keys.outbox_marks()], args=[game_id, lease])
    if done:
        FOLLOWUPS_SWEPT.inc(done)
    return done


async def run(app: Table, meta: Meta, entry_id: str, followup: Followup, others: int = 0) -> None:
    """Perform an entry this process committed: the lists now, the rest after them, behind the game's
    earlier follow-ups (after the mover's reply, in the gateway: `live.followups`). `others`: how many
    entries the game's outbox held besides it, left by committers that died; those follow it."""
    game_id = meta.record.game_id
    if followup.game_over:
        failpoints.reach(failpoints.FINAL_COMMIT)
    try:
        await perform_lists(app, meta, followup)
    except Exception:  # the entry stays: the sweep performs it whole
        log.exception("the lists of a commit failed; the sweep catches up", extra={"game_id": game_id})
        return
    await app.followups.after(game_id, _dispatch(app, meta, entry_id, followup, others))


async def _dispatch(app: Table, meta: Meta, entry_id: str, followup: Followup, others: int) -> None:
    game_id = meta.record.game_id
    await perform_dispatch(app, meta, followup)
    await acknowledge(app, game_id, [entry_id] if entry_id else [])
    if others:
        await perform_pending(app, game_id, _entry_ms(entry_id) if entry_id else None)
