"""Phase 3, actions (§4): each seat in turn order builds and raises ziggurats, sends huts to Assur,
makes offerings and buys a plow or a leftover food card, in any order, until it ends its actions."""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import assur, end_of_turn, offerings, purchases, turns, ziggurats
from services.assyria.state import ACTIONS, State


def begin(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The first seat in turn order starts its actions."""
    turns.start(state, ACTIONS)
    state.clear_turn_progress()


def legal(state: State) -> list[act.Action]:
    """Every affordable action, then ending the actions."""
    seat = state.actor
    return [
        *ziggurats.options(state, seat),
        *assur.options(state, seat),
        *offerings.options(state, seat),
        *purchases.options(state, seat),
        act.END_ACTIONS_ACTION,
    ]


PLAYS: Final = {
    act.BUILD_BASE: ziggurats.play,
    act.RAISE_ZIGGURAT: ziggurats.play,
    act.INTRIGUE: assur.play,
    act.MAKE_OFFERING: offerings.play,
    act.BUY_PLOW: purchases.play,
    act.BUY_FOOD_CARD: purchases.play,
}


def play(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """One action; ending passes to the next seat, or ends the turn after the last."""
    if action.kind != act.END_ACTIONS:
        PLAYS[action.kind](state, action, events)
        return
    state.clear_turn_progress()
    if not turns.advance(state):
        end_of_turn.end_turn(state, events)
