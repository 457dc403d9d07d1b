"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every step of a turn is a (legal, play) pair of the module that owns it (STEPS). Decisions with a
single legal action are taken automatically (AUTO_RESOLVE_FORCED) and their events reported like
any other; die turns and scorings happen inside the turn that causes them.
"""

from __future__ import annotations

from collections.abc import Callable

from services.common.errors import GameOver, IllegalAction, MalformedRequest, NotYourTurn
from services.glenmore import activation, movement, payment, tiles
from services.glenmore.actions import Action
from services.glenmore.data import AUTO_RESOLVE_FORCED
from services.glenmore.state import (
    ACTIVATE,
    CHOOSE_CUBE,
    CHOOSE_TILE,
    GAME_OVER,
    MOVE,
    PAY,
    PAY_FOR_TILE,
    PLACE_TILE,
    State,
)

Legal = Callable[[State], list[Action]]
Play = Callable[[State, Action, list], None]  # type: ignore[type-arg]


def _play_pay(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    purpose = state.pay_purpose
    if payment.play(state, action, events):
        if purpose == PAY_FOR_TILE:
            tiles.after_payment(state, events)
        else:
            activation.after_payment(state, events)


STEPS: dict[int, tuple[Legal, Play]] = {
    CHOOSE_TILE: (tiles.legal_choose, tiles.play_choose),
    PLACE_TILE: (tiles.legal_place, tiles.play_place),
    PAY: (payment.legal, _play_pay),
    CHOOSE_CUBE: (tiles.legal_cube, tiles.play_cube),
    ACTIVATE: (activation.legal, activation.play),
    MOVE: (movement.legal, movement.play),
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
    STEPS[state.step][1](state, action, events)


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
    return f"action(kind={action.kind}, args={tuple(action[1:])})"
