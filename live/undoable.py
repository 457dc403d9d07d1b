"""What a seat may take back: the game's undo list (`keys.game_undo`), as the commit script keeps it.

Every move's commit says what it does to the list (`step_of_move`): a client's decision the rules
service reports `undoable` (`services.common.undo`) pushes the state before it, with the acting seats
and the clock entry of that version (an entry); any other decision, and every commit that is no
client's decision (a bot's or a timeout's move, a change of hands, a takeback), resets the list to a
mark saying which seat's decision was the barrier and why; a push by one seat first drops the entries
of another (it has acted); an undo pops the newest entry; the game's end empties it. So at any version
the list holds exactly what the acting seat may take back, oldest first (at most
`live.store.UNDO_KEPT`). `live.undo` reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live.replies import blob
from live.store import Meta, Snapshot, UndoStep

MARK = b"h:"  # the head of the list's mark (an entry's head is its seat and ':')
BARRIER_NAMES: dict[int, str] = {
    rules_pb2.UNDO_BARRIER_HAND_OVER: "hand_over",
    rules_pb2.UNDO_BARRIER_CHANCE: "chance",
    rules_pb2.UNDO_BARRIER_REVEAL: "reveal",
}
BARRIER_WORDS: dict[int, str] = {
    rules_pb2.UNDO_BARRIER_HAND_OVER: "another seat has acted since (the turn passed on)",
    rules_pb2.UNDO_BARRIER_CHANCE: "it drew something by chance",
    rules_pb2.UNDO_BARRIER_REVEAL: "it showed you something hidden",
}


@dataclass(frozen=True)
class Entry:
    """A decision the seat may take back: the version before it, with its state (a packed Any's bytes,
    as the game keeps it), acting seats and clock hash."""

    seat: int
    version: int
    acting: tuple[int, ...]
    clock: dict[bytes, bytes]
    state: bytes


@dataclass(frozen=True)
class Mark:
    """The commit that last reset the list: the seat whose decision it was (-1: none of a client's),
    its version, and why its seat may not take it back (UndoBarrier values)."""

    seat: int
    version: int
    barriers: tuple[int, ...]


def entry_payload(version: int, acting: Sequence[int], clock: dict[bytes, bytes], state: bytes) -> bytes:
    """An entry as the commit script pushes it (after the seat it adds): a JSON head, a line break, the
    state's bytes."""
    head = {
        "v": version,
        "a": list(acting),
        "c": {blob(name).decode(): blob(value).decode() for name, value in clock.items()},
    }
    return json.dumps(head, separators=(",", ":")).encode() + b"\n" + state


def mark(seat: int, version: int, barriers: Iterable[int]) -> bytes:
    """The mark of a commit that resets the list."""
    return b"h:%d:%d:%s" % (seat, version, ",".join(str(b) for b in barriers).encode())


def read_item(raw: bytes | str | None) -> Entry | Mark | None:
    """An item of the list, as stored."""
    if raw is None:
        return None
    data = blob(raw)
    if data.startswith(MARK):
        seat, version, barriers = data[len(MARK) :].decode().split(":")
        return Mark(int(seat), int(version), tuple(int(b) for b in barriers.split(",") if b))
    seat_text, _, rest = data.partition(b":")
    head, _, state = rest.partition(b"\n")
    fields = json.loads(head)
    clock = {name.encode(): value.encode() for name, value in fields["c"].items()}
    return Entry(int(seat_text), int(fields["v"]), tuple(fields["a"]), clock, state)


def step_of_move(
    meta: Meta,
    seat: int,
    version: int,
    client: bool,
    snapshot: Snapshot,
    change: rules_pb2.ApplyActionResponse,
) -> UndoStep:
    """What a move's commit does to the undo list: keep the state before it (a client's undoable decision
    in a game that allows undo), or reset the list to the move's mark (`version`: the version it
    produced; the game's end empties it)."""
    if change.game_over:
        return UndoStep("reset")
    if client and change.undoable and meta.record.undo != gateway_pb2.UNDO_POLICY_OFF:
        return UndoStep("push", entry_payload(version - 1, meta.acting_seats, snapshot.clock, snapshot.state))
    return UndoStep("reset", mark(seat if client else -1, version, change.undo_barriers))


def reset(version: int) -> UndoStep:
    """The step of a commit that is no decision of a client's (a change of hands, a takeback)."""
    return UndoStep("reset", mark(-1, version, ()))
