"""Changes of hands: a player resigns, or forfeits when out of time, and a bot plays the seat to the end.

A change of hands is a commit through the one write path, as a move is: read the snapshot, mark the
seats in a copy of the record, plan the clock entry from the meta after the change, and commit it at
the version read (the version goes up by one; the state and the action log stay as they are). Two
changes at once both count (the second finds its version stale, reads again and retries), a move read
before one is refused (its version is stale), and its follow-ups (`live.outbox`) are planned from the
meta after it, so the bot that now holds an acting seat gets its turn queued. It ends what the acting
seat may undo (`live.undoable`): whoever plays a seat now, the seats have changed hands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live import clocks, outbox, texts, undoable
from live.clocks import entry_of
from live.errors import GatewayError, not_found
from live.moves import (
    game_over,
    played_seats,
    read_snapshot,
    request_digest,
    reused,
    stale,
)
from live.store import STATUS_FINISHED, CommitResult, Meta
from live.table import Table

MAX_ATTEMPTS = 50  # a resignation retries while other commits overtake it
# How a seat changes hands (also a part of the change's request digest), and the message saying so.
RESIGNED = "resigned"
FORFEITED = "forfeited (out of time)"
ROUND_DEADLINE = "forfeited (the round's time ran out)"
WITHDREW = "withdrew from the tournament"
MESSAGES = {
    RESIGNED: "game.event.resigned",
    FORFEITED: "game.event.forfeited",
    ROUND_DEADLINE: "game.event.round_deadline",
    WITHDREW: "game.event.withdrew",
}

SeatsToHand = Callable[[Meta], list[int]]


@dataclass(frozen=True)
class HandedOver:
    """The outcome of a change of hands: the version it committed (or found, when there was nothing
    left to hand over: `change` None), the change, and the game's meta after it."""

    version: int
    change: rules_pb2.ApplyActionResponse | None
    meta: Meta


def hand_to_bots(record: gateway_pb2.GameRecord, seats: list[int], strength: gateway_pb2.BotStrength) -> None:
    """Mark the seats resigned: a bot (of `strength`, unless the seat names one) plays them to the end."""
    for game_seat in record.seats:
        if game_seat.seat in seats and not game_seat.resigned:
            game_seat.resigned = True
            game_seat.bot_strength = game_seat.bot_strength or strength


def resigning(player_id: str) -> SeatsToHand:
    """The seats a player still plays; PERMISSION_DENIED for a player who holds no seat of the game,
    FAILED_PRECONDITION (SEAT_RESIGNED) for one who resigned them all already."""
    return lambda meta: played_seats(meta, player_id)


def forfeiting(seat: int) -> SeatsToHand:
    """The seat, unless it is resigned already."""
    return lambda meta: [s.seat for s in meta.record.seats if s.seat == seat and not s.resigned]


def _change(
    record: gateway_pb2.GameRecord, seats: list[int], how: str, acting: tuple[int, ...]
) -> rules_pb2.ApplyActionResponse:
    """The change watchers get: one event per seat saying who left it, and no views (`changes_hands`)."""
    names = {s.seat: s.player.display_name for s in record.seats}
    events = [texts.event(MESSAGES[how], seat=seat, name=names.get(seat, "")) for seat in seats]
    return rules_pb2.ApplyActionResponse(events=events, acting_seats=acting)


async def hand_over(
    app: Table,
    game_id: str,
    seats: SeatsToHand,
    strength: gateway_pb2.BotStrength,
    how: str,
    *,
    expected_version: int | None = None,
    request_id: str = "",
) -> HandedOver:
    """Hand the seats `seats` chooses (from the meta read) to bots through the write path.

    With `expected_version`, only at that version (ABORTED otherwise, as for a move) and under
    `request_id`, so that a repeated forfeit is a no-op; without, at whatever version the game is,
    retrying while other commits overtake it. FAILED_PRECONDITION once the game is over.
    """
    for _ in range(MAX_ATTEMPTS):
        snapshot = await read_snapshot(app, game_id, request_id)
        meta = snapshot.meta
        version = snapshot.version
        digest = request_digest(how, version if expected_version is None else expected_version, any_pb2.Any())
        if request_id and snapshot.request is not None:
            if not snapshot.request.names(digest):
                raise reused(request_id)
            return HandedOver(snapshot.request.version, None, meta)
        chosen = seats(meta)
        if meta.status == STATUS_FINISHED:
            raise game_over()
        if expected_version is not None and version != expected_version:
            raise stale(version)
        if not chosen:
            return HandedOver(version, None, meta)
        record = gateway_pb2.GameRecord()
        record.CopyFrom(meta.record)
        hand_to_bots(record, chosen, strength)
        after = dataclasses.replace(meta, record=record)
        change = _change(record, chosen, how, meta.acting_seats)
        previous = entry_of(snapshot.clock)
        at = clocks.now_ms()
        plan = clocks.plan(version + 1, meta.acting_seats, after, previous, at, moved=False)
        followup = outbox.Followup.of(version + 1, meta.acting_seats, meta.acting_seats, False, plan, at)
        commit = app.store.commit(
            game_id,
            expected_version=version,
            state=None,
            seat=chosen[0],
            action=b"",
            request_id=request_id,
            change=change,
            finished_at="",
            clock_entry=plan.pairs(),
            request_digest=digest,
            record=record,
            followup=followup.encode(),
            undo=undoable.reset(version + 1),
        )
        handed = await app.followups.run(
            _committed(app, commit, request_id, expected_version, meta, after, change, followup)
        )
        if handed is not None:
            return handed
    raise GatewayError(grpc.StatusCode.ABORTED, "GAME_BUSY", "the game changed too often meanwhile; retry")


async def _committed(
    app: Table,
    commit: Awaitable[CommitResult],
    request_id: str,
    expected_version: int | None,
    before: Meta,
    after: Meta,
    change: rules_pb2.ApplyActionResponse,
    followup: outbox.Followup,
) -> HandedOver | None:
    """`hand_over` from its commit on: commit, then the follow-ups it wrote (`live.outbox`), run
    to its end even if the caller is cancelled (`live.followups`); None when another commit overtook
    it and it may try again."""
    result = await commit
    if result.outcome == "duplicate":
        return HandedOver(result.version, None, before)
    if result.outcome == "reused":
        raise reused(request_id)
    if result.outcome == "stale":
        if expected_version is not None:
            raise stale(result.version)
        return None
    if result.outcome != "ok":
        raise not_found("game", after.record.game_id)
    await outbox.run(app, after, result.entry_id, followup, result.others)
    return HandedOver(result.version, change, after)
