"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every step of the game is a (legal, play) pair of the phase module that owns it; `play` returns
True when the role being carried out is finished. Decisions with a single legal action are taken
automatically (AUTO_RESOLVE_FORCED) and their events reported like any other.
"""

from __future__ import annotations

from collections.abc import Callable

from services.common.errors import GameOver, IllegalAction, MalformedRequest, NotYourTurn
from services.puertorico import builder, captain, craftsman, mayor, roles, settler
from services.puertorico import trader as trade
from services.puertorico.actions import Action
from services.puertorico.data import AUTO_RESOLVE_FORCED
from services.puertorico.state import (
    BUILD,
    CHOOSE_ROLE,
    CRAFTSMAN_PRIVILEGE,
    GAME_OVER,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LOAD,
    MAYOR_PRIVILEGE,
    PLACE_COLONIST,
    SELL,
    STORE,
    TAKE_TILE,
    UNIVERSITY_STEP,
    State,
)

Legal = Callable[[State], list[Action]]
Play = Callable[[State, Action, list], bool]  # type: ignore[type-arg]

STEPS: dict[int, tuple[Legal, Play]] = {
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
}


def legal_now(state: State) -> list[Action]:
    """The acting seat's legal actions (cached on the state until it changes)."""
    legal = state.legal
    if legal is None:
        legal = [] if state.step == GAME_OVER else STEPS[state.step][0](state)
        state.legal = legal
    return legal


def check_seat(state: State, seat: int) -> None:
    """Raise MalformedRequest unless `seat` is a seat of this game."""
    if not 0 <= seat < state.n:
        raise MalformedRequest(f"seat {seat} is not in this {state.n}-player game", seat=str(seat))


def legal_actions(state: State, seat: int) -> list[Action]:
    """`seat`'s legal actions: empty unless it is the acting seat."""
    check_seat(state, seat)
    if state.step == GAME_OVER or seat != state.actor:
        return []
    return legal_now(state)


def acting_seats(state: State) -> tuple[int, ...]:
    """The seat that acts now, or none once the game is over."""
    return () if state.step == GAME_OVER else (state.actor,)


def _step(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    state.legal = None
    if STEPS[state.step][1](state, action, events):
        roles.end_role(state, events)


def settle(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Take forced decisions until a real choice (or the end) is reached."""
    while state.step != GAME_OVER:
        legal = legal_now(state)
        if not (AUTO_RESOLVE_FORCED and len(legal) == 1):
            return
        _step(state, legal[0], events)


def play(state: State, seat: int, action: Action) -> list:  # type: ignore[type-arg]
    """Apply `seat`'s action in place; the state is untouched when the action is refused."""
    check_seat(state, seat)
    if state.step == GAME_OVER:
        raise GameOver("the game is over")
    if seat != state.actor:
        raise NotYourTurn(f"seat {seat} does not act now; seat {state.actor} does", actor=str(state.actor))
    if action not in legal_now(state):
        raise IllegalAction(f"{action_name(action)} is not a legal action now", action=action_name(action))
    events: list = []  # type: ignore[type-arg]
    _step(state, action, events)
    settle(state, events)
    return events


def apply(state: State, seat: int, action: Action) -> tuple[State, list]:  # type: ignore[type-arg]
    """The pure form of `play`: a new state and the events; the argument is never changed."""
    new_state = state.copy()
    events = play(new_state, seat, action)
    return new_state, events


def action_name(action: Action) -> str:
    """A compact description of any action, legal or not, for error messages."""
    return f"action(kind={action.kind}, arg={action.arg}, arg2={action.arg2})"
