"""The engine's public API: legal actions, playing an action in place, and the pure `apply`.

Every step of a turn is a (legal, play) pair of the module that owns it (STEPS); a step's play that
finishes it hands over to the expansion sequence. Decisions with a single legal action are taken by
themselves and their events reported like any other; chance (sowing, reveals) happens inside the
decision that causes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from services.assyria import data, expansion, farming, feeding, huts, phase_actions, setup, wells
from services.assyria.actions import Action
from services.assyria.state import (
    ACTIONS,
    DRAFT,
    FEED,
    GAME_OVER,
    HARVEST,
    PLACE_HUTS,
    START_SPACE,
    WELLS,
    State,
)
from services.common.decisions import DecisionLoop

# Open points implemented only at their DEFAULT (the rules name no other reading to implement): a
# change to one of these constants must come with the engine's change, so it is refused here.
ONLY_DEFAULTS: Final = {
    "FOOD_HAND_LIMIT": None,  # OP-11
    "SHARED_VICTORY": True,  # OP-13
    "WELL_ZIGGURAT_CHECK": "site_hexes",  # OP-14
    "MIDDLE_PLOWS_IN_TURN_ORDER": True,  # OP-16
    "ASSUR_TIE_BEST_HUT": True,  # OP-20
    "EXPANSION_MODE": "per_player",  # OP-21
}
_changed = sorted(name for name, value in ONLY_DEFAULTS.items() if getattr(data, name) != value)
if _changed:
    raise ImportError(f"Assyria's engine implements only the DEFAULT of {', '.join(_changed)}")

Legal = Callable[[State], list[Action]]
Play = Callable[[State, Action, list], None]  # type: ignore[type-arg]


def _play_place(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    if huts.play(state, action, events):
        expansion.after_placing(state, events)


def _play_feed(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    if feeding.play(state, action, events):
        expansion.after_feeding(state, events)


def _play_wells(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    if wells.play(state, action, events):
        expansion.after_wells(state, events)


STEPS: Final[dict[int, tuple[Legal, Play]]] = {
    START_SPACE: (setup.legal_start_space, setup.play_start_space),
    DRAFT: (setup.legal_draft, setup.play_draft),
    HARVEST: (farming.legal_harvest, farming.play_harvest),
    PLACE_HUTS: (huts.legal, _play_place),
    FEED: (feeding.legal, _play_feed),
    WELLS: (wells.legal, _play_wells),
    ACTIONS: (phase_actions.legal, phase_actions.play),
}


LOOP: Final[DecisionLoop[State, Action]] = DecisionLoop.of_steps(GAME_OVER, STEPS)
legal_now = LOOP.legal_now
check_seat = LOOP.check_seat
legal_actions = LOOP.legal_actions
acting_seats = LOOP.acting_seats
settle = LOOP.settle
play = LOOP.play
apply = LOOP.apply
