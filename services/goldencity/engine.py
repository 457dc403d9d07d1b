"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every decision is a (legal, play) pair of the module that owns it (STEPS); decisions with a single
legal action are taken automatically (AUTO_RESOLVE_FORCED), so a seat that cannot build is passed.
Scoring and the start of the next round happen inside the decision that ends a round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from services.common.decisions import DecisionLoop
from services.goldencity import bidding, bonuses, building, payment, round_end
from services.goldencity.actions import BUILD as BUILD_ACTION
from services.goldencity.actions import Action
from services.goldencity.rules import AUTO_RESOLVE_FORCED
from services.goldencity.state import (
    BID,
    BUILD,
    CHOOSE_BONUS_CARD,
    CHOOSE_GOODS_CARD,
    DISCARD,
    GAME_OVER,
    PAY,
    State,
)

Legal = Callable[[State], list[Action]]
Play = Callable[[State, Action, list], None]  # type: ignore[type-arg]


def _play_build_step(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    if action.kind == BUILD_ACTION:
        building.play_build(state, action, events)
    else:
        building.play_end_building(state, action, events)


def _play_goods(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    bonuses.play_goods(state, action, events)
    building.house_done(state, events)


def _play_bonus(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    bonuses.play_bonus(state, action, events)
    building.house_done(state, events)


STEPS: Final[dict[int, tuple[Legal, Play]]] = {
    BID: (bidding.legal, bidding.play),
    BUILD: (building.legal, _play_build_step),
    PAY: (payment.legal, building.play_pay),
    CHOOSE_GOODS_CARD: (bonuses.legal_goods, _play_goods),
    CHOOSE_BONUS_CARD: (bonuses.legal_bonus, _play_bonus),
    DISCARD: (round_end.legal_discard, round_end.play_discard),
}


LOOP: Final[DecisionLoop[State, Action]] = DecisionLoop.of_steps(GAME_OVER, STEPS, AUTO_RESOLVE_FORCED)
legal_now = LOOP.legal_now
check_seat = LOOP.check_seat
legal_actions = LOOP.legal_actions
acting_seats = LOOP.acting_seats
settle = LOOP.settle
play = LOOP.play
apply = LOOP.apply
