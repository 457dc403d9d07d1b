"""Replays step by step (GameService.GetReplayStep): a finished game as it was after one step of its
record, re-derived through its rules service (`live.replay.Steps`).

Each process keeps the games stepped through last (CACHED_GAMES, the least recently asked for let go
first): the record, read once (from Redis or the archive), the states `Steps` keeps (every
CHECKPOINT_STEPS-th step's and those an undo or takeback returns to, the last RECENT_STEPS steps
whole) and the last VIEWS_KEPT views built. Stepping forward or back from a step just asked for
costs one ApplyAction, one ListLegalActions and one GetView; a step asked for again, none. A game's
first step re-derives as far as that step, no further.

The view is the caller's own seat's if they played the game, else the spectators': what the caller
saw of it then, never more (the other seats' hidden parts stay hidden after the game as during it).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live.errors import invalid
from live.games import full_record
from live.replay import Step, Steps
from live.store import Meta
from live.table import Table

CACHED_GAMES = 32  # games whose steps a process keeps
VIEWS_KEPT = 64  # views built, per game

Visible = Callable[[Sequence[rules_pb2.Event], int, int | None], list[gateway_pb2.GameEvent]]


@dataclass
class Replayed:
    """One game's steps and the views of them built last, by (step, seat; None: a spectator)."""

    steps: Steps
    views: OrderedDict[tuple[int, int | None], rules_pb2.GetViewResponse] = field(default_factory=OrderedDict)


def move_of(step: Step) -> gateway_pb2.ReplayMove | None:
    """The move that led to a step (None at step 0), with its label."""
    entry = step.entry
    if entry is None:
        return None
    move = gateway_pb2.ReplayMove(version=entry.version, seat=entry.seat)
    if entry.HasField("returned_to"):
        how = "takeback" if entry.takeback else "undo"
        move.label = f"{how}: back to version {entry.returned_to}"
        move.returned_to = entry.returned_to
        move.takeback = entry.takeback
        return move
    move.action.CopyFrom(entry.action)
    if step.legal is not None:
        move.label = step.legal.label
        if step.legal.HasField("message"):
            move.message.CopyFrom(step.legal.message)
    return move


class Replays:
    """The games stepped through on this process (see the module docstring)."""

    def __init__(self, app: Table) -> None:
        self.app = app
        self.games: OrderedDict[str, Replayed] = OrderedDict()
        self.loading: dict[str, asyncio.Future[Replayed]] = {}  # records being read, shared by their callers

    async def replayed(self, meta: Meta) -> Replayed:
        """The game's steps (its record read once, by one call when several ask at once)."""
        game_id = meta.record.game_id
        found = self.games.get(game_id)
        if found is not None:
            self.games.move_to_end(game_id)
            return found
        loading = self.loading.get(game_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(meta))
            self.loading[game_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load(self, meta: Meta) -> Replayed:
        record, _ = await full_record(self.app, meta)
        del record.chat[:]
        replayed = Replayed(Steps(self.app.rules.get(record.title), record))
        self.games[meta.record.game_id] = replayed
        while len(self.games) > CACHED_GAMES:
            self.games.popitem(last=False)
        return replayed

    async def reply(
        self, meta: Meta, number: int, seat: int | None, visible: Visible
    ) -> gateway_pb2.GetReplayStepResponse:
        """Step `number` of a finished game as `seat` (None: a spectator) saw it, its events filtered by
        `visible`; INVALID_STEP past the record's last step."""
        replayed = await self.replayed(meta)
        steps = replayed.steps
        if not 0 <= number <= steps.count:
            error = invalid(
                "INVALID_STEP",
                f"step must be 0 to {steps.count}, the record's entries, not {number}",
                field="step",
                step_count=str(steps.count),
            )
            error.field_violations = (("step", f"must be 0 to {steps.count}, not {number}"),)
            raise error
        step = await steps.step(number)
        view = await self._view(replayed, step, seat)
        record = meta.record
        game = gateway_pb2.GameView(
            game_id=record.game_id,
            title=record.title,
            version=step.version,
            view=view.view,
            acting_seats=view.acting_seats,
            seats=record.seats,
            seed_sha256=record.seed_sha256,
            status=gateway_pb2.GAME_STATUS_FINISHED if view.game_over else gateway_pb2.GAME_STATUS_ACTIVE,
        )
        if seat is not None:
            game.seat = seat
        if view.game_over:
            game.scores.CopyFrom(steps.record.scores)
        return gateway_pb2.GetReplayStepResponse(
            step=number,
            step_count=steps.count,
            game=game,
            move=move_of(step),
            events=visible(step.events, step.version, seat),
        )

    async def _view(self, replayed: Replayed, step: Step, seat: int | None) -> rules_pb2.GetViewResponse:
        """The seat's view of a step's state, built once while kept."""
        key = (step.number, seat)
        found = replayed.views.get(key)
        if found is None:
            request = rules_pb2.GetViewRequest(state=step.state)
            if seat is not None:
                request.seat = seat
            found = await replayed.steps.title.call("GetView", request)
            replayed.views[key] = found
            if len(replayed.views) > VIEWS_KEPT:
                replayed.views.popitem(last=False)
        replayed.views.move_to_end(key)
        return found
