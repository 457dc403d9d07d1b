"""Phase 2a, new huts (§4, rulings 2, 3, 15, 16): each on an empty usable hex next to one of the
player's own huts or ziggurats, huts placed earlier in the step included; new huts are unfed."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.board import BOARDS
from services.assyria.data import HUTS_MANDATORY
from services.assyria.state import NOBODY, State


def open_hexes(state: State, seat: int) -> list[int]:
    """The empty hexes next to the seat's pieces, ascending."""
    board = BOARDS[state.n]
    neighbours = board.neighbours
    huts, ziggurats = state.hut_seats, state.ziggurat_seats
    found: set[int] = set()
    for h in board.hexes:
        if huts[h] == seat or ziggurats[h] == seat:
            found.update(neighbours[h])
    return sorted([m for m in found if huts[m] == NOBODY and ziggurats[m] == NOBODY])


def can_place(state: State) -> bool:
    """Whether the acting seat still has a hut to place and a hex to place it on."""
    return state.huts_to_place > 0 and bool(open_hexes(state, state.actor))


def legal(state: State) -> list[act.Action]:
    """A hut on each open hex (and, if placements were optional, stopping: OP-9)."""
    actions = [act.action(act.PLACE_HUT, h) for h in open_hexes(state, state.actor)]
    if not HUTS_MANDATORY:
        actions.append(act.STOP_PLACING_ACTION)
    return actions


def play(state: State, action: act.Action, events: list) -> bool:  # type: ignore[type-arg]
    """Place a hut (or stop); True when the placements are over."""
    if action.kind == act.STOP_PLACING:
        state.huts_to_place = 0
        return True
    state.hut_seats[action.a] = state.actor
    state.fed[action.a] = False
    state.players[state.actor].huts -= 1
    state.huts_to_place -= 1
    events.append(ev.HutPlaced(state.actor, action.a))
    if not state.huts_to_place:
        return True
    legal_next = legal(state)
    if not legal_next or legal_next[0].kind != act.PLACE_HUT:
        return True
    state.legal = legal_next  # the decision loop's memo: computed once, not again for the next step
    return False
