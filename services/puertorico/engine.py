"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every step of the game is a (legal, play) pair of the phase module that owns it; `play` returns
True when the role being carried out is finished. Decisions with a single legal action are taken
automatically (AUTO_RESOLVE_FORCED) and their events reported like any other.

Expansion I: a guesthouse owner may also move a guest on their own turn in a role (OP-13 window 1),
so those moves are added to the legal actions of these steps and played without leaving the step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from services.common.decisions import DecisionLoop
from services.puertorico import builder, captain, craftsman, draft, mayor, roles, settler
from services.puertorico import trader as trade
from services.puertorico.actions import GUEST_TO_BUILDING, GUEST_TO_TILE, Action
from services.puertorico.data import AUTO_RESOLVE_FORCED, GUESTHOUSE, GUESTHOUSE_WINDOWS
from services.puertorico.guests import guest_moves, move_guest
from services.puertorico.state import (
    BLACK_MARKET_COLONIST_STEP,
    BLACK_MARKET_STEP,
    BUILD,
    CHOOSE_ROLE,
    CRAFTSMAN_PRIVILEGE,
    DRAFT_BUILDING,
    DRAFT_COST,
    GAME_OVER,
    GUESTS,
    HACIENDA_PLACE,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LIBRARY_TILE,
    LOAD,
    MAYOR_PRIVILEGE,
    PLACE_COLONIST,
    SELL,
    SMALL_WHARF_STEP,
    STORE,
    TAKE_TILE,
    UNIVERSITY_STEP,
    State,
)

Legal = Callable[[State], list[Action]]
Play = Callable[[State, Action, list], bool]  # type: ignore[type-arg]

STEPS: Final[dict[int, tuple[Legal, Play]]] = {
    CHOOSE_ROLE: (roles.legal, roles.play),
    HACIENDA_STEP: (settler.legal_hacienda, settler.play_hacienda),
    TAKE_TILE: (settler.legal_take_tile, settler.play_take_tile),
    HOSPICE_STEP: (settler.legal_hospice, settler.play_hospice),
    MAYOR_PRIVILEGE: (mayor.legal_privilege, mayor.play_privilege),
    PLACE_COLONIST: (mayor.legal_place, mayor.play_place),
    BUILD: (builder.legal_build, builder.play_build),
    UNIVERSITY_STEP: (builder.legal_university, builder.play_university),
    CRAFTSMAN_PRIVILEGE: (craftsman.legal_privilege, craftsman.play_privilege),
    SELL: (trade.legal_sell, trade.play_sell),
    LOAD: (captain.legal_load, captain.play_load),
    STORE: (captain.legal_store, captain.play_store),
    DRAFT_COST: (draft.legal_cost, draft.play_cost),
    DRAFT_BUILDING: (draft.legal_building, draft.play_building),
    HACIENDA_PLACE: (settler.legal_hacienda_place, settler.play_hacienda_place),
    LIBRARY_TILE: (settler.legal_library_tile, settler.play_library_tile),
    BLACK_MARKET_STEP: (builder.legal_black_market, builder.play_black_market),
    BLACK_MARKET_COLONIST_STEP: (builder.legal_black_market_colonist, builder.play_black_market_colonist),
    SMALL_WHARF_STEP: (captain.legal_small_wharf, captain.play_small_wharf),
    GUESTS: (roles.legal_guests, roles.play_guests),
}
# The first decision of a player's own turn in a role, where their guests may move first (OP-13).
OWN_TURN_STEPS: Final = frozenset(
    (HACIENDA_STEP, TAKE_TILE, BUILD, SELL, LOAD, STORE) if "own_step" in GUESTHOUSE_WINDOWS else ()
)
GUEST_MOVES: Final = (GUEST_TO_TILE, GUEST_TO_BUILDING)


def _legal(state: State) -> list[Action]:
    """The step's legal actions, with the guest moves of a guesthouse owner's own turn."""
    legal = STEPS[state.step][0](state)
    if state.step in OWN_TURN_STEPS and state.players[state.actor].buildings.get(GUESTHOUSE):
        legal = sorted(legal + guest_moves(state.players[state.actor]))
    return legal


def _take(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """One decision in place; the end of a role moves the round on."""
    if action.kind in GUEST_MOVES and state.step != GUESTS:
        move_guest(state, state.actor, action, events)  # the turn's decision is still to come
    elif STEPS[state.step][1](state, action, events):
        roles.end_role(state, events)


LOOP: Final[DecisionLoop[State, Action]] = DecisionLoop(GAME_OVER, _legal, _take, AUTO_RESOLVE_FORCED)
check_seat = LOOP.check_seat
legal_actions = LOOP.legal_actions
acting_seats = LOOP.acting_seats
settle = LOOP.settle
play = LOOP.play
apply = LOOP.apply
