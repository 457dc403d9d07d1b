"""Role selection, the end of a role and of a round, the prospector, and the end of the game (§3, §4.7)."""

from __future__ import annotations

from collections.abc import Callable

from services.puertorico import builder, captain, craftsman, mayor, settler, trader
from services.puertorico.actions import ROLE, Action
from services.puertorico.data import (
    BUILDER,
    CAPTAIN,
    CRAFTSMAN,
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
    RoleChosen,
    RoundEnded,
)
from services.puertorico.scoring import final_scores
from services.puertorico.state import CHOOSE_ROLE, GAME_OVER, State

PROSPECTOR_DOUBLOONS = 1
UNUSED_ROLE_DOUBLOONS = 1


def prospect(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """The prospector: a privilege only (§4.7)."""
    state.players[state.selector].doubloons += PROSPECTOR_DOUBLOONS
    events.append(DoubloonsReceived(state.selector, PROSPECTOR_DOUBLOONS, DOUBLOONS_PROSPECTOR))
    return True


ROLE_START: dict[int, Callable[[State, list], bool]] = {  # type: ignore[type-arg]
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
    state.selector = seat
    state.role_turn = 0
    events.append(RoleChosen(seat, role))
    if doubloons:
        state.players[seat].doubloons += doubloons
        events.append(DoubloonsReceived(seat, doubloons, DOUBLOONS_ROLE_CARD))
    return ROLE_START[role](state, events)


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
        end_game(state, events)
        return
    state.governor = next_governor
    state.round += 1
    state.step = CHOOSE_ROLE
    state.actor = next_governor


def end_game(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The game is over: final scores are public."""
    state.step = GAME_OVER
    state.legal = []
    scores = final_scores(state)
    events.append(GameEnded(tuple(s.total for s in scores.seats), scores.winners))
