"""Undo: a seat takes back its own decisions of the current turn, through the one write path.

What a seat may take back is the game's undo list (`live.undoable`), kept by the commits themselves.
`undo` takes back the newest entry as a commit of its own, at the caller's `expected_version`: the
state comes back (the random generator's position with it, inside the state), versions only grow, and
the log entry names the version returned to, so watchers, game lists, replays and the archive see an
ordinary change. The clock comes back as it was at that version (`live.clocks.restored`): the turn's
time runs on from when the decision taken back began, and no increment is given twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live import clocks, keys, metrics, moves, outbox, texts
from live.clocks import entry_of
from live.errors import GatewayError, precondition
from live.moves import Caller, FanOut
from live.store import STATUS_FINISHED, CommitResult, Meta, Snapshot, UndoStep, queue_snapshot, snapshot_of
from live.table import Table
from live.undoable import BARRIER_NAMES, BARRIER_WORDS, Entry, Mark, read_item

UNDO_ACTION = any_pb2.Any(type_url="undo")  # what an undo's request digest names in place of an action


@dataclass(frozen=True)
class Undone:
    """The outcome of an undo: its version (the first result's, for a repeated request: `change` None),
    the change, the game's meta, the seat, and the version returned to."""

    version: int
    change: rules_pb2.ApplyActionResponse | None
    meta: Meta
    seat: int
    returned_to: int


def nothing_to_undo() -> GatewayError:
    """FAILED_PRECONDITION: no decision of the caller stands."""
    return precondition("NOTHING_TO_UNDO", "you have no decision to take back in this game")


def undo_off(what: str = "undo") -> GatewayError:
    """FAILED_PRECONDITION: the game's lobby turned undo off."""
    return precondition("UNDO_OFF", f"this game allows no {what}: its lobby turned undo off")


def behind_barrier(why: str) -> GatewayError:
    """FAILED_PRECONDITION: the caller's last decision is behind a barrier."""
    return precondition(
        "UNDO_BARRIER",
        f"your last decision can no longer be undone: {why}; ask the other players for a takeback "
        "(RequestTakeback), if the game allows one",
    )


async def read(
    app: Table, game_id: str, request_id: str, caller: Caller | None
) -> tuple[Snapshot, Entry | Mark | None, Entry | Mark | None]:
    """The game's snapshot with its undo list's newest item and its first (the mark, if it has one), in
    one round trip with the caller's check."""
    async with app.redis.pipeline(transaction=False) as pipe:
        if caller is not None:
            caller.queue(pipe)
        checks = len(pipe)
        marked = clocks.now_ms()
        outbox.queue_mark(pipe, game_id, marked)
        queue_snapshot(pipe, game_id, request_id)
        pipe.lindex(keys.game_undo(game_id), -1)
        pipe.lindex(keys.game_undo(game_id), 0)
        replies = await pipe.execute()
    if caller is not None:
        caller.check(replies[:checks])
    snapshot = snapshot_of(replies[checks + 1 : -2], request_id, marked)
    if snapshot is None:
        return await moves.read_snapshot(app, game_id, request_id), None, None  # archived or unknown: raises
    return snapshot, read_item(replies[-2]), read_item(replies[-1])


async def standing_decision(
    app: Table, game_id: str, seats: Sequence[int], version: int
) -> tuple[int, int] | None:
    """The version before the newest decision of one of `seats` that still stands at `version` (none of
    the undos or takebacks since took it back), with that decision's seat; None if none stands."""
    logged = {entry.version: entry for entry in await app.store.log(game_id)}
    at = version
    while at > 0:
        entry = logged.get(at)
        if entry is not None and entry.returned_to is not None:
            at = entry.returned_to  # what came after the version returned to was taken back
            continue
        if entry is not None and entry.seat in seats:
            return at - 1, entry.seat
        at -= 1  # another seat's decision, or a change of hands (which logs nothing)
    return None


async def refusal(
    app: Table, meta: Meta, seats: Sequence[int], version: int, first: Entry | Mark | None
) -> GatewayError:
    """Why the caller may not undo: UNDO_BARRIER (with what the barrier was) or NOTHING_TO_UNDO."""
    if isinstance(first, Mark) and first.seat in seats and first.version == version and first.barriers:
        why = "; ".join(BARRIER_WORDS.get(b, "a barrier") for b in first.barriers)
        error = behind_barrier(why)
        error.metadata["barriers"] = ",".join(BARRIER_NAMES.get(b, str(b)) for b in first.barriers)
        return error
    if await standing_decision(app, meta.record.game_id, seats, version) is None:
        return nothing_to_undo()
    return behind_barrier("another seat has acted since, or something hidden or random was revealed")


async def views(
    app: Table, meta: Meta, state: any_pb2.Any
) -> tuple[list[rules_pb2.GetViewResponse], rules_pb2.GetViewResponse]:
    """Every seat's view of a state (with its legal actions) and the spectator's, as a change carries them."""
    title = app.rules.get(meta.record.title)
    requests = [
        rules_pb2.GetViewRequest(state=state, seat=seat, include_legal_actions=True)
        for seat in range(meta.record.player_count)
    ]
    found = await asyncio.gather(
        *(title.call("GetView", request) for request in [*requests, rules_pb2.GetViewRequest(state=state)])
    )
    return list(found[:-1]), found[-1]


def taken_back(seats: Sequence[gateway_pb2.GameSeat], seat: int, takeback: bool) -> rules_pb2.Event:
    """The event of an undo (or, `takeback`, a takeback all accepted) of a seat's decisions, for
    everyone (text only, as a resignation's); a replay of the record words it again the same."""
    names = {s.seat: s.player.display_name for s in seats}
    template = "game.event.took_back.takeback" if takeback else "game.event.took_back"
    return texts.event(template, seat=seat, name=names.get(seat, ""))


async def undo(
    app: Table,
    game_id: str,
    player_id: str,
    expected_version: int,
    request_id: str,
    caller: Caller | None = None,
    fan_out: FanOut | None = None,
) -> Undone:
    """Take back the player's newest decision at `expected_version` (see the module docstring)."""
    snapshot, top, first = await read(app, game_id, request_id, caller)
    meta = snapshot.meta
    digest = moves.request_digest(player_id, expected_version, UNDO_ACTION)
    held = [s for s in meta.record.seats if s.player.player_id == player_id]
    if request_id and snapshot.request is not None:
        if not snapshot.request.names(digest):
            raise moves.reused(request_id)
        logged = await app.store.logged(game_id, snapshot.request.version)
        returned_to = logged.returned_to if logged is not None and logged.returned_to is not None else -1
        return Undone(snapshot.request.version, None, meta, held[0].seat if held else -1, returned_to)
    seats = moves.played_seats(meta, player_id)
    if meta.status == STATUS_FINISHED:
        raise moves.game_over()
    if meta.record.undo == gateway_pb2.UNDO_POLICY_OFF:
        raise undo_off()
    if snapshot.version != expected_version:
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise moves.stale(snapshot.version)
    if not isinstance(top, Entry) or top.seat not in seats:
        raise await refusal(app, meta, seats, snapshot.version, first)
    state = any_pb2.Any.FromString(top.state)
    seat_views, spectator = await views(app, meta, state)
    version = expected_version + 1
    change = rules_pb2.ApplyActionResponse(
        events=[taken_back(meta.record.seats, top.seat, takeback=False)],
        acting_seats=top.acting,
        seat_views=seat_views,
        spectator_view=spectator,
    )
    at = clocks.now_ms()
    plan = clocks.restored(version, top.acting, meta, entry_of(top.clock), entry_of(snapshot.clock), at)
    followup = outbox.Followup.of(version, top.acting, meta.acting_seats, False, plan, at)
    commit = app.store.commit(
        game_id,
        expected_version=expected_version,
        state=top.state,
        seat=top.seat,
        action=b"",
        request_id=request_id,
        change=change,
        finished_at="",
        clock_entry=plan.pairs(),
        request_digest=digest,
        followup=followup.encode(),
        undo=UndoStep("pop"),
        returned_to=top.version,
    )
    return await app.followups.run(_committed(app, commit, request_id, meta, top, change, followup, fan_out))


async def _committed(
    app: Table,
    commit: Awaitable[CommitResult],
    request_id: str,
    meta: Meta,
    top: Entry,
    change: rules_pb2.ApplyActionResponse,
    followup: outbox.Followup,
    fan_out: FanOut | None,
) -> Undone:
    """`undo` from its commit on, as a move's (`live.moves`)."""
    result = await commit
    if result.outcome == "duplicate":
        return Undone(result.version, None, meta, top.seat, top.version)
    if result.outcome == "reused":
        raise moves.reused(request_id)
    if result.outcome != "ok":
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise moves.stale(result.version)
    metrics.UNDOS.labels(meta.record.title).inc()
    if fan_out is not None:
        fan_out(meta, result.version, change)
    await outbox.run(app, meta, result.entry_id, followup, result.others)
    return Undone(result.version, change, meta, top.seat, top.version)
