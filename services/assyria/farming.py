"""Phase 1 steps 2-3, harvest and the new turn order (§4): in turn order each seat takes a free column
(both its cards, into the hand); the order of the columns taken is the new turn order."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria import expansion, turns
from services.assyria.cards import NO_CARD
from services.assyria.state import NOBODY, State


def legal_harvest(state: State) -> list[act.Action]:
    """Every free column."""
    return [act.action(act.TAKE_COLUMN, c) for c, seat in enumerate(state.column_seats) if seat == NOBODY]


def play_harvest(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """Take a column; after the last seat, the new turn order and the expansion phase."""
    column = action.a
    state.column_seats[column] = state.actor
    cards = tuple(c for c in (state.sowing_row_1[column], state.sowing_row_2[column]) if c != NO_CARD)
    state.players[state.actor].hand.extend(cards)
    state.sowing_row_1[column] = NO_CARD
    state.sowing_row_2[column] = NO_CARD
    events.append(ev.ColumnTaken(state.actor, column, cards))
    if not turns.advance(state):
        state.turn_order = [seat for seat in state.column_seats if seat != NOBODY]
        events.append(ev.TurnOrderSet(tuple(state.turn_order)))
        expansion.begin(state, events)
