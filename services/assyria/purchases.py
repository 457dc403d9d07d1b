"""Buying with camels (§4 Phase 3, §1.1, §1.2; OP-2): the top plow card (2, only with no plow in hand)
and one leftover food card of the unclaimed column, each at most once a turn."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.cards import CARD_COST, NO_CARD
from services.assyria.data import PLOW_COST
from services.assyria.state import NOBODY, State


def leftover_column(state: State) -> int:
    """The index of the column nobody took (-1 if none)."""
    seats = state.column_seats
    return seats.index(NOBODY) if NOBODY in seats else -1


def leftover_card(state: State, row: int) -> int:
    """The card still in a sowing row (1 or 2) of the unclaimed column, or NO_CARD."""
    column = leftover_column(state)
    if column < 0:
        return NO_CARD
    return (state.sowing_row_1 if row == 1 else state.sowing_row_2)[column]


def options(state: State, seat: int) -> list[act.Action]:
    """The plow and the leftover cards the seat may buy now."""
    player = state.players[seat]
    found = []
    if not state.plow_bought and not player.plow and state.plow_stack and player.camels >= PLOW_COST:
        found.append(act.BUY_PLOW_ACTION)
    if not state.food_bought:
        for row in (1, 2):
            card = leftover_card(state, row)
            if card != NO_CARD and player.camels >= CARD_COST[card]:
                found.append(act.action(act.BUY_FOOD_CARD, row))
    return found


def play(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """Pay and take the plow or the card."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == act.BUY_PLOW:
        player.camels -= PLOW_COST
        player.plow = True
        state.plow_stack -= 1
        state.plow_bought = True
        events.append(ev.PlowBought(seat))
        return
    column = leftover_column(state)
    row = state.sowing_row_1 if action.a == 1 else state.sowing_row_2
    card = row[column]
    row[column] = NO_CARD
    player.camels -= CARD_COST[card]
    player.hand.append(card)
    state.food_bought = True
    events.append(ev.FoodCardBought(seat, card, CARD_COST[card]))
