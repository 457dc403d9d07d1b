"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every step of a turn is a (legal, play) pair of the module that owns it (STEPS). Decisions with a
single legal action are taken automatically (AUTO_RESOLVE_FORCED) and their events reported like
any other; die turns and scorings happen inside the turn that causes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from services.common.decisions import DecisionLoop
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
    purpose = state.purpose
    if payment.play(state, action, events):
        if purpose == PAY_FOR_TILE:
            tiles.after_payment(state, events)
        else:
            activation.after_payment(state, events)


STEPS: Final[dict[int, tuple[Legal, Play]]] = {
    CHOOSE_TILE: (tiles.legal_choose, tiles.play_choose),
    PLACE_TILE: (tiles.legal_place, tiles.play_place),
    PAY: (payment.legal, _play_pay),
    CHOOSE_CUBE: (tiles.legal_cube, tiles.play_cube),
    ACTIVATE: (activation.legal, activation.play),
    MOVE: (movement.legal, movement.play),
}


LOOP: Final[DecisionLoop[State, Action]] = DecisionLoop.of_steps(GAME_OVER, STEPS, AUTO_RESOLVE_FORCED)
legal_now = LOOP.legal_now
check_seat = LOOP.check_seat
legal_actions = LOOP.legal_actions
acting_seats = LOOP.acting_seats
settle = LOOP.settle
play = LOOP.play
apply = LOOP.apply
