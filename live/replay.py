"""Re-deriving a game's states from its config, seed and action log, through its rules service.

The log holds one entry per version that applied an action, and one per undo or takeback, naming the
version whose state the game returned to (`live.store.Logged`); a change of hands logs nothing and
keeps the state. `replay` applies the entries in order, keeping every version's state, so a return
takes that version's state again (its generator's position with it). ReplayGame checks a finished
game with it; a takeback finds the state it returns to with it.

`Steps` re-derives one step of a finished game's record at a time (GetReplayStep, `gateway.replays`):
step 0 is the game as set up, step k the game after the record's k-th entry. It keeps the state of
every CHECKPOINT_STEPS-th step and of every step an undo or a takeback returns to, as it passes them,
the last RECENT_STEPS steps asked for whole and the states of the last RECENT_STATES steps it passed,
so a step costs at most CHECKPOINT_STEPS ApplyAction calls from the nearest state kept, and the one
after or before a step just asked for one.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import OrderedDict
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2, symbol_database

from live import undo
from live.errors import GatewayError
from live.games import _load_generated_messages
from live.rules import Title

CHECKPOINT_STEPS = 16  # a step's state is kept for good every this many steps
RECENT_STEPS = 32  # the steps last asked for, kept whole
RECENT_STATES = 2 * CHECKPOINT_STEPS  # the states of the steps last passed


@dataclass(frozen=True)
class Replayed:
    """How far a replay went: the state at its last version, the log entries applied, and what did not
    match ('' if nothing)."""

    state: any_pb2.Any
    entries: int
    mismatch: str = ""


async def replay(title: Title, record: gateway_pb2.GameRecord, until: int | None = None) -> Replayed:
    """The states of `record` (its config, seed and actions, in order) up to version `until` (None:
    every entry); a refused action or a log out of order stops it with its mismatch. UNAVAILABLE
    when the rules service is."""
    created = await title.call(
        "NewGame",
        rules_pb2.NewGameRequest(player_count=record.player_count, config=record.config, seed=record.seed),
    )
    state = created.state
    previous = 0
    states = {0: state}  # by version, for the undos and takebacks that return to one
    for count, logged in enumerate(record.actions):
        if until is not None and logged.version > until:
            break
        if logged.version <= previous:  # versions only go up (a change of hands logs no action)
            return Replayed(state, count, f"log entry {count} has version {logged.version}, after {previous}")
        for version in range(previous + 1, logged.version):  # changes of hands keep the state
            states[version] = state
        if logged.HasField("returned_to"):
            if logged.returned_to not in states:
                mismatch = f"log entry {count} returns to version {logged.returned_to}, not before it"
                return Replayed(state, count, mismatch)
            state = states[logged.returned_to]
        else:
            try:
                changed = await title.call(
                    "ApplyAction",
                    rules_pb2.ApplyActionRequest(state=state, seat=logged.seat, action=logged.action),
                )
            except GatewayError as error:
                if error.code == grpc.StatusCode.UNAVAILABLE:
                    raise
                return Replayed(state, count, f"action {count + 1} refused: {error.message}")
            state = changed.state
        states[logged.version] = state
        previous = logged.version
    else:
        count = len(record.actions)
    return Replayed(state, count)


def mismatch(what: str, step: int) -> GatewayError:
    """DATA_LOSS: the record does not replay as far as `step` (a damaged record, or a rules service
    that changed its rules since the game; ReplayGame says where). Asking again answers the same."""
    return GatewayError(
        grpc.StatusCode.DATA_LOSS, "REPLAY_MISMATCH", f"the record does not replay: {what}", step=str(step)
    )


@dataclass(frozen=True)
class Step:
    """One step of a record, re-derived: its number (0: the game as set up; k: after the record's k-th
    entry), the version and the state after it, its events (the setup's at step 0), its entry (None at
    step 0) and, for an action, the legal action it was among its seat's at the step before."""

    number: int
    version: int
    state: any_pb2.Any
    events: tuple[rules_pb2.Event, ...]
    entry: gateway_pb2.LoggedAction | None = None
    legal: rules_pb2.LegalAction | None = None


