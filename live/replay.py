"""Re-deriving a game's states from its config, seed and action log, through its rules service.

The log holds one entry per version that applied an action, and one per undo or takeback, naming the
version whose state the game returned to (`live.store.Logged`); a change of hands logs nothing and
keeps the state. `replay` applies the entries in order, keeping every version's state, so a return
takes that version's state again (its generator's position with it). ReplayGame checks a finished
game with it; a takeback finds the state it returns to with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live.errors import GatewayError
from live.rules import Title


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
