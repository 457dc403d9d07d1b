"""Role selection, the end of a role and of a round, the prospector, and the end of the game (§3, §4.7).

Expansion I: guesthouse guests may move at the start of a role and before the final score (OP-13).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from services.puertorico import builder, captain, craftsman, mayor, settler, trader
from services.puertorico.actions import PASS, PASS_ACTION, ROLE, Action
from services.puertorico.board import privilege
from services.puertorico.data import (
    BUILDER,
    CAPTAIN,
    CRAFTSMAN,
    GUESTHOUSE_WINDOW_ROLES,
    GUESTHOUSE_WINDOWS,
    MAYOR,
    NO_ROLE,
    PROSPECTOR,
    PROSPECTOR_2,
    SETTLER,
    SETUPS,
    TRADER,
)
from services.puertorico.events import (
    DOUBLOONS_PROSPECTOR,
    DOUBLOONS_ROLE_CARD,
    DoubloonsReceived,
    GameEnded,
    Passed,
    RoleChosen,
    RoundEnded,
)
from services.puertorico.guests import guest_moves, move_guest
from services.puertorico.scoring import final_scores
from services.puertorico.state import CHOOSE_ROLE, GAME_OVER, GUESTS, State

PROSPECTOR_DOUBLOONS: Final = 1
UNUSED_ROLE_DOUBLOONS: Final = 1


def prospect(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """The prospector: a privilege only (§4.7), doubled by a library."""
    amount = PROSPECTOR_DOUBLOONS * privilege(state, state.role_selector)
    state.players[state.role_selector].doubloons += amount
    events.append(DoubloonsReceived(state.role_selector, amount, DOUBLOONS_PROSPECTOR))
    return True


ROLE_START: Final[dict[int, Callable[[State, list], bool]]] = {  # type: ignore[type-arg]
    SETTLER: settler.start,
    MAYOR: mayor.start,
    BUILDER: builder.start,
    CRAFTSMAN: craftsman.start,
    TRADER: trader.start,
    CAPTAIN: captain.start,
    PROSPECTOR: prospect,
    PROSPECTOR_2: prospect,
}


def legal(state: State) -> list[Action]:
    """The roles not yet taken this round."""
    return [ROLE[r] for r, taken in zip(state.roles, state.role_taken, strict=True) if not taken]


def play(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Take a role and its doubloons, then start carrying it out; True if it is already done."""
    role = action.arg
    index = state.roles.index(role)
    seat = state.actor
    state.role_taken[index] = True
    doubloons = state.role_doubloons[index]
    state.role_doubloons[index] = 0
    state.picks += 1
    state.role = role
    state.role_selector = seat
    state.role_turn = 0
    events.append(RoleChosen(seat, role))
    if doubloons:
        state.players[seat].doubloons += doubloons
        events.append(DoubloonsReceived(seat, doubloons, DOUBLOONS_ROLE_CARD))
    if state.expansion and role in GUESTHOUSE_WINDOW_ROLES and "role_start" in GUESTHOUSE_WINDOWS:
        return _guest_window(state, events)
    return ROLE_START[role](state, events)


def _guest_window(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Guests may move, seat by seat from the selector (OP-13); then the role starts or the game ends."""
    n = state.n
    while state.role_turn < n:
        seat = (state.role_selector + state.role_turn) % n
        if guest_moves(state.players[seat]):
            state.step = GUESTS
            state.actor = seat
            return False
        state.role_turn += 1
    state.role_turn = 0
    if state.role == NO_ROLE:
        end_game(state, events)
        return False
    return ROLE_START[state.role](state, events)


def legal_guests(state: State) -> list[Action]:
    """Stop moving guests, or move one to an empty circle."""
    return [PASS_ACTION, *guest_moves(state.players[state.actor])]


def play_guests(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Move a guest (the seat may move another), or let the next seat move theirs."""
    seat = state.actor
    if action.kind == PASS:
        events.append(Passed(seat, GUESTS))
    else:
        move_guest(state, seat, action, events)
        if guest_moves(state.players[seat]):
            return False
    state.role_turn += 1
    return _guest_window(state, events)


def end_role(state: State, events: list) -> None:  # type: ignore[type-arg]
    """After a role: the next selection, or the end of the round."""
    state.role = NO_ROLE
    state.role_turn = 0
    if state.picks < SETUPS[state.n].picks_per_round:
        state.step = CHOOSE_ROLE
        state.actor = (state.governor + state.picks) % state.n
    else:
        end_round(state, events)


def end_round(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Doubloons on unused roles, the governor passes on, or the game ends (§3 steps 6-7)."""
    for i, taken in enumerate(state.role_taken):
        if not taken:
            state.role_doubloons[i] += UNUSED_ROLE_DOUBLOONS
        state.role_taken[i] = False
    state.picks = 0
    next_governor = (state.governor + 1) % state.n
    events.append(RoundEnded(state.round, next_governor))
    if state.end_triggers:
        if state.expansion and "final" in GUESTHOUSE_WINDOWS:
            state.role_selector = state.governor  # the last window: guests may move before the final score
            state.role_turn = 0
            _guest_window(state, events)
        else:
            end_game(state, events)
        return
    state.governor = next_governor
    state.round += 1
    state.step = CHOOSE_ROLE
    state.actor = next_governor


def end_game(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The game is over: final scores are public."""
    state.step = GAME_OVER
    scores = final_scores(state)
    events.append(GameEnded(tuple(s.total for s in scores.seats), scores.winners))