class Steps:
    """The steps of one finished game's record, each re-derived through its rules service when asked
    for (see the module docstring); one derivation at a time, so steps asked for at once share it."""

    def __init__(
        self,
        title: Title,
        record: gateway_pb2.GameRecord,
        checkpoint_steps: int = CHECKPOINT_STEPS,
        recent_steps: int = RECENT_STEPS,
    ) -> None:
        self.title = title
        self.record = record
        self.checkpoint_steps = checkpoint_steps
        self.recent_steps = recent_steps
        self.versions = [0, *(entry.version for entry in record.actions)]  # each step's
        returns = (entry.returned_to for entry in record.actions if entry.HasField("returned_to"))
        self.returned_to = {self.step_at(version) for version in returns}  # steps whose state is taken again
        self.kept: dict[int, any_pb2.Any] = {}  # step -> its state, kept for good
        self.recent: OrderedDict[int, Step] = OrderedDict()
        self.passed: OrderedDict[int, any_pb2.Any] = OrderedDict()  # step -> its state, the last passed
        self.lock = asyncio.Lock()

    @property
    def count(self) -> int:
        """The record's entries: the steps run from 0 to this."""
        return len(self.record.actions)

    def step_at(self, version: int) -> int:
        """The step whose state the game had at `version` (a change of hands logs nothing and keeps the
        state)."""
        return max(0, bisect.bisect_right(self.versions, version) - 1)

    async def step(self, number: int) -> Step:
        """Step `number` (0 to `count`); REPLAY_MISMATCH if the record does not replay that far,
        UNAVAILABLE when the rules service is."""
        async with self.lock:
            found = self.recent.get(number)
            if found is None:
                found = await self._derive(number)
                self.recent[number] = found
                if len(self.recent) > self.recent_steps:
                    self.recent.popitem(last=False)
            self.recent.move_to_end(number)
            return found

    def _keep(self, number: int, state: any_pb2.Any) -> None:
        if number % self.checkpoint_steps == 0 or number in self.returned_to:
            self.kept[number] = state
        self.passed[number] = state
        self.passed.move_to_end(number)
        if len(self.passed) > RECENT_STATES:
            self.passed.popitem(last=False)

    def _known(self, number: int) -> any_pb2.Any:
        for states in (self.kept, self.passed):
            if number in states:
                return states[number]
        return self.recent[number].state

    async def _derive(self, number: int) -> Step:
        if number == 0:
            record = self.record
            request = rules_pb2.NewGameRequest(
                player_count=record.player_count, config=record.config, seed=record.seed
            )
            created = await self.title.call("NewGame", request)
            self.kept[0] = created.state
            return Step(0, 0, created.state, tuple(created.events))
        before = await self._state(number - 1)
        state, events = await self._apply(number, before)
        entry = self.record.actions[number - 1]
        legal = None if entry.HasField("returned_to") else await self._legal(number, before, entry)
        self._keep(number, state)
        return Step(number, entry.version, state, events, entry, legal)

    async def _state(self, number: int) -> any_pb2.Any:
        """The state after step `number`, applied from the nearest one known before it."""
        if 0 not in self.kept:
            await self._derive(0)
        start = max(n for n in (*self.kept, *self.passed, *self.recent) if n <= number)
        state = self._known(start)
        for at in range(start + 1, number + 1):
            state, _ = await self._apply(at, state)
            self._keep(at, state)
        return state

    async def _apply(
        self, number: int, state: any_pb2.Any
    ) -> tuple[any_pb2.Any, tuple[rules_pb2.Event, ...]]:
        """The state and events of entry `number` applied to `state`, the state before it."""
        entry = self.record.actions[number - 1]
        if entry.version <= self.versions[number - 1]:  # versions only go up
            raise mismatch(
                f"entry {number} has version {entry.version}, after {self.versions[number - 1]}", number
            )
        if entry.HasField("returned_to"):
            if entry.returned_to >= entry.version:
                raise mismatch(
                    f"entry {number} returns to version {entry.returned_to}, not before it", number
                )
            event = undo.taken_back(self.record.seats, entry.seat, entry.takeback)
            return await self._state(self.step_at(entry.returned_to)), (event,)
        request = rules_pb2.ApplyActionRequest(state=state, seat=entry.seat, action=entry.action)
        try:
            changed = await self.title.call("ApplyAction", request)
        except GatewayError as error:
            if error.code == grpc.StatusCode.UNAVAILABLE:
                raise
            raise mismatch(f"action {number} refused: {error.message}", number) from error
        return changed.state, tuple(changed.events)

    async def _legal(
        self, number: int, before: any_pb2.Any, entry: gateway_pb2.LoggedAction
    ) -> rules_pb2.LegalAction:
        """The legal action entry `number` played, among its seat's at the state before it."""
        request = rules_pb2.ListLegalActionsRequest(state=before, seat=entry.seat)
        listed = (await self.title.call("ListLegalActions", request)).actions
        found = next((legal for legal in listed if legal.action == entry.action), None)
        if found is None:  # the log keeps a move's bytes as sent: another encoding of the same action?
            _load_generated_messages()
            action_class = symbol_database.Default().GetSymbol(self.title.info.action_type)
            played = action_class.FromString(entry.action.value)  # it parsed: the rules service applied it
            found = next(
                (legal for legal in listed if action_class.FromString(legal.action.value) == played), None
            )
        if found is None:
            raise mismatch(f"action {number} is none of seat {entry.seat}'s legal actions", number)
        return found
