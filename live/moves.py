"""Playing one action: the path every move takes, whoever makes it (a client, a bot, a turn clock).

Load the state, refuse a stale version (ABORTED), ask the rules service to apply the action, commit
through the write path, then queue what follows. A request id seen before returns its first result
when it names the same request (who, version, action), and is refused for any other.
Nothing is written unless the rules accepted the action and the version still matched.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2
from redis.asyncio.client import Pipeline

from live import clocks, metrics, outbox, undoable
from live.clocks import entry_of
from live.errors import GatewayError, echoed, invalid, not_found, permission_denied, precondition
from live.games import now
from live.store import (
    REQUEST_DIGEST_BYTES,
    STATUS_FINISHED,
    CommitResult,
    GameStore,
    Meta,
    Snapshot,
    queue_snapshot,
    snapshot_of,
)
from live.table import Table


@dataclass(frozen=True)
class Caller:
    """Who asks for a move, when a client does: `who` (the player id the request's digest names), and
    the check of the caller by the process serving it, made in the game read's round trip: `queue`
    queues the check's commands on the read's pipeline, and `check` raises its refusal from their
    replies (in order) before anything else is done. The write path knows nothing of the check."""

    who: str
    queue: Callable[[Pipeline], None]
    check: Callable[[list[Any]], object]


@dataclass(frozen=True)
class Played:
    """The outcome of a move: its version, the change (None for a repeated request), the game's meta
    and the seat that moved. The change carries every seat's view of the new state (`change.seat_views`)
    and the spectator's."""

    version: int
    change: rules_pb2.ApplyActionResponse | None
    meta: Meta
    seat: int


SeatChooser = Callable[[Meta, tuple[int, ...]], int]
# Hands a committed change (the game's meta, the version, the change) to the committer's own watchers
# (the gateway's fan-out), before the commit's follow-ups are performed.
FanOut = Callable[[Meta, int, rules_pb2.ApplyActionResponse], None]


def seats_of(meta: Meta, player_id: str) -> list[int]:
    """The seats a player plays (not resigned) in a game."""
    return [s.seat for s in meta.record.seats if s.player.player_id == player_id and not s.resigned]


def _held(meta: Meta, player_id: str) -> list[gateway_pb2.GameSeat]:
    """The seats a player holds, resigned or not; PERMISSION_DENIED for none."""
    held = [s for s in meta.record.seats if s.player.player_id == player_id]
    if not held:
        raise permission_denied("you do not play a seat in this game")
    return held


def seat_resigned(seat: int) -> GatewayError:
    """FAILED_PRECONDITION: the seat's player resigned (or forfeited); a bot plays it."""
    return precondition(
        "SEAT_RESIGNED",
        "you resigned (or forfeited) your seat in this game; a bot plays it to the end",
        seat=str(seat),
    )


def played_seats(meta: Meta, player_id: str) -> list[int]:
    """`seats_of`; PERMISSION_DENIED for a player who holds no seat of the game, FAILED_PRECONDITION
    for one who resigned (or forfeited) every seat held."""
    held = _held(meta, player_id)
    seats = [s.seat for s in held if not s.resigned]
    if not seats:
        raise seat_resigned(held[0].seat)
    return seats


def seat_of(player_id: str) -> SeatChooser:
    """The player's seat that acts now (a player may hold several seats at one table), else one the
    player still plays, else (all resigned: `play` refuses the move, but answers a retry) the first held.

    PERMISSION_DENIED if the player holds no seat of the game.
    """

    def choose(meta: Meta, acting_seats: tuple[int, ...]) -> int:
        held = _held(meta, player_id)
        seats = [s.seat for s in held if not s.resigned] or [held[0].seat]
        acting = [seat for seat in seats if seat in acting_seats]
        return acting[0] if acting else seats[0]

    return choose


def stale(version: int) -> GatewayError:
    """ABORTED: the game moved on since the client's version."""
    return GatewayError(
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
        f"the game is at version {version}; fetch it and retry",
        version=str(version),
    )


def request_digest(who: str, expected_version: int, action: any_pb2.Any) -> bytes:
    """What a request id is stored with: a digest of who asked, at which version, for which action."""
    body = hashlib.blake2b(digest_size=REQUEST_DIGEST_BYTES)
    for part in (who.encode(), str(expected_version).encode(), action.type_url.encode(), action.value):
        body.update(len(part).to_bytes(4, "big"))
        body.update(part)
    return body.digest()


def reused(request_id: str) -> GatewayError:
    """FAILED_PRECONDITION: the request id already named another request of this game."""
    return precondition(
        "REQUEST_ID_REUSED",
        f"request_id {echoed(request_id)} was already used in this game for another request; "
        "send a fresh id for a new action (the same id retries only the same action)",
        request_id=request_id,
    )


def game_over() -> GatewayError:
    """FAILED_PRECONDITION: a move or resignation in a finished game."""
    return precondition("GAME_OVER", "the game is over")


async def load_meta(store: GameStore, game_id: str) -> Meta:
    """The game's meta; NOT_FOUND for an unknown game."""
    meta = await store.meta(game_id)
    if meta is None:
        raise not_found("game", game_id)
    return meta


async def read_snapshot(app: Table, game_id: str, request_id: str, caller: Caller | None = None) -> Snapshot:
    """The game's snapshot (see `live.store.queue_snapshot`) in one round trip with the check of
    `caller`, whose failure is raised first, and the game's outbox mark (`live.outbox.queue_mark`: it
    may commit next); NOT_FOUND for an unknown game, GAME_OVER for one archived."""
    async with app.redis.pipeline(transaction=False) as pipe:
        if caller is not None:
            caller.queue(pipe)
        checks = len(pipe)
        marked = clocks.now_ms()
        outbox.queue_mark(pipe, game_id, marked)
        queue_snapshot(pipe, game_id, request_id)
        replies = await pipe.execute()
    if caller is not None:
        caller.check(replies[:checks])
    snapshot = snapshot_of(replies[checks + 1 :], request_id, marked)  # past the checks and the mark
    if snapshot is None:
        if await app.store.archived(game_id) is not None:
            raise game_over()
        raise not_found("game", game_id)
    return snapshot


async def play(
    app: Table,
    game_id: str,
    seat: int | SeatChooser,
    action: any_pb2.Any,
    expected_version: int,
    request_id: str,
    caller: Caller | None = None,
    snapshot: Snapshot | None = None,
    fan_out: FanOut | None = None,
) -> Played:
    """Apply a seat's action at `expected_version` through the write path.

    `seat` is a seat, or a chooser (see `seat_of`) called with the game's meta and acting seats.
    `caller` (a client) is checked in the same round trip as the read, and its failure is raised
    before anything else. `snapshot`, the game as the mover read it just before (`read_snapshot` for
    this request id; a bot decides on it), is not read again: the commit's compare-and-set still
    refuses the move if the game moved on since. A caller's move always reads, to check the caller.
    `fan_out` gets the change as soon as it is committed, before its follow-ups (as the other
    gateways' watchers get it, published by the commit). A client's move the rules report undoable is
    kept for `live.undo` by its commit; any other resets what may be taken back.
    """
    store = app.store
    if snapshot is None or caller is not None or not snapshot.read_for(game_id, request_id):
        snapshot = await read_snapshot(app, game_id, request_id, caller)
    elif outbox.mark_lapsing(snapshot.marked_ms):  # a bot thought over it long: marked again
        await outbox.mark(app.redis, game_id)
    meta = snapshot.meta
    state = any_pb2.Any.FromString(snapshot.state)
    if callable(seat):
        seat = seat(meta, meta.acting_seats)
    title = app.rules.get(meta.record.title)
    if action.type_url and action.TypeName() != title.info.action_type:
        raise invalid(
            "WRONG_ACTION_TYPE", f"expected a {title.info.action_type}, got {echoed(action.type_url)}"
        )
    digest = request_digest(caller.who if caller is not None else str(seat), expected_version, action)
    if request_id and snapshot.request is not None:
        if not snapshot.request.names(digest):
            raise reused(request_id)
        return Played(snapshot.request.version, None, meta, seat)
    if caller is not None and any(s.seat == seat and s.resigned for s in meta.record.seats):
        raise seat_resigned(seat)  # a bot plays it; only a retry of a move made before is answered
    if meta.status == STATUS_FINISHED:
        raise game_over()
    if snapshot.version != expected_version:
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise stale(snapshot.version)
    request = rules_pb2.ApplyActionRequest(state=state, seat=seat, action=action, include_views=True)
    change = await title.call("ApplyAction", request)
    previous = entry_of(snapshot.clock)
    at = clocks.now_ms()
    clock = (
        clocks.finishing(game_id, at)
        if change.game_over
        else clocks.plan(expected_version + 1, change.acting_seats, meta, previous, at)
    )
    followup = outbox.Followup.of(
        expected_version + 1, change.acting_seats, meta.acting_seats, change.game_over, clock, at
    )
    commit = store.commit(
        game_id,
        expected_version=expected_version,
        state=change.state.SerializeToString(),
        seat=seat,
        action=action.value,
        request_id=request_id,
        change=change,
        finished_at=now().ToJsonString() if change.game_over else "",
        clock_entry=clock.pairs(),
        request_digest=digest,
        followup=followup.encode(),
        undo=undoable.step_of_move(meta, seat, expected_version + 1, caller is not None, snapshot, change),
    )
    committed = _committed(app, commit, request_id, meta, seat, change, followup, fan_out)
    return await app.followups.run(committed)


async def _committed(
    app: Table,
    commit: Awaitable[CommitResult],
    request_id: str,
    meta: Meta,
    seat: int,
    change: rules_pb2.ApplyActionResponse,
    followup: outbox.Followup,
    fan_out: FanOut | None,
) -> Played:
    """`play` from its commit on: commit, then perform the follow-ups it wrote (`live.outbox`), run
    to its end even if the mover is cancelled (`live.followups`)."""
    result = await commit
    if result.outcome == "duplicate":
        return Played(result.version, None, meta, seat)
    if result.outcome == "reused":
        raise reused(request_id)
    if result.outcome != "ok":
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise stale(result.version)
    metrics.MOVES_APPLIED.labels(meta.record.title).inc()
    if fan_out is not None:
        fan_out(meta, result.version, change)
    await outbox.run(app, meta, result.entry_id, followup, result.others)
    return Played(result.version, change, meta, seat)
