"""Bot turns and timeouts: choose an action for a seat and submit it through the one move path.

A bot decides on the engine in-process, from the stored state decoded with the title's codec; its
move then goes through `live.moves.play` like a human's, with a request id derived from the game
and version (`bot:<game>:<version>`, `timeout:<game>:<version>`), so a redelivered task is a no-op.
A bot turn reads the game once, with its request id: the move commits on that read (the commit's
compare-and-set refuses it if the game moved on meanwhile). The
bot's generator is seeded from the game, version and seat, so a repeated decision is the same one. A
forfeit is a change of hands (`live.resignations`) under the timeout's request id; the bot that
takes the seat then plays its turn as any bot does.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import grpc
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import any_pb2

from live import clocks, keys, levels, moves, resignations
from live.errors import GatewayError
from live.store import STATUS_FINISHED, Meta, Snapshot
from live.table import Table
from services.common import registry
from services.common.game import AnyGame
from services.common.rng import Rng
from workers import metrics
from workers.bots import Budget
from workers.bots.levels import level_action

log = logging.getLogger(__name__)

TIMEOUT_LEVEL = levels.EASY  # who plays a timed-out turn
FORFEIT_STRENGTH = levels.EASY.strength  # who takes a forfeited seat


@dataclass(frozen=True)
class Loaded:
    """A game as a worker sees it: the snapshot read (meta, version, clock entry), the title's engine
    and the native state."""

    snapshot: Snapshot
    game: AnyGame
    state: Any

    @property
    def meta(self) -> Meta:
        """The game's meta as read."""
        return self.snapshot.meta

    @property
    def version(self) -> int:
        """The game's version as read."""
        return self.snapshot.version


def bot_rng(game_id: str, version: int, seat: int) -> Rng:
    """The generator of a bot decision, the same for every delivery of the same turn."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return Rng(int.from_bytes(digest[:8], "little"))


async def load(app: Table, game_id: str, request_id: str = "") -> Loaded | None:
    """The game decoded for the engine, read in one round trip (with what `request_id` names, for the
    move that follows), or None for an unknown game."""
    try:
        snapshot = await moves.read_snapshot(app, game_id, request_id)
    except GatewayError as error:
        if error.code == grpc.StatusCode.NOT_FOUND:
            return None
        raise
    game = registry.get(snapshot.meta.record.title)
    message = game.messages.state()
    any_pb2.Any.FromString(snapshot.state).Unpack(message)
    return Loaded(snapshot, game, game.state_from_proto(message))


def pack_action(game: AnyGame, action: Any) -> any_pb2.Any:
    """The action as the Any a client would send."""
    packed = any_pb2.Any()
    packed.Pack(game.action_to_proto(action), deterministic=True)
    return packed


async def submit(
    app: Table, loaded: Loaded, seat: int, level: levels.Level, budget: Budget, request_id: str
) -> bool:
    """Choose `seat`'s action with a bot of `level` (its budget within the worker's, `budget`) and play
    it; False if the game moved on."""
    title = loaded.meta.record.title
    started = time.perf_counter()
    action = level_action(
        loaded.game,
        loaded.state,
        seat,
        level,
        bot_rng(loaded.meta.record.game_id, loaded.version, seat),
        budget,
    )
    metrics.BOT_THINK_SECONDS.labels(title, level.name).observe(time.perf_counter() - started)
    try:
        await moves.play(
            app,
            loaded.meta.record.game_id,
            seat,
            pack_action(loaded.game, action),
            loaded.version,
            request_id,
            snapshot=loaded.snapshot,
        )
    except GatewayError as error:
        if error.code in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
            return False
        raise
    return True


async def take_turn(app: Table, game_id: str, version: int, budget: Budget) -> bool:
    """Play the acting bot seat's move at `version`; False (and nothing done) if there is none now."""
    request_id = f"bot:{game_id}:{version}"
    loaded = await load(app, game_id, request_id)
    if loaded is None or loaded.meta.status == STATUS_FINISHED or loaded.version != version:
        return False
    seats = {seat.seat: seat for seat in loaded.meta.record.seats}
    for seat in loaded.game.acting_seats(loaded.state):
        if seat in seats and clocks.is_bot_seat(seats[seat]):
            level = levels.of(seats[seat].bot_strength)
            return await submit(app, loaded, seat, level, budget, request_id)
    return False


async def forfeit(app: Table, loaded: Loaded, seat: int, request_id: str) -> bool:
    """The seat's player forfeits at the loaded version: a bot takes the seat to the end (its turn is
    queued by the commit's dispatch) and the player ranks last; False if the game moved on."""
    try:
        await resignations.hand_over(
            app,
            loaded.meta.record.game_id,
            resignations.forfeiting(seat),
            FORFEIT_STRENGTH,
            resignations.FORFEITED,
            expected_version=loaded.version,
            request_id=request_id,
        )
    except GatewayError as error:
        if error.code in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
            return False
        raise
    return True


async def on_deadline(app: Table, game_id: str, budget: Budget) -> str:
    """Handle a due clock entry: a lost dispatch, a lost bot turn, or a timeout; returns what was done."""
    loaded = await load(app, game_id)
    entry = clocks.entry_of(loaded.snapshot.clock) if loaded is not None else None
    if entry is None or loaded is None:
        await clocks.clear(app.redis, game_id)
        return "gone"
    if loaded.meta.status == STATUS_FINISHED:
        await app.dispatcher.after_commit(clocks.Commit(game_id, loaded.version, (), True))
        return "finished"
    acting = list(loaded.game.acting_seats(loaded.state))
    now = clocks.now_ms()
    if entry.version == loaded.version and entry.kind == clocks.KIND_CLOCK and entry.due <= now:
        metrics.TIMEOUTS.labels(loaded.meta.record.title).inc()
        request_id = f"timeout:{game_id}:{loaded.version}"
        if loaded.meta.clock.on_timeout == gateway_pb2.TIMEOUT_POLICY_FORFEIT:
            await forfeit(app, loaded, entry.seat, request_id)
        else:
            await submit(app, loaded, entry.seat, TIMEOUT_LEVEL, budget, request_id)
        return "timeout"
    if entry.version == loaded.version and entry.due > now:
        await app.redis.zadd(keys.deadlines(), {game_id: entry.due})
        return "early"
    # A stale entry (a dispatch was lost), an overdue bot turn or a periodic check: dispatch again.
    await app.dispatcher.after_commit(clocks.Commit(game_id, loaded.version, tuple(acting), False))
    return "dispatched"
